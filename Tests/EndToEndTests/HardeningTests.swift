import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// What a security review found, each through the real binary: hostile
/// text, secrets in argv, crashes, unbounded work, a tampered KDF,
/// spreadsheet formulas, and imports that checked less than `add`.
@Suite struct HardeningTests {
    typealias Fixture = VaultCommandTests.Fixture

    /// Text that would act on a terminal: OSC 52, OSC 0, CSI, C1, bidi, a zero-width space.
    static let hostile = "Pay\u{200B}Pal \u{1B}]52;c;b3duZWQ=\u{07}\u{1B}]0;pwned\u{07}\u{1B}[2J\u{9B}31m\u{202E}moc.evil"
    static let shown = "Pay<U+200B>Pal \\e]52;c;b3duZWQ=\\x07\\e]0;pwned\\x07\\e[2J<U+009B>31m<U+202E>moc.evil"

    static func raw(_ text: String) -> Bool {
        text.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n" && $0 != "\t") || (0x7F...0x9F).contains($0.value) || $0.value == 0x202E || $0.value == 0x200B }
    }

    @Test func hostileVaultTextNeverReachesTheTerminalRaw() throws {
        let f = try Fixture()
        let added = try f.run(["add", "--title", Self.hostile, "--username", Self.hostile, "--url", "https://x.example/\u{1B}[2J",
                               "--notes", "line one\n" + Self.hostile, "--tag", Self.hostile, "--entry-password-stdin"], stdin: "master\nweak\n")
        #expect(added.status == 0)
        let id = added.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        var outputs: [(String, Binary.Result)] = []
        for args in [["list"], ["show", id], ["show", id, "--reveal"], ["analyze"], ["edit", id, "--category", "other"], ["rm", "nope"]] {
            outputs.append((args.joined(separator: " "), try f.run(args)))
        }
        for (name, result) in outputs {
            #expect(!Self.raw(result.stdout) && !Self.raw(result.stderr), "\(name) wrote raw control text")
        }
        #expect(outputs[0].1.stdout.contains(Self.shown))
        #expect(outputs[4].1.stdout == "Saved \(Self.shown).\n")
        // JSON: every control character escaped, and the value intact once parsed.
        for args in [["list", "--json"], ["show", id, "--json"], ["analyze", "--json"]] {
            let result = try f.run(args)
            #expect(!Self.raw(result.stdout), "\(args) wrote raw control text")
            #expect(result.stdout.contains("\\u009b") && result.stdout.contains("\\u202e"), "\(args)")
        }
        let listed = try JSONSerialization.jsonObject(with: Data(try f.run(["list", "--json"]).stdout.utf8)) as? [[String: Any]]
        #expect(listed?.first?["title"] as? String == Self.hostile)
        let deleted = try f.run(["rm", id])
        #expect(deleted.stdout == "Deleted \(Self.shown).\n")
        // An imported file's first line is never echoed unless its cells are column names (then sanitised too).
        let csv = f.dir.appendingPathComponent("hostile.csv")
        try Data("\u{1B}]52;c;eA==\u{07},b\nx,y\n".utf8).write(to: csv)
        let refused = try f.run(["import", "--format", "chrome-csv", csv.path])
        #expect(refused.status == 1 && !Self.raw(refused.stderr) && !refused.stderr.contains("52;c;eA=="))
        #expect(refused.stderr.contains("its first line has 2 fields and none is a column name"))
    }

    @Test func secretsAreNeverTakenFromTheCommandLine() throws {
        let f = try Fixture()
        let uri = "otpauth://totp/Shiny:jane?secret=GEZDGNBVGY3TQOJQ"
        let argv = try f.run(["add", "--title", "Shiny", "--totp", uri])
        #expect(argv.status == 2 && argv.stderr.hasPrefix("bulwark: --totp with the secret in the command line shows it to every user of this machine (ps, /proc); use --totp - to type it"))
        #expect(!argv.stderr.contains("GEZDGNBV"))
        #expect(try f.run(["list"]).stdout.isEmpty)  // nothing was added
        #expect(try f.run(["add", "--title", "Shiny", "--totp", "-"], stdin: "master\n\(uri)\n").status == 0)
        #expect(try f.run(["show", "Shiny", "--json", "--reveal"]).stdout.contains("\"totp\" : \"\(uri)\""))

        let code = try Binary.run(["code", "--uri", uri])
        #expect(code.status == 2 && code.stderr.contains("use --uri - to type it") && !code.stderr.contains("GEZDGNBV"))
        let rules = try Binary.run(["rules", "check", "minlength: 8", "hunter22x"])
        #expect(rules.status == 2 && !rules.stderr.contains("hunter22x"))
        #expect(try Binary.run(["rules", "check", "minlength: 8"], stdin: "hunter22x\n").stdout == "ok: the password satisfies the rules\n")
    }

    @Test func inputAtTheEndOfItsRangeIsNeverACrash() throws {
        let hotp = try Binary.run(["code", "--uri", "-", "--json"], stdin: "otpauth://hotp/x?secret=JBSWY3DPEHPK3PXP&counter=18446744073709551615\n")
        #expect(hotp.status == 0 && hotp.stdout.contains("\"next_code\" : null"))
        let time = try Binary.run(["code", "--uri", "-", "--json", "--at", "9223372036854775807"], stdin: "otpauth://totp/x?secret=JBSWY3DPEHPK3PXP\n")
        #expect(time.status == 0 && time.stdout.contains("\"next_code\" : null"))
        let services = FileManager.default.temporaryDirectory.appendingPathComponent("bulwark-slow-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: services, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: services) }
        let manifest = #"{"id": "slow", "name": "Slow", "appID": "ABCDE12345.example.slow", "associatedDomains": ["webcredentials:slow.example"], "supportsStrongPassword": true, "supportsSignInWithApple": false, "twoFactor": "none", "behaviour": {"latencyMs": 4294968}}"#
        try Data(manifest.utf8).write(to: services.appendingPathComponent("slow.json"))
        let listed = try Binary.run(["services", "--services", services.path])
        #expect(listed.status != 0 && listed.stderr.contains("bad \"behaviour.latencyMs\" (must be a whole number of milliseconds from 0 to 60000)"), "\(listed.stderr)")
    }

    @Test func workIsBoundedWhateverTheRulesSay() throws {
        let huge = try Binary.run(["generate", "--rules", "minlength: 1000000;"])
        #expect(huge.status == 1 && huge.stderr == "bulwark: bad password rules at position 12: minlength value 1000000 is over bulwark's maximum of 4096.\n")
        let longest = try Binary.run(["generate", "--rules", "minlength: 4096; required: upper; max-consecutive: 1;"])
        #expect(longest.status == 0 && longest.stdout.count == 4097)
    }

    /// A header edited to ask for 16 GiB is damage, said before anything is derived.
    @Test func aTamperedKDFIsRefusedBeforeDeriving() throws {
        let f = try Fixture()
        var bytes = try Data(contentsOf: URL(fileURLWithPath: f.vault))
        let kdf = Data("scrypt:10:8:1".utf8)
        let found = try #require(bytes.range(of: kdf))
        bytes.replaceSubrange(found, with: Data("scrypt:22:8:1".utf8))
        try bytes.write(to: URL(fileURLWithPath: f.vault))
        let started = Date()
        let result = try f.run(["list"])
        #expect(result.status == 1 && result.stderr.hasPrefix("bulwark: vault damaged: "))
        #expect(Date().timeIntervalSince(started) < 5)
    }

    @Test func aWeakKDFNeedsToBeAskedForByName() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("bulwark-weak-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let vault = dir.appendingPathComponent("vault.db").path
        let refused = try Binary.run(["init", "--scrypt-log-n", "10", "--vault", vault, "--password-stdin"], stdin: "m\nm\n")
        #expect(refused.status == 2 && refused.stderr.contains("--scrypt-log-n 10 is below the recommended 17") && !FileManager.default.fileExists(atPath: vault))
        #expect(try Binary.run(["init", "--scrypt-log-n", "10", "--i-know-this-is-weak", "--vault", vault, "--password-stdin"], stdin: "m\nm\n").status == 0)
        let lowered = try Binary.run(["passwd", "--scrypt-log-n", "11", "--vault", vault, "--password-stdin"], stdin: "m\nn\nn\n")
        #expect(lowered.status == 2 && lowered.stderr.contains("Add --i-know-this-is-weak"))
        #expect(try Binary.run(["passwd", "--scrypt-log-n", "23", "--vault", vault, "--password-stdin"], stdin: "m\nn\nn\n").status == 2)
    }

    /// A new master password is judged as the recommendations judge passwords.
    @Test func aWeakMasterPasswordIsSaidAndNeedsToBeAskedFor() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("bulwark-weakmaster-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let vault = dir.appendingPathComponent("vault.db").path
        let refused = try Binary.run(["init", "--vault", vault, "--password-stdin"], stdin: "password1\npassword1\n")
        #expect(refused.status == 2 && !FileManager.default.fileExists(atPath: vault))
        #expect(refused.stderr == "bulwark: this master password is weak: it is mostly a dictionary word or name (about 3 bits; 50 or more is advised for a master password). Choose a longer one, or add --i-know-this-is-weak. Nothing was changed.\n")
        #expect(!refused.stderr.contains("password1"))
        let strong = try Binary.run(["init", "--scrypt-log-n", "10", "--i-know-this-is-weak", "--vault", vault, "--password-stdin"],
                                    stdin: "lantern orchid velvet quarry\nlantern orchid velvet quarry\n")
        // What --i-know-this-is-weak let through is said, once: here the cheap KDF only.
        #expect(strong.status == 0 && strong.stderr == "bulwark: warning: scrypt N=2^10 is below the recommended 2^17: each guess at the master password costs 128x less (--i-know-this-is-weak).\n")
        let weakNew = try Binary.run(["passwd", "--vault", vault, "--password-stdin"], stdin: "lantern orchid velvet quarry\nqwerty\nqwerty\n")
        #expect(weakNew.status == 2 && weakNew.stderr.hasPrefix("bulwark: this master password is weak: it is one of the most common passwords"))
        #expect(try Binary.run(["list", "--vault", vault, "--password-stdin"], stdin: "lantern orchid velvet quarry\n").status == 0)  // unchanged
    }

    @Test func csvExportsAreSafeToOpenInASpreadsheet() throws {
        let f = try Fixture()
        #expect(try f.run(["add", "--title", "=HYPERLINK(\"http://evil.example\")", "--username", "@SUM(1)", "--entry-password-stdin"],
                          stdin: "master\n-secret\n").status == 0)
        let out = f.dir.appendingPathComponent("out.csv").path
        let exported = try f.run(["export", "--format", "apple-csv", out])
        #expect(exported.status == 0)
        let text = try String(contentsOfFile: out, encoding: .utf8)
        #expect(text.contains("\"'=HYPERLINK(\"\"http://evil.example\"\")\",,'@SUM(1),'-secret,"))
        #expect(exported.stderr.contains("3 cells began with = + - @ or a tab and were written with a leading '"))
        let raw = try f.run(["export", "--format", "apple-csv", "--raw-cells", out + ".raw"])
        let rawText = try String(contentsOfFile: out + ".raw", encoding: .utf8)
        #expect(raw.status == 0 && rawText.contains(",@SUM(1),-secret,"))
    }

    @Test func importsCheckWhatAddChecks() throws {
        let f = try Fixture()
        let json = f.dir.appendingPathComponent("bw.json")
        try Data(#"""
        {"encrypted": false, "folders": [], "items": [
          {"type": 1, "name": "Numeric", "login": {"username": "jane", "password": 123456, "uris": []}},
          {"type": true, "name": "Not a login", "login": {"username": "x", "password": "y"}},
          {"type": 1, "name": "Bad TOTP", "login": {"username": "jane", "password": "p", "totp": "otpauth://totp/x?digits=9&secret=JBSWY3DP"}}
        ]}
        """#.utf8).write(to: json)
        // A "type" that is not one of Bitwarden's numbers is not read as a login: the file is refused, naming it.
        let refused = try f.run(["import", "--format", "bitwarden-json", json.path])
        #expect(refused.status == 1 && refused.stderr.contains("item 2 has an unknown \"type\""), "\(refused.stderr)")
        let imported = try f.run(["import", "--format", "bitwarden-json", "--skip-bad-rows", json.path])
        #expect(imported.status == 0)
        #expect(imported.stdout == """
        Imported 2 entries (2 logins).
          Item 2 has an unknown "type" (the numbers 1 to 5 are login, note, card, identity and SSH key), skipped.
          Kept aside: the password of Numeric was a JSON number in the file; it was read as the text of that number.
          Kept aside: the TOTP of Bad TOTP (the digits parameter must be 6, 7 or 8, or 5 with encoder=steam (got '9')), kept as a hidden custom field.

        """)
        #expect(try f.run(["show", "Numeric", "--json", "--reveal"]).stdout.contains("\"password\" : \"123456\""))
        let bad = try f.run(["show", "Bad TOTP", "--json", "--reveal"]).stdout
        #expect(bad.contains("\"totp\" : null") && bad.contains("\"name\" : \"TOTP (as imported)\"") && bad.contains("\"hidden\" : true"))
    }

    /// No core dump and not dumpable, from the start of every command.
    @Test func aRunningBulwarkCannotDumpCore() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("bulwark-core-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let tmux = try TmuxSession(width: 80, height: 24, command: "\(Binary.path) open --vault \(dir.path)/vault.db")
        defer { tmux.close() }
        try tmux.waitFor(text: "Create your vault")
        let shell = try tmux.paneValue("#{pane_pid}")
        let children = try String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8).split(separator: " ")
        let pid = try #require(children.first.map(String.init))
        let limits = try String(contentsOfFile: "/proc/\(pid)/limits", encoding: .utf8)
        let core = try #require(limits.split(separator: "\n").first { $0.hasPrefix("Max core file size") })
        #expect(core.split(separator: " ", omittingEmptySubsequences: true).dropFirst(4).prefix(2) == ["0", "0"], "\(core)")
    }
}
