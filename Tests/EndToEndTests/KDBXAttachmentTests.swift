import Foundation
import Testing

/// Files in a KeePass database made by the real keepassxc-cli
/// (`attachment-import`, one file shared by two entries): imported into
/// the vault (the shared one stored once), exported back as KDBX, and
/// `keepassxc-cli attachment-export` gives the same bytes; its plain XML
/// export (files base64 in Meta/Binaries) imports the same.
@Suite struct KDBXAttachmentTests {
    static let codes = Data((0..<1_500_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 10) })
    static let note = Data("recovery code 1234-5678\n".utf8)

    func keepassxcDatabase(_ f: VaultCommandTests.Fixture) throws -> String {
        let database = f.dir.appendingPathComponent("db.kdbx").path
        let codes = f.dir.appendingPathComponent("codes.bin"), note = f.dir.appendingPathComponent("note.txt")
        try Self.codes.write(to: codes)
        try Self.note.write(to: note)
        _ = try KDBXImportTests.keepassxcCLI(["db-create", "-q", "-p", database], stdin: "db-pass\ndb-pass\n")
        _ = try KDBXImportTests.keepassxcCLI(["add", "-q", "-u", "jane", "--url", "https://mail.example", database, "Mail"], stdin: "db-pass\n")
        _ = try KDBXImportTests.keepassxcCLI(["add", "-q", "-u", "bob", database, "Bank"], stdin: "db-pass\n")
        _ = try KDBXImportTests.keepassxcCLI(["attachment-import", "-q", database, "Mail", "codes.bin", codes.path], stdin: "db-pass\n")
        _ = try KDBXImportTests.keepassxcCLI(["attachment-import", "-q", database, "Mail", "recovery.txt", note.path], stdin: "db-pass\n")
        _ = try KDBXImportTests.keepassxcCLI(["attachment-import", "-q", database, "Bank", "shared.bin", codes.path], stdin: "db-pass\n")
        return database
    }

    func stored(_ f: VaultCommandTests.Fixture) throws -> (rows: Int, blobs: Int) {
        let list = try f.run(["attachment", "list", "Mail"])
        let listed: [String] = list.stdout.split(separator: "\n").map { $0.split(separator: "\t").prefix(3).joined(separator: " ") }
        #expect(listed == ["codes.bin \(Self.codes.count) application/octet-stream", "recovery.txt \(Self.note.count) text/plain"])
        for (entry, name, bytes) in [("Mail", "codes.bin", Self.codes), ("Mail", "recovery.txt", Self.note), ("Bank", "shared.bin", Self.codes)] {
            let out = f.dir.appendingPathComponent("out-\(name)").path
            #expect(try f.run(["attachment", "get", entry, name, "--out", out]).status == 0)
            #expect(FileManager.default.contents(atPath: out) == bytes, "\(entry) \(name)")
            try FileManager.default.removeItem(atPath: out)
        }
        let counts = try Binary.run(["-cmd", ".mode tabs", f.vault, "SELECT count(*), count(DISTINCT blob) FROM blobs"], program: "/usr/bin/sqlite3")
        let numbers = counts.stdout.split(whereSeparator: { $0 == "\t" || $0 == "\n" }).compactMap { Int($0) }
        return (numbers.first ?? -1, numbers.last ?? -1)
    }

    @Test(.enabled(if: KDBXImportTests.keepassxc != nil, "keepassxc-cli is not installed (make test-deps installs Debian's keepassxc)"))
    func keepassxcsFilesComeInAndGoBackOut() throws {
        let f = try VaultCommandTests.Fixture()
        let database = try keepassxcDatabase(f)
        let imported = try f.run(["import", database], stdin: "master\ndb-pass\n")
        #expect(imported.status == 0 && imported.stdout == "Imported 2 entries (2 logins).\n", "\(imported.stdout)\(imported.stderr)")
        let counts = try stored(f)
        #expect(counts == (3, 2))  // the shared file's two chunks once, and the note's one
        let exported = f.dir.appendingPathComponent("back.kdbx").path
        #expect(try f.run(["export", "--format", "kdbx", exported], stdin: "master\nback-pass\nback-pass\n").status == 0)
        for (entry, name, bytes) in [("Mail", "codes.bin", Self.codes), ("Mail", "recovery.txt", Self.note), ("Bank", "shared.bin", Self.codes)] {
            let out = f.dir.appendingPathComponent("kp-\(name)").path
            _ = try KDBXImportTests.keepassxcCLI(["attachment-export", "-q", exported, entry, name, out], stdin: "back-pass\n")
            #expect(FileManager.default.contents(atPath: out) == bytes, "keepassxc-cli read back \(entry) \(name)")
        }
    }

    @Test(.enabled(if: KDBXImportTests.keepassxc != nil, "keepassxc-cli is not installed (make test-deps installs Debian's keepassxc)"))
    func keepassxcsXMLExportCarriesTheFilesToo() throws {
        let f = try VaultCommandTests.Fixture()
        let database = try keepassxcDatabase(f)
        let xml = try KDBXImportTests.keepassxcCLI(["export", "-q", "-f", "xml", database], stdin: "db-pass\n")
        let file = f.dir.appendingPathComponent("export.xml")
        try Data(xml.stdout.utf8).write(to: file)
        #expect(xml.stdout.contains("<Binaries>"))
        let imported = try f.run(["import", file.path])
        #expect(imported.status == 0 && imported.stdout == "Imported 2 entries (2 logins).\n", "\(imported.stdout)\(imported.stderr)")
        let counts = try stored(f)
        #expect(counts == (3, 2))
    }
}
