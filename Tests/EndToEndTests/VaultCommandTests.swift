import Foundation
import Testing

/// The vault commands through the real binary, with cheap scrypt.
@Suite struct VaultCommandTests {
    final class Fixture {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("bulwark-e2e-\(UUID().uuidString)")
        var vault: String { dir.appendingPathComponent("vault.db").path }

        /// `demoServices`: the vault speaks to bulwark's built-in mock
        /// services, as a vault `bulwark demo` wrote does (the marker the
        /// demo writes beside it); any other vault knows none.
        init(demoServices: Bool = false) throws {
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            let created = try run(["init", "--scrypt-log-n", "10", "--i-know-this-is-weak"], stdin: "master\nmaster\n")
            #expect(created.status == 0)
            if demoServices { try Data("written by the tests, as bulwark demo writes it\n".utf8).write(to: URL(fileURLWithPath: vault + ".demo")) }
        }

        deinit { try? FileManager.default.removeItem(at: dir) }

        func run(_ args: [String], stdin: String = "master\n") throws -> Binary.Result {
            try Binary.run(args + ["--vault", vault, "--password-stdin"], stdin: stdin)
        }

        func json(_ args: [String]) throws -> Any {
            let result = try run(args)
            #expect(result.status == 0, "\(args): \(result.stderr)")
            return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
        }
    }

    /// A login added on a terminal without a password option asks for its password twice; a script's
    /// password-less login is said; `show` of one without a password says none, not Sign in with Apple.
    @Test func aLoginAddedOnATerminalAsksForItsPasswordTwice() throws {
        let f = try Fixture()
        let tmux = try TmuxSession(width: 100, height: 12, command: "\(Binary.path) add --title Garden --vault \(f.vault)",
                                   environment: ["BULWARK_CONFIG": "/nonexistent/bulwark-test-config"])
        _ = try tmux.waitFor(text: "Master password")
        try tmux.sendBytes("master\r")
        _ = try tmux.waitFor(text: "Password for Garden (empty for none)")
        try tmux.sendBytes("tulip-secret-9\r")
        _ = try tmux.waitFor(text: "Repeat it")
        try tmux.sendBytes("tulip-secret-9\r")
        #expect(try tmux.exitStatus() == 0)
        let shown = try f.json(["show", "Garden", "--json", "--reveal"]) as! [String: Any]
        #expect(shown["password"] as? String == "tulip-secret-9")
        let bare = try f.run(["add", "--title", "Bare"])
        #expect(bare.status == 0 && bare.stderr == "bulwark: warning: Bare was added without a password: 'bulwark edit' with --generate or --entry-password-stdin gives it one.\n")
        #expect(try f.run(["show", "Bare"]).stdout.contains("Password  (none)\n"))
    }

    /// An expiry is set and cleared by day, shown (a past one as expired) and in the JSON.
    @Test func anExpiryIsSetShownAndCleared() throws {
        let f = try Fixture()
        #expect(try f.run(["add", "--title", "VPN", "--username", "jane", "--expires", "2020-01-31", "--entry-password-stdin"], stdin: "master\npw\n").status == 0)
        #expect(try f.run(["show", "VPN"]).stdout.contains("Expires   2020-01-31T00:00:00Z (expired)\n"))
        #expect((try f.json(["show", "VPN", "--json"]) as! [String: Any])["expires"] as? String == "2020-01-31T00:00:00Z")
        let bad = try f.run(["edit", "VPN", "--expires", "soon"])
        #expect(bad.status == 2 && bad.stderr.contains("--expires takes a day (2030-01-31), a time (2030-01-31T12:00:00Z), or never."))
        #expect(try f.run(["edit", "VPN", "--expires", "never"]).status == 0)
        #expect((try f.json(["show", "VPN", "--json"]) as! [String: Any])["expires"] is NSNull)
    }

    @Test func addShowEditAndRemove() throws {
        let f = try Fixture()
        let added = try f.run(["add", "--title", "Northwind Bank", "--url", "https://bank.northwind.example", "--username", "jane",
                               "--tag", "money", "--entry-password-stdin"], stdin: "master\nfirst-secret\n")
        #expect(added.status == 0)
        let id = added.stdout.trimmingCharacters(in: .whitespacesAndNewlines)

        let list = try f.json(["list", "--json"]) as! [[String: Any]]
        #expect(list.count == 1)
        #expect(Set(list[0].keys) == ["id", "title", "username", "urls", "category", "tags", "modified"])
        #expect(list[0]["id"] as? String == id && list[0]["category"] as? String == "finance")

        let hidden = try f.json(["show", "Northwind Bank", "--json"]) as! [String: Any]
        #expect(hidden["password"] == nil && hidden["has_password"] as? Bool == true)

        #expect(try f.run(["edit", id, "--entry-password-stdin"], stdin: "master\nsecond-secret\n").status == 0)
        let revealed = try f.json(["show", id, "--json", "--reveal"]) as! [String: Any]
        #expect(revealed["password"] as? String == "second-secret")
        let history = revealed["history"] as! [[String: Any]]
        #expect(history.count == 1 && history[0]["password"] as? String == "first-secret" && history[0]["reason"] as? String == "edited")
        #expect(revealed["sign_in_with_apple"] is NSNull)

        let text = try f.run(["show", id])
        #expect(text.stdout.contains("Password  ••••••••") && !text.stdout.contains("second-secret"))

        #expect(try f.run(["rm", "northwind bank"]).stdout == "Deleted Northwind Bank.\n")
        #expect((try f.json(["list", "--json"]) as! [Any]).isEmpty)
    }

    /// `list` says each entry as people look for it, title first; the id,
    /// which scripts pass back, only with --ids (or --json).
    @Test func listPutsTheTitleFirstAndTheIdOnlyWhenAsked() throws {
        let f = try Fixture()
        let id = try f.run(["add", "--title", "Bank", "--url", "https://bank.example", "--username", "jane"]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try f.run(["list"]).stdout == "Bank\tjane\tbank.example\n")
        #expect(try f.run(["list", "--ids"]).stdout == "Bank\tjane\tbank.example\t\(id)\n")
    }

    @Test func wrongMasterPasswordExitsOneAndChangesNothing() throws {
        let f = try Fixture()
        _ = try f.run(["add", "--title", "A"])
        let before = try Data(contentsOf: URL(fileURLWithPath: f.vault))
        let result = try f.run(["add", "--title", "B"], stdin: "wrong\n")
        #expect(result.status == 1)
        #expect(result.stderr == "bulwark: wrong master password; nothing was changed.\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: f.vault)) == before)
    }

    /// A flipped bit in an entry's sealed box: damage, said as such, with
    /// the way out (the backup taken before the add, check, recover).
    @Test func aDamagedVaultSaysSoAndNamesTheNewestBackupThatOpens() throws {
        let f = try Fixture()
        let added = try f.run(["add", "--title", "A", "--entry-password-stdin"], stdin: "master\nsecret\n")
        let id = added.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let backups = try f.run(["restore", "--list"]).stdout.split(separator: "\n")
        #expect(backups.count == 1 && backups[0].contains("\t0 entries\t"), "\(backups)")
        let backupID = backups.first.map { String($0.prefix { $0 != "\t" }) } ?? ""

        #expect(try VaultBytes.alterBox(ofEntry: id, inFileAt: f.vault) >= 1)
        let result = try f.run(["list"])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("bulwark: vault damaged: "))
        #expect(result.stderr.contains("The newest backup that opens is \(backupID) ("), "\(result.stderr)")
        #expect(result.stderr.contains("'bulwark restore \(backupID)' puts it back. 'bulwark check' lists every problem; 'bulwark recover FILE' saves every entry that still decrypts.\n"))
    }

    @Test func passwdRewrapsTheKey() throws {
        let f = try Fixture()
        _ = try f.run(["add", "--title", "Kept"])
        #expect(try f.run(["passwd", "--i-know-this-is-weak"], stdin: "master\nnewpass\nnewpass\n").status == 0)
        #expect(try f.run(["list"]).status == 1)
        #expect(try f.run(["list"], stdin: "newpass\n").stdout.contains("Kept"))
        let mismatch = try f.run(["passwd"], stdin: "newpass\na\nb\n")
        #expect(mismatch.status == 1 && mismatch.stderr.contains("differ"))
    }

    @Test func importCountsDuplicatesAndRefusesMalformedFiles() throws {
        let f = try Fixture()
        let csv = f.dir.appendingPathComponent("chrome.csv")
        try "name,url,username,password,note\nShiny,https://shiny.example,jane,pw,\nShiny,https://shiny.example,jane,pw,\n".write(to: csv, atomically: true, encoding: .utf8)
        let first = try f.run(["import", "--format", "chrome-csv", csv.path])
        #expect(first.stdout == "Imported 1 entry (1 login); skipped 1 exact duplicate.\n")
        let again = try f.run(["import", "--format", "chrome-csv", csv.path])
        #expect(again.stdout == "Imported 0 entries; skipped 2 exact duplicates.\n")
        try "name,url,username,password,note\nok,https://ok.example,a,b,\nbroken,\"https://x\n".write(to: csv, atomically: true, encoding: .utf8)
        let bad = try f.run(["import", "--format", "chrome-csv", csv.path])
        #expect(bad.status == 1)
        #expect(bad.stderr == "bulwark: \(csv.path): line 3: a quoted field is never closed. Nothing was imported.\n")
        #expect((try f.json(["list", "--json"]) as! [Any]).count == 1)
    }

    @Test func exportWarnsAndWritesOwnerOnly() throws {
        let f = try Fixture()
        _ = try f.run(["add", "--title", "A", "--entry-password-stdin"], stdin: "master\nsecret\n")
        let out = f.dir.appendingPathComponent("export.json").path
        let result = try f.run(["export", "--format", "bitwarden-json", out])
        #expect(result.status == 0)
        #expect(result.stderr.contains("plain text"))
        #expect(try FileManager.default.attributesOfItem(atPath: out)[.posixPermissions] as? Int == 0o600)
        #expect(try String(contentsOfFile: out, encoding: .utf8).contains("\"password\" : \"secret\""))
    }

    @Test func codeForAnEntryUsesItsStoredURI() throws {
        let f = try Fixture()
        _ = try f.run(["add", "--title", "Shiny", "--totp", "-"], stdin: "master\notpauth://totp/Shiny:jane?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&digits=8\n")
        let result = try f.run(["code", "Shiny", "--at", "59"])
        #expect(result.status == 0)
        #expect(result.stdout == "94287082 (valid for 1 more second)\n")
        _ = try f.run(["add", "--title", "NoCode"])
        let none = try f.run(["code", "NoCode"])
        #expect(none.status == 1 && none.stderr == "bulwark: NoCode has no verification code set up.\n")
        let bad = try f.run(["add", "--title", "Bad", "--totp", "-"], stdin: "master\notpauth://totp/x?digits=9&secret=GEZDGNBV\n")
        #expect(bad.status == 2 && bad.stderr == "bulwark: --totp: the digits parameter must be 6, 7 or 8, or 5 with encoder=steam (got '9')\n")
    }

    @Test func initRefusesMismatchedPasswordsAndExistingVaults() throws {
        let f = try Fixture()
        let again = try f.run(["init", "--scrypt-log-n", "10", "--i-know-this-is-weak"], stdin: "x\nx\n")
        #expect(again.status == 1 && again.stderr.contains("a vault already exists"))
        let other = f.dir.appendingPathComponent("other.db").path
        let mismatch = try Binary.run(["init", "--vault", other, "--password-stdin"], stdin: "a\nb\n")
        #expect(mismatch.status == 1 && mismatch.stderr == "bulwark: the two passwords differ; no vault was created.\n")
        #expect(!FileManager.default.fileExists(atPath: other))
    }
}
