import Foundation
import Testing

/// KeePass databases written by the real `keepassxc-cli` 2.7.4: KDBX 3.1
/// (AES-KDF, Salsa20 protected values) from KeePass XML with tricky fields,
/// with a password, a key file, or both; and KDBX 4.0 (Argon2d, ChaCha20
/// protected values) written by KeePassXC when it merges that database into
/// an empty KDBX 4 template made by pykeepass. Imported by the real binary
/// and compared field by field with the XML they came from.
@Suite struct KDBXImportTests {
    static let keepassxc = KeePassXCImportTests.keepassxc
    static let template = ImportCommandTests.fixtures.appendingPathComponent("kdbx4-template.kdbx")

    static let xml = """
    <?xml version="1.0" encoding="utf-8" standalone="yes"?>
    <KeePassFile><Meta><Generator>bulwark test</Generator><RecycleBinEnabled>True</RecycleBinEnabled><RecycleBinUUID>AAAAAAAAAAAAAAAAAAAAAg==</RecycleBinUUID></Meta>
    <Root><Group><UUID>AAAAAAAAAAAAAAAAAAAAAQ==</UUID><Name>Root</Name>
    <Entry><UUID>AAAAAAAAAAAAAAAAAAAAEA==</UUID><Tags>travel;maps</Tags>
    <Times><CreationTime>2021-03-04T05:06:07Z</CreationTime><LastModificationTime>2022-01-02T03:04:05Z</LastModificationTime><ExpiryTime>2030-01-01T00:00:00Z</ExpiryTime><Expires>True</Expires></Times>
    <String><Key>Title</Key><Value>Maps, "quoted" 地図 🗺</Value></String>
    <String><Key>UserName</Key><Value>ann@example.com</Value></String>
    <String><Key>Password</Key><Value ProtectInMemory="True">p,a"s
    s 🔑</Value></String>
    <String><Key>URL</Key><Value>https://www.google.com/maps/@48.8583701,2.2944813,17z</Value></String>
    <String><Key>Notes</Key><Value>line one
    line "two", with comma; שלום עולם</Value></String>
    <String><Key>otp</Key><Value>otpauth://totp/Steam:ann?secret=JBSWY3DPEHPK3PXP&amp;period=30&amp;digits=5&amp;issuer=Steam&amp;encoder=steam</Value></String>
    <String><Key>Recovery code</Key><Value ProtectInMemory="True">ABCD-1234</Value></String>
    <String><Key>Favourite colour</Key><Value>blue, green</Value></String>
    <History>
    <Entry><UUID>AAAAAAAAAAAAAAAAAAAAEA==</UUID><Times><LastModificationTime>2021-06-01T00:00:00Z</LastModificationTime></Times>
    <String><Key>Title</Key><Value>Maps</Value></String><String><Key>Password</Key><Value ProtectInMemory="True">older-pass-1</Value></String></Entry>
    </History>
    </Entry>
    <Group><UUID>AAAAAAAAAAAAAAAAAAAAAw==</UUID><Name>Work</Name><Group><UUID>AAAAAAAAAAAAAAAAAAAABA==</UUID><Name>Servers</Name>
    <Entry><UUID>AAAAAAAAAAAAAAAAAAAAEQ==</UUID><String><Key>Title</Key><Value>ssh box</Value></String><String><Key>UserName</Key><Value>root</Value></String>
    <String><Key>Password</Key><Value ProtectInMemory="True">=1+2</Value></String><String><Key>URL</Key><Value>ssh://10.0.0.1</Value></String>
    <String><Key>otp</Key><Value>otpauth://totp/x:root?secret=GEZDGNBVGY3TQOJQ&amp;period=60&amp;digits=8&amp;algorithm=SHA256</Value></String></Entry>
    </Group></Group>
    <Group><UUID>AAAAAAAAAAAAAAAAAAAAAg==</UUID><Name>Recycle Bin</Name>
    <Entry><UUID>AAAAAAAAAAAAAAAAAAAAEw==</UUID><String><Key>Title</Key><Value>deleted one</Value></String><String><Key>Password</Key><Value>gone</Value></String></Entry>
    </Group></Group></Root></KeePassFile>
    """

    /// Runs keepassxc-cli with `stdin`; the test fails with its error output.
    static func keepassxcCLI(_ arguments: [String], stdin: String) throws -> Binary.Result {
        let result = try Binary.run(arguments, stdin: stdin, program: keepassxc)
        #expect(result.status == 0, "keepassxc-cli \(arguments.first ?? ""): \(result.stderr)")
        return result
    }

    static func checkEveryField(_ f: VaultCommandTests.Fixture, kdbx4: Bool) throws {
        let out = f.dir.appendingPathComponent("out.json").path
        #expect(try f.run(["export", "--format", "bitwarden-json", out]).status == 0)
        let root = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out))) as! [String: Any]
        let folders = Dictionary(uniqueKeysWithValues: (root["folders"] as! [[String: Any]]).map { ($0["id"] as! String, $0["name"] as! String) })
        let items = root["items"] as! [[String: Any]]
        let maps = try #require(items.first { ($0["name"] as? String)?.hasPrefix("Maps") == true })
        #expect(maps["name"] as? String == "Maps, \"quoted\" 地図 🗺")
        let login = maps["login"] as! [String: Any]
        #expect(login["username"] as? String == "ann@example.com" && login["password"] as? String == "p,a\"s\ns 🔑")
        #expect((login["uris"] as! [[String: Any]]).map { $0["uri"] as! String } == ["https://www.google.com/maps/@48.8583701,2.2944813,17z"])
        #expect(login["totp"] as? String == "steam://JBSWY3DPEHPK3PXP")
        #expect(maps["notes"] as? String == "line one\nline \"two\", with comma; שלום עולם")
        let fields = (maps["fields"] as! [[String: Any]]).map { "\($0["name"]!)=\($0["value"]!)/\($0["type"]!)" }
        #expect(fields.contains("Recovery code=ABCD-1234/1") && fields.contains("Favourite colour=blue, green/0"))
        #expect(fields.contains("bulwark:expires=2030-01-01T00:00:00Z/0"))
        // KeePassXC keeps tags sorted: "maps" first (Bitwarden's folder), "travel" after it.
        #expect(fields.contains("bulwark:tags=travel/0") && (maps["folderId"] as? String).flatMap { folders[$0] } == "maps", "\(fields)")
        #expect((maps["passwordHistory"] as? [[String: Any]])?.map { $0["password"] as! String } == ["older-pass-1"])
        #expect(maps["creationDate"] as? String == "2021-03-04T05:06:07.000Z")
        let ssh = try #require(items.first { $0["name"] as? String == "ssh box" })
        #expect((ssh["folderId"] as? String).flatMap { folders[$0] } == "Work/Servers")
        #expect((ssh["login"] as! [String: Any])["password"] as? String == "=1+2")
        #expect(!items.contains { $0["name"] as? String == "deleted one" } || kdbx4)
    }

    @Test(.enabled(if: keepassxc != nil, "keepassxc-cli is not installed (make test-deps installs Debian's keepassxc)"))
    func kdbx31WithAPasswordAndWithAKeyFile() throws {
        let f = try VaultCommandTests.Fixture()
        let xml = f.dir.appendingPathComponent("source.xml")
        try Self.xml.write(to: xml, atomically: true, encoding: .utf8)
        let plain = f.dir.appendingPathComponent("plain.kdbx").path
        _ = try Self.keepassxcCLI(["import", "-q", "-p", xml.path, plain], stdin: "db-pass\ndb-pass\n")
        let imported = try f.run(["import", plain], stdin: "master\ndb-pass\n")
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout == "Imported 2 entries (2 logins); left out 1 item in the source's trash.\n")
        try Self.checkEveryField(f, kdbx4: false)

        // A key file as KeePassXC makes one (random bytes, hashed), with and without a password.
        let g = try VaultCommandTests.Fixture()
        let keyed = g.dir.appendingPathComponent("keyed.kdbx").path, key = g.dir.appendingPathComponent("db.key").path
        _ = try Self.keepassxcCLI(["import", "-q", "-p", "--set-key-file", key, xml.path, keyed], stdin: "db-pass\ndb-pass\n")
        let wrongKey = try g.run(["import", "--key-file", xml.path, keyed], stdin: "master\ndb-pass\n")
        #expect(wrongKey.status == 1 && wrongKey.stderr.hasSuffix("wrong password or key file (the content does not decrypt). Nothing was imported.\n"), "\(wrongKey.stderr)")
        let withKey = try g.run(["import", "--key-file", key, keyed], stdin: "master\ndb-pass\n")
        #expect(withKey.status == 0 && withKey.stdout == "Imported 2 entries (2 logins); left out 1 item in the source's trash.\n", "\(withKey.stderr)")
        try Self.checkEveryField(g, kdbx4: false)
        let keyOnly = g.dir.appendingPathComponent("key-only.kdbx").path
        _ = try Self.keepassxcCLI(["import", "-q", "--set-key-file", key, xml.path, keyOnly], stdin: "")
        let h = try VaultCommandTests.Fixture()
        #expect(try h.run(["import", "--key-file", key, keyOnly], stdin: "master\n\n").status == 0)

        // A KeePass 2.x XML key file (version 2.0, hex data with its hash), as KeePassXC reads it.
        let v2 = g.dir.appendingPathComponent("v2.keyx").path, v2db = g.dir.appendingPathComponent("v2.kdbx").path
        try """
        <?xml version="1.0" encoding="utf-8"?>
        <KeyFile><Meta><Version>2.0</Version></Meta><Key><Data Hash="630DCD29">
        00010203 04050607 08090A0B 0C0D0E0F
        10111213 14151617 18191A1B 1C1D1E1F
        </Data></Key></KeyFile>
        """.write(toFile: v2, atomically: true, encoding: .utf8)
        _ = try Self.keepassxcCLI(["import", "-q", "-p", "--set-key-file", v2, xml.path, v2db], stdin: "db-pass\ndb-pass\n")
        let k = try VaultCommandTests.Fixture()
        let viaV2 = try k.run(["import", "--key-file", v2, v2db], stdin: "master\ndb-pass\n")
        #expect(viaV2.status == 0, "\(viaV2.stderr)")
    }

    @Test(.enabled(if: keepassxc != nil, "keepassxc-cli is not installed (make test-deps installs Debian's keepassxc)"))
    func kdbx4WrittenByKeePassXCWithArgon2() throws {
        let f = try VaultCommandTests.Fixture()
        let xml = f.dir.appendingPathComponent("source.xml")
        try Self.xml.write(to: xml, atomically: true, encoding: .utf8)
        let source = f.dir.appendingPathComponent("source.kdbx").path, target = f.dir.appendingPathComponent("v4.kdbx").path
        _ = try Self.keepassxcCLI(["import", "-q", "-p", xml.path, source], stdin: "pw\npw\n")
        try FileManager.default.copyItem(atPath: Self.template.path, toPath: target)
        _ = try Self.keepassxcCLI(["merge", "-q", target, source], stdin: "pw\npw\n")
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: target)))
        #expect(bytes[8..<12] == [0, 0, 4, 0])  // KDBX 4.0, as KeePassXC wrote it
        let wrong = try f.run(["import", target], stdin: "master\nnot-pw\n")
        #expect(wrong.status == 1 && wrong.stderr.hasSuffix("wrong password or key file (the header's HMAC does not match). Nothing was imported.\n"))
        // The file's password is asked right after the master password (its KDF runs beside the vault's):
        // a wrong master password is still what is said, given the file's password or not.
        for stdin in ["not-master\npw\n", "not-master\n"] {
            let wrongMaster = try f.run(["import", target], stdin: stdin)
            #expect(wrongMaster.status == 1 && wrongMaster.stderr.hasSuffix("\nbulwark: wrong master password; nothing was changed.\n"), "\(wrongMaster.stderr)")
        }
        let imported = try f.run(["import", target], stdin: "master\npw\n")
        #expect(imported.status == 0, "\(imported.stderr)")
        // The merged recycle bin is an ordinary group of the template's database.
        #expect(imported.stdout == "Imported 3 entries (3 logins).\n")
        try Self.checkEveryField(f, kdbx4: true)

        // A block changed in the file: refused by its HMAC, nothing imported.
        var tampered = bytes
        tampered[tampered.count - 100] ^= 0x01
        let bad = f.dir.appendingPathComponent("tampered.kdbx")
        try Data(tampered).write(to: bad)
        let g = try VaultCommandTests.Fixture()
        let refused = try g.run(["import", bad.path], stdin: "master\npw\n")
        #expect(refused.status == 1 && refused.stderr.contains("is damaged or was changed (its HMAC does not match). Nothing was imported."), "\(refused.stderr)")
        let cut = f.dir.appendingPathComponent("cut.kdbx")
        try Data(bytes.prefix(bytes.count / 2)).write(to: cut)
        #expect(try g.run(["import", cut.path], stdin: "master\npw\n").stderr.contains("truncated"))
        #expect((try g.json(["list", "--json"]) as! [Any]).isEmpty)

        // Argon2 asked for 1 TiB: refused before any memory is taken.
        var greedy = bytes
        let memoryKey: [UInt8] = [0x05, 0x01, 0x00, 0x00, 0x00, 0x4D, 0x08, 0x00, 0x00, 0x00]  // UInt64 "M", 8 bytes
        let at = try #require((0..<(greedy.count - memoryKey.count)).first { Array(greedy[$0..<$0 + memoryKey.count]) == memoryKey })
        greedy.replaceSubrange(at + 10..<at + 18, with: [0, 0, 0, 0, 0, 1, 0, 0])
        try Data(greedy).write(to: bad)
        let started = Date()
        let refusedMemory = try g.run(["import", bad.path], stdin: "master\npw\n")
        #expect(refusedMemory.stderr.contains("bulwark refuses more than 1024 MiB"), "\(refusedMemory.stderr)")
        #expect(Date().timeIntervalSince(started) < 5)
    }
}
