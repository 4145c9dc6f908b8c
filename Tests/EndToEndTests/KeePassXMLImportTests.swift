import Foundation
import Testing

/// KeePass's plain XML export as the real `keepassxc-cli export -f xml`
/// writes it (values KeePass protects written as they are, marked
/// `ProtectInMemory`), detected and imported field by field.
@Suite struct KeePassXMLImportTests {
    @Test(.enabled(if: KDBXImportTests.keepassxc != nil, "keepassxc-cli is not installed (make test-deps installs Debian's keepassxc)"))
    func keepassxcsXMLExportIsReadWhole() throws {
        let f = try VaultCommandTests.Fixture()
        let source = f.dir.appendingPathComponent("source.xml")
        try KDBXImportTests.xml.write(to: source, atomically: true, encoding: .utf8)
        let database = f.dir.appendingPathComponent("db.kdbx").path
        _ = try KDBXImportTests.keepassxcCLI(["import", "-q", "-p", source.path, database], stdin: "db-pass\ndb-pass\n")
        let exported = try KDBXImportTests.keepassxcCLI(["export", "-q", "-f", "xml", database], stdin: "db-pass\n")
        let file = f.dir.appendingPathComponent("keepassxc-export.xml")
        try Data(exported.stdout.utf8).write(to: file)
        #expect(exported.stdout.contains("ProtectInMemory=\"True\">ABCD-1234<"))
        let imported = try f.run(["import", file.path])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr == "bulwark: reading \(file.path) as keepass-xml (from its KeePassFile root element).\n")
        #expect(imported.stdout == "Imported 2 entries (2 logins); left out 1 item in the source's trash.\n")
        try KDBXImportTests.checkEveryField(f, kdbx4: false)
    }

    /// A value marked as masked cannot be in a plain export: refused, not read wrong.
    @Test func aMaskedValueInAPlainExportIsRefused() throws {
        let f = try VaultCommandTests.Fixture()
        let file = f.dir.appendingPathComponent("odd.xml")
        try KDBXImportTests.xml.replacingOccurrences(of: "ProtectInMemory=\"True\">ABCD-1234", with: "Protected=\"True\">QUJDRA==")
            .write(to: file, atomically: true, encoding: .utf8)
        let refused = try f.run(["import", file.path])
        #expect(refused.status == 1 && refused.stderr.hasSuffix("a value is marked as masked, which a plain XML export never holds. Nothing was imported.\n"), "\(refused.stderr)")
    }
}
