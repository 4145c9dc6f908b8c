import Foundation
import Testing

/// A password store made by the real `pass` with a throwaway gpg key,
/// imported through the person's own `gpg`, field by field.
@Suite struct PassStoreImportTests {
    static func tool(_ name: String) -> String? {
        ["/usr/bin/", "/bin/", "/usr/local/bin/"].map { $0 + name }.first(where: FileManager.default.isExecutableFile(atPath:))
    }
    static let pass = tool("pass"), gpg = tool("gpg")

    @Test(.enabled(if: pass != nil && gpg != nil, "pass or gpg is not installed (make test-deps installs Debian's pass and gnupg)"))
    func aStoreMadeByPassIsReadWhole() throws {
        let f = try VaultCommandTests.Fixture()
        // gpg's agent socket lives in GNUPGHOME: a short path keeps it under the socket-name limit.
        let home = "/tmp/bw-gpg-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let store = f.dir.appendingPathComponent("store").path
        let environment = ["GNUPGHOME": home, "PASSWORD_STORE_DIR": store]
        defer {
            _ = try? Binary.run(["--kill", "gpg-agent"], environment: environment, program: Self.tool("gpgconf") ?? "/usr/bin/gpgconf")
            try? FileManager.default.removeItem(atPath: home)
        }
        let key = try Binary.run(["--batch", "--passphrase", "", "--quick-gen-key", "Bulwark Test <test@bulwark.example>", "default", "default", "never"],
                                 environment: environment, program: Self.gpg!)
        #expect(key.status == 0, "\(key.stderr)")
        #expect(try Binary.run(["init", "test@bulwark.example"], environment: environment, program: Self.pass!).status == 0)
        let entries = [
            ("Work/Servers/mail.example.com", "c0rrect \"horse\", battery\nuser: jane@example.com\nurl: https://mail.example.com\notpauth://totp/Mail:jane?secret=JBSWY3DPEHPK3PXP&issuer=Mail\nPIN: 4321\nfirst note line\nsecond note line\n"),
            ("Personal/forum", "hunter2\n"),
            ("alarm code", "\nThe code is 1234, then #.\n"),
        ]
        for (name, text) in entries {
            let inserted = try Binary.run(["insert", "--multiline", name], stdin: text, environment: environment, program: Self.pass!)
            #expect(inserted.status == 0, "\(inserted.stderr)")
        }
        let imported = try Binary.run(["import", store, "--vault", f.vault, "--password-stdin"], stdin: "master\n", environment: environment)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr == "bulwark: reading \(store) as pass (a folder of .gpg files, decrypted by your gpg).\n")
        #expect(imported.stdout == "Imported 3 entries (2 logins, 1 secure note).\n")
        let mail = try f.json(["show", "mail.example.com", "--json", "--reveal"]) as! [String: Any]
        #expect(mail["password"] as? String == "c0rrect \"horse\", battery" && mail["username"] as? String == "jane@example.com")
        #expect(mail["urls"] as? [String] == ["https://mail.example.com"] && mail["tags"] as? [String] == ["Work/Servers"])
        #expect(mail["category"] as? String == "email")  // guessed from the title and address the file gave
        #expect(mail["notes"] as? String == "first note line\nsecond note line" && mail["has_totp"] as? Bool == true)
        #expect((mail["fields"] as? [[String: Any]])?.map { "\($0["name"]!)=\($0["value"]!)" } == ["PIN=4321"])
        let note = try f.json(["show", "alarm code", "--json", "--reveal"]) as! [String: Any]
        #expect(note["kind"] as? String == "secure-note" && note["notes"] as? String == "The code is 1234, then #.")
        let forum = try f.json(["show", "forum", "--json", "--reveal"]) as! [String: Any]
        #expect(forum["password"] as? String == "hunter2" && forum["tags"] as? [String] == ["Personal"])
    }

    /// A file gpg cannot open (no secret key for it) stops the import, named, and nothing is written.
    @Test(.enabled(if: gpg != nil, "gpg is not installed (make test-deps installs Debian's gnupg)"))
    func aFileGpgCannotOpenIsNamed() throws {
        let f = try VaultCommandTests.Fixture()
        let home = "/tmp/bw-gpg-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer {
            _ = try? Binary.run(["--kill", "gpg-agent"], environment: ["GNUPGHOME": home], program: Self.tool("gpgconf") ?? "/usr/bin/gpgconf")
            try? FileManager.default.removeItem(atPath: home)
        }
        let store = f.dir.appendingPathComponent("store")
        try FileManager.default.createDirectory(at: store, withIntermediateDirectories: true)
        try Data("not an OpenPGP message".utf8).write(to: store.appendingPathComponent("broken.gpg"))
        let imported = try Binary.run(["import", store.path, "--format", "pass", "--vault", f.vault, "--password-stdin"], stdin: "master\n",
                                      environment: ["GNUPGHOME": home])
        #expect(imported.status == 1)
        #expect(imported.stderr.hasPrefix("bulwark: \(store.path): broken.gpg: gpg could not decrypt it (") && imported.stderr.hasSuffix("). Nothing was imported.\n"),
                "\(imported.stderr)")
        #expect((try f.json(["list", "--json"]) as! [Any]).isEmpty)
    }
}
