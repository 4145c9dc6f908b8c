import Foundation
import Testing

/// bulwark → KDBX 4: the real `keepassxc-cli` opens the file and shows every
/// field; and the file read back by bulwark gives the same entries.
@Suite struct KDBXExportTests {
    static func everyEntry(_ f: VaultCommandTests.Fixture) throws -> [[String: Any]] {
        let list = try f.json(["list", "--json"]) as! [[String: Any]]
        return try list.map { row in
            var entry = try f.json(["show", row["id"] as! String, "--json", "--reveal"]) as! [String: Any]
            // Ids are the importing vault's own; the rest must match.
            for volatile in ["id", "upgrades", "hidden_until"] { entry[volatile] = nil }
            return entry
        }
    }

    static func canonical(_ object: [String: Any]) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }

    @Test(.enabled(if: KeePassXCImportTests.keepassxc != nil, "keepassxc-cli is not installed (make test-deps installs Debian's keepassxc)"))
    func keepassxcOpensItAndBulwarkReadsItBackWhole() throws {
        let f = try VaultCommandTests.Fixture()
        #expect(try f.run(["import", ImportCommandTests.fixtures.appendingPathComponent("1password.1pux").path]).status == 0)
        _ = try f.run(["add", "--title", "Control \u{1B} chars", "--url", "https://a.example", "--url", "https://b.example", "--username", "z",
                       "--notes", "bell \u{07} and CR\r\nend", "--entry-password-stdin"], stdin: "master\nfirst-Pass-1\n")
        _ = try f.run(["edit", "Control \u{1B} chars", "--entry-password-stdin"], stdin: "master\nsecond-Pass-2\n")
        let kdbx = f.dir.appendingPathComponent("out.kdbx").path
        let exported = try f.run(["export", "--format", "kdbx", kdbx], stdin: "master\nkeepass-pw\n")
        #expect(exported.status == 0, "\(exported.stderr)")
        #expect(exported.stdout == "Exported 8 entries to \(kdbx), a KeePass database (KDBX 4, Argon2id, AES-256) sealed with its password.\n")
        #expect(try FileManager.default.attributesOfItem(atPath: kdbx)[.posixPermissions] as? Int == 0o600)

        // KeePassXC's own reading of it.
        let xml = try Binary.run(["export", "-q", "-f", "xml", kdbx], stdin: "keepass-pw\n", program: KeePassXCImportTests.keepassxc).stdout
        for expected in ["<Value>Mail</Value>", "current-Passw0rd!", "older-pass-1", "<Key>recovery code</Key>", "ABCD-EFGH", "4111111111111111",
                         "<Key>otp</Key>", "<Name>Work</Name>", "<Name>Accounts</Name>", "https://b.example", "first-Pass-1", "second-Pass-2"] {
            #expect(xml.contains(expected), "keepassxc-cli's XML lacks \(expected)\n\(xml.prefix(0))")
        }
        let wrong = try Binary.run(["export", "-q", "-f", "xml", kdbx], stdin: "not-it\n", program: KeePassXCImportTests.keepassxc)
        #expect(wrong.status != 0)
        // ChaCha20 too, as KeePassXC reads it.
        let chacha = f.dir.appendingPathComponent("chacha.kdbx").path
        #expect(try f.run(["export", "--format", "kdbx", "--cipher", "chacha20", chacha], stdin: "master\nkeepass-pw\n").status == 0)
        let chachaXML = try Binary.run(["export", "-q", "-f", "xml", chacha], stdin: "keepass-pw\n", program: KeePassXCImportTests.keepassxc)
        #expect(chachaXML.status == 0 && chachaXML.stdout.contains("current-Passw0rd!"), "\(chachaXML.stderr)")
        let info = try Binary.run(["db-info", "-q", chacha], stdin: "keepass-pw\n", program: KeePassXCImportTests.keepassxc).stdout
        #expect(info.contains("Cipher: ChaCha20") && info.contains("KDF: Argon2id"), "\(info)")
        let c = try VaultCommandTests.Fixture()
        #expect(try c.run(["import", chacha], stdin: "master\nkeepass-pw\n").stdout == "Imported 8 entries (3 logins, 2 secure notes, 1 card, 1 identity, 1 other).\n")

        // And back into bulwark: the same entries, field for field.
        let g = try VaultCommandTests.Fixture()
        let back = try g.run(["import", kdbx], stdin: "master\nkeepass-pw\n")
        #expect(back.status == 0 && back.stdout == "Imported 8 entries (3 logins, 2 secure notes, 1 card, 1 identity, 1 other).\n", "\(back.stdout) \(back.stderr)")
        let before = try Self.everyEntry(f), after = try Self.everyEntry(g)
        #expect(before.count == after.count)
        for entry in before {
            let match = after.first { $0["title"] as? String == entry["title"] as? String }
            #expect(try match.map(Self.canonical) == Self.canonical(entry), "\(entry["title"] ?? "")")
        }
    }

    /// A passkey made here, in a KDBX: KeePassXC shows it as its own passkey
    /// attributes (the PEM key, the relying party), and bulwark reads it back.
    @Test(.enabled(if: KeePassXCImportTests.keepassxc != nil, "keepassxc-cli is not installed (make test-deps installs Debian's keepassxc)"))
    func aPasskeyTravelsAsKeePassXCsAttributes() throws {
        let f = try VaultCommandTests.Fixture()
        let options = f.dir.appendingPathComponent("options.json")
        try Data(#"{"rp":{"id":"shop.example","name":"Shop"},"user":{"id":"dXNlcg","name":"jane"},"challenge":"AAECAwQFBgcICQoLDA0ODw","pubKeyCredParams":[{"type":"public-key","alg":-7}]}"#.utf8).write(to: options)
        #expect(try f.run(["passkey", "create", "--origin", "https://shop.example", "--options", options.path]).status == 0)
        let kdbx = f.dir.appendingPathComponent("passkey.kdbx").path
        #expect(try f.run(["export", "--format", "kdbx", kdbx], stdin: "master\nkeepass-pw\n").status == 0)
        let xml = try Binary.run(["export", "-q", "-f", "xml", kdbx], stdin: "keepass-pw\n", program: KeePassXCImportTests.keepassxc).stdout
        for expected in ["<Key>KPEX_PASSKEY_RELYING_PARTY</Key>", "<Value>shop.example</Value>", "<Key>KPEX_PASSKEY_PRIVATE_KEY_PEM</Key>",
                         "-----BEGIN PRIVATE KEY-----", "<Key>KPEX_PASSKEY_CREDENTIAL_ID</Key>", "<Key>KPEX_PASSKEY_USER_HANDLE</Key>"] {
            #expect(xml.contains(expected), "keepassxc-cli's XML lacks \(expected)")
        }
        let g = try VaultCommandTests.Fixture()
        #expect(try g.run(["import", kdbx], stdin: "master\nkeepass-pw\n").status == 0)
        #expect(try f.run(["passkey", "list"]).stdout == (try g.run(["passkey", "list"]).stdout))
    }

    /// KeePass holds one passkey an entry: an entry with two is named, and
    /// nothing is written (or asked) unless --allow-loss.
    @Test func anEntryWithTwoPasskeysIsNamedAndNothingWrittenWithoutAllowLoss() throws {
        let f = try VaultCommandTests.Fixture()
        let options = f.dir.appendingPathComponent("options.json")
        _ = try f.run(["add", "--title", "Shop", "--url", "https://shop.example", "--username", "jane", "--entry-password-stdin"], stdin: "master\npw-1\n")
        for user in ["dXNlcg", "dXNlcjI"] {
            try Data(#"{"rp":{"id":"shop.example","name":"Shop"},"user":{"id":"\#(user)","name":"jane"},"challenge":"AAECAwQFBgcICQoLDA0ODw","pubKeyCredParams":[{"type":"public-key","alg":-7}]}"#.utf8).write(to: options)
            #expect(try f.run(["passkey", "create", "--origin", "https://shop.example", "--options", options.path, "--entry", "Shop"]).status == 0)
        }
        let kdbx = f.dir.appendingPathComponent("two.kdbx").path
        let refused = try f.run(["export", "--format", "kdbx", kdbx], stdin: "master\nkeepass-pw\n")
        #expect(refused.status == 1 && refused.stderr.hasPrefix("  Shop: 1 passkey beyond the first\nbulwark: kdbx cannot carry all of 1 entry (named above)."), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: kdbx))
        let allowed = try f.run(["export", "--format", "kdbx", "--allow-loss", kdbx], stdin: "master\nkeepass-pw\n")
        #expect(allowed.status == 0 && allowed.stdout.hasSuffix("Not written (the format has no place for it): Shop's 1 passkey beyond the first.\n"), "\(allowed.stdout)")
    }
}
