import Foundation
import Testing

/// KeePassXC's own CSV export, written by the real `keepassxc-cli` from a
/// database it built from KeePass XML with tricky fields, imported by the
/// real binary and compared field by field with what the database holds.
@Suite struct KeePassXCImportTests {
    static let keepassxc = ["/usr/bin/keepassxc-cli", "/usr/local/bin/keepassxc-cli"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// What the database holds: (group path below the root, title, user name, password, URL, notes).
    static let entries: [(group: String, title: String, username: String, password: String, url: String, notes: String)] = [
        ("", "Maps, \"quoted\"", "ann@example.com", "p,a\"s\ns", "https://www.google.com/maps/@48.8583701,2.2944813,17z", "line one\nline \"two\", with comma"),
        ("Work/Servers", "ssh box", "root", "=1+2", "ssh://10.0.0.1", ""),
        ("Personal", "Ünïcødé ✓", "josé", "пароль🔑 \\ back", "", "tab\there"),
    ]

    static func xml() -> String {
        func escaped(_ text: String) -> String {
            text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: "\"", with: "&quot;")
        }
        func entry(_ e: (group: String, title: String, username: String, password: String, url: String, notes: String), uuid: Int, otp: String?) -> String {
            var strings = [("Title", e.title), ("UserName", e.username), ("Password", e.password), ("URL", e.url), ("Notes", e.notes)]
            if let otp { strings.append(("otp", otp)) }
            let uuidText = Data((0..<16).map { $0 == 15 ? UInt8(uuid) : 0 }).base64EncodedString()
            return "<Entry><UUID>\(uuidText)</UUID><Times><CreationTime>2021-03-04T05:06:07Z</CreationTime><LastModificationTime>2022-01-02T03:04:05Z</LastModificationTime></Times>"
                + strings.map { "<String><Key>\($0.0)</Key><Value>\(escaped($0.1))</Value></String>" }.joined() + "</Entry>"
        }
        let steam = "otpauth://totp/Steam:ann?secret=JBSWY3DPEHPK3PXP&period=30&digits=5&issuer=Steam&encoder=steam"
        let sha256 = "otpauth://totp/x:root?secret=GEZDGNBVGY3TQOJQ&period=60&digits=8&algorithm=SHA256"
        return """
        <?xml version="1.0" encoding="utf-8" standalone="yes"?>
        <KeePassFile><Meta><Generator>bulwark test</Generator><RecycleBinEnabled>True</RecycleBinEnabled><RecycleBinUUID>AAAAAAAAAAAAAAAAAAAAAg==</RecycleBinUUID></Meta>
        <Root><Group><UUID>AAAAAAAAAAAAAAAAAAAAAQ==</UUID><Name>Root</Name>
        \(entry(entries[0], uuid: 16, otp: steam))
        <Entry><UUID>AAAAAAAAAAAAAAAAAAAAFA==</UUID><String><Key>Title</Key><Value></Value></String><String><Key>URL</Key><Value>https://untitled.example/login</Value></String><String><Key>Password</Key><Value>x</Value></String></Entry>
        <Group><UUID>AAAAAAAAAAAAAAAAAAAAAw==</UUID><Name>Work</Name><Group><UUID>AAAAAAAAAAAAAAAAAAAABA==</UUID><Name>Servers</Name>
        \(entry(entries[1], uuid: 17, otp: sha256))
        </Group></Group>
        <Group><UUID>AAAAAAAAAAAAAAAAAAAABQ==</UUID><Name>Personal</Name>\(entry(entries[2], uuid: 18, otp: nil))</Group>
        <Group><UUID>AAAAAAAAAAAAAAAAAAAAAg==</UUID><Name>Recycle Bin</Name>
        <Entry><UUID>AAAAAAAAAAAAAAAAAAAAEw==</UUID><String><Key>Title</Key><Value>deleted one</Value></String><String><Key>Password</Key><Value>gone</Value></String></Entry>
        </Group></Group></Root></KeePassFile>
        """
    }

    @Test(.enabled(if: keepassxc != nil, "keepassxc-cli is not installed (make test-deps installs Debian's keepassxc)"))
    func everyFieldOfKeePassXCsCSVExportArrives() throws {
        let f = try VaultCommandTests.Fixture()
        let xml = f.dir.appendingPathComponent("source.xml"), kdbx = f.dir.appendingPathComponent("source.kdbx").path
        try Self.xml().write(to: xml, atomically: true, encoding: .utf8)
        let made = try Binary.run(["import", "-p", xml.path, kdbx], stdin: "db-pass\ndb-pass\n", program: Self.keepassxc)
        #expect(made.status == 0, "\(made.stderr)")
        let exported = try Binary.run(["export", "-q", "-f", "csv", kdbx], stdin: "db-pass\n", program: Self.keepassxc)
        #expect(exported.status == 0, "\(exported.stderr)")
        let csv = f.dir.appendingPathComponent("keepassxc.csv")
        try exported.stdout.write(to: csv, atomically: true, encoding: .utf8)

        let imported = try f.run(["import", csv.path])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr == "bulwark: reading \(csv.path) as keepassxc-csv (from its header's group column; apple-csv's columns are there too, but not those).\n")
        #expect(imported.stdout == "Imported 4 entries (4 logins); left out 1 item in the source's trash.\n")

        let out = f.dir.appendingPathComponent("out.json").path
        #expect(try f.run(["export", "--format", "bitwarden-json", out]).status == 0)
        let root = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out))) as! [String: Any]
        let folders = Dictionary(uniqueKeysWithValues: (root["folders"] as! [[String: Any]]).map { ($0["id"] as! String, $0["name"] as! String) })
        let items = root["items"] as! [[String: Any]]
        for expected in Self.entries {
            let item = try #require(items.first { $0["name"] as? String == expected.title }, "\(expected.title) is missing")
            let login = item["login"] as! [String: Any]
            #expect(login["username"] as? String == expected.username)
            #expect(login["password"] as? String == expected.password)
            #expect((login["uris"] as! [[String: Any]]).map { $0["uri"] as! String } == (expected.url.isEmpty ? [] : [expected.url]))
            #expect(item["notes"] as? String ?? "" == expected.notes)
            #expect((item["folderId"] as? String).flatMap { folders[$0] } ?? "" == expected.group)
            #expect(item["creationDate"] as? String == "2021-03-04T05:06:07.000Z")
            #expect(item["revisionDate"] as? String == "2022-01-02T03:04:05.000Z")
        }
        #expect(items.contains { $0["name"] as? String == "untitled.example" })
        #expect(!items.contains { $0["name"] as? String == "deleted one" })

        // The codes: bulwark's from the imported entry, KeePassXC's from its database, at the same moment.
        for title in ["Maps, \"quoted\"", "ssh box"] {
            var ours = "", theirs = "x"
            for _ in 0..<3 where ours != theirs {
                ours = try f.run(["code", title]).stdout.split(separator: " ").first.map(String.init) ?? ""
                theirs = try Binary.run(["show", "-q", "-t", kdbx, title], stdin: "db-pass\n", program: Self.keepassxc).stdout
                    .trimmingCharacters(in: .whitespacesAndNewlines)
            }
            #expect(ours == theirs && !ours.isEmpty, "\(title): bulwark \(ours), keepassxc \(theirs)")
        }
        #expect(try f.run(["code", "Maps, \"quoted\""]).stdout.split(separator: " ").first?.count == 5)
    }
}
