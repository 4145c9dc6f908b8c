import Foundation
import Testing

/// `bulwark upgrade`, `signin` and `services` through the real binary,
/// and the crash test: the upgrade killed at every step of each flow.
@Suite struct UpgradeCommandTests {
    typealias Fixture = VaultCommandTests.Fixture
    static let totp = "otpauth://totp/Northwind:jane?secret=JBSWY3DPEHPK3PXP&issuer=Northwind"

    /// A vault with one entry at a demo service, signed up there.
    static func fixture(_ title: String, _ url: String, password: String = "old-password-1", totp: String? = nil) throws -> Fixture {
        let f = try Fixture(demoServices: true)
        let added = try f.run(["add", "--title", title, "--url", url, "--username", "jane", "--entry-password-stdin"] + (totp.map { _ in ["--totp", "-"] } ?? []),
                              stdin: "master\n\(password)\n" + (totp.map { "\($0)\n" } ?? ""))
        #expect(added.status == 0, "\(added.stderr)")
        let enrolled = try f.run(["services", "enroll", title])
        #expect(enrolled.status == 0, "\(enrolled.stderr)")
        return f
    }

    /// A vault no service covers gains no services/ folder from commands
    /// that find nothing to do at a service; signing up at one makes it.
    @Test func aServicesFolderOnlyWhenAServiceIsInvolved() throws {
        let f = try Fixture(demoServices: true)
        let services = f.dir.appendingPathComponent("services").path
        #expect(try f.run(["add", "--title", "Bank", "--url", "https://bank.example.com", "--username", "jane", "--entry-password-stdin"],
                          stdin: "master\nhunter2-hunter2\n").status == 0)
        let upgrade = try f.run(["upgrade", "Bank", "--strong-password"])
        #expect(upgrade.status != 0 && upgrade.stderr.contains("bulwark has no upgrade for bank.example.com"))
        #expect(try f.run(["signin", "Bank"]).status != 0)
        #expect(!FileManager.default.fileExists(atPath: services))
        #expect(try f.run(["services", "enroll", "shiny", "--sign-in-with-apple"]).status == 0)
        #expect(FileManager.default.fileExists(atPath: services))
    }

    /// A person's own vault (no demo, no --services) talks to no service at
    /// all: no mock state is made for it, beside it or in a temporary place.
    @Test func aVaultWithNoServicesMakesNoServiceStateAnywhere() throws {
        let f = try Fixture()
        let temporary = f.dir.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        let run = { (args: [String], stdin: String) in
            try Binary.run(args + ["--vault", f.vault, "--password-stdin"], stdin: stdin, environment: ["TMPDIR": temporary.path])
        }
        #expect(try run(["add", "--title", "Shiny", "--url", "https://shiny.example", "--username", "jane", "--entry-password-stdin"],
                        "master\nhunter2-hunter2\n").status == 0)
        let upgrade = try run(["upgrade", "Shiny", "--strong-password"], "master\n")
        #expect(upgrade.status == 3 && upgrade.stderr == "bulwark: bulwark has no upgrade for shiny.example.\n")
        let signIn = try run(["signin", "Shiny"], "master\n")
        #expect(signIn.status == 1)
        #expect(signIn.stderr == "bulwark: Shiny refused the sign-in: bulwark has no sign-in for shiny.example; nothing was contacted.\n")
        #expect(try run(["upgrade", "--all-high-priority"], "master\n").status == 0)
        #expect(!FileManager.default.fileExists(atPath: f.dir.appendingPathComponent("services").path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path) == [])
    }

    @Test func exitCodesOfEachOutcome() throws {
        let shiny = try Self.fixture("Shiny", "https://shiny.example")
        let done = try shiny.run(["upgrade", "Shiny", "--strong-password"])
        #expect(done.status == 0 && done.stdout == "Shiny now uses a strong password, saved in bulwark.\n")
        #expect(try shiny.run(["signin", "Shiny"]).stdout == "Signed in to Shiny.\n")
        let shown = try shiny.json(["show", "Shiny", "--json", "--reveal"]) as! [String: Any]
        // A passkey first: Shiny takes one, and it leaves nothing to leak.
        #expect(shown["upgrades"] as? [String] == ["passkey", "strong-password", "sign-in-with-apple"])
        #expect((shown["history"] as? [[String: Any]])?.first?["password"] as? String == "old-password-1")
        #expect(!done.stdout.contains(shown["password"] as! String))

        let grocer = try Self.fixture("Grocer", "https://grocer.example")
        let refused = try grocer.run(["upgrade", "Grocer", "--strong-password"])
        #expect(refused.status == 3 && refused.stderr == "bulwark: Password changes are paused for maintenance until 6 pm.\n")

        let chirp = try Self.fixture("Chirp", "https://chirp.example")
        let needs = try chirp.run(["upgrade", "Chirp", "--strong-password"])
        #expect(needs.status == 4)
        #expect(needs.stderr == "bulwark: Chirp asks for a verification code: Chirp sent a code to your phone (•••• 42). Enter it to continue. Run again with --code-stdin or --code-from-messages. Nothing was changed.\n")
        let cancelled = try chirp.run(["upgrade", "Chirp", "--strong-password"], stdin: "master\n\n")
        #expect(cancelled.status == 5 && cancelled.stderr == "bulwark: upgrade cancelled; nothing was changed.\n")
        // With --code-stdin too, an empty line cancels, as the help says (it was sent as a wrong code).
        let emptyCode = try chirp.run(["upgrade", "Chirp", "--strong-password", "--code-stdin"], stdin: "master\n\n")
        #expect(emptyCode.status == 5 && emptyCode.stderr == "bulwark: upgrade cancelled; nothing was changed.\n")
        // Signing the same account up again is refused in words, not as a Swift value.
        let again = try chirp.run(["services", "enroll", "Chirp"])
        #expect(again.status == 1 && !again.stderr.contains("Refusal(") && again.stderr.hasPrefix("bulwark: "), "\(again.stderr)")
        let wrong = try chirp.run(["upgrade", "Chirp", "--strong-password", "--code-stdin"], stdin: "master\n12345x\n")
        // Said once, with what it means for the account.
        #expect(wrong.status == 3 && wrong.stderr == "bulwark: Chirp: That code is not right. 4 attempts left. Nothing was changed.\n")
        #expect(try chirp.run(["upgrade", "Chirp", "--strong-password", "--code-from-messages"]).status == 0)
        #expect(try chirp.run(["signin", "Chirp"]).status == 0)

        let forum = try Self.fixture("Forum", "https://forum.example")
        let unsupported = try forum.run(["upgrade", "Forum", "--strong-password"])
        #expect(unsupported.status == 3 && unsupported.stderr == "bulwark: Forum does not support upgrading to a strong password.\n")
    }

    @Test func signInWithAppleRemovesThePassword() throws {
        let f = try Self.fixture("City Health Portal", "https://health.city.example")
        let converted = try f.run(["upgrade", "City Health Portal", "--sign-in-with-apple", "--hide-email"])
        #expect(converted.status == 0, "\(converted.stderr)")
        #expect(converted.stdout == "City Health Portal now uses Sign in with Apple with a hidden e-mail. Its password was removed.\n")
        let shown = try f.json(["show", "City Health Portal", "--json", "--reveal"]) as! [String: Any]
        #expect(shown["password"] is NSNull && (shown["upgrades"] as? [String]) == [])
        let link = shown["sign_in_with_apple"] as! [String: Any]
        #expect((link["email"] as! String).hasSuffix("@privaterelay.appleid.example") && link["state"] as? String == "authorized")
        #expect(try f.run(["signin", "City Health Portal"]).stdout == "Signed in to City Health Portal with Apple.\n")
    }

    @Test func allHighPriorityUpgradesWhatItCanAndSaysWhy() throws {
        let f = try Self.fixture("Shiny", "https://shiny.example", password: "password1")  // on the common list: high
        // Shiny Store is the same account (one backend): Shiny's upgrade settles it; it is not upgraded again.
        _ = try f.run(["add", "--title", "Shiny Store", "--url", "https://shinystore.example", "--username", "jane", "--entry-password-stdin"],
                      stdin: "master\npassword1\n")
        for (title, url) in [("Grocer", "https://grocer.example"), ("Forum", "https://forum.example"), ("Chirp", "https://chirp.example"),
                             ("Harbor Credit Union", "https://harbor.example")] {
            _ = try f.run(["add", "--title", title, "--url", url, "--username", "jane", "--entry-password-stdin"], stdin: "master\nletmein\n")
            _ = try f.run(["services", "enroll", title])
        }
        let result = try f.run(["upgrade", "--all-high-priority"])
        #expect(result.status == 3)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(Set(lines.dropLast()) == [
            "upgraded  Shiny: Shiny now uses a strong password, saved in bulwark. Also updated, the same account: Shiny Store.",
            "failed    Grocer: Password changes are paused for maintenance until 6 pm.",
            "skipped   Forum: Forum does not support upgrading to a strong password",
            "skipped   Chirp: Chirp asks for a verification code",
            "skipped   Harbor Credit Union: Harbor Credit Union asks for a security key",
            "settled   Shiny Store: the same account, upgraded with Shiny",
        ])
        #expect(lines.last == "1 upgraded, 1 failed, 3 skipped.")
        #expect(try f.run(["signin", "Shiny"]).status == 0 && f.run(["signin", "Grocer"]).status == 0)
    }

    /// High Priority means what `analyze` says it means: the config file's
    /// breach corpus makes a password breached for `--all-high-priority` too.
    @Test func allHighPriorityUsesTheConfiguredBreachCorpus() throws {
        let password = "Sm4ll-but-leaked-2031"
        let f = try Self.fixture("Shiny", "https://shiny.example", password: password)
        let hex = try AnalyzeCommandTests.sha1(password)
        let corpus = f.dir.appendingPathComponent("pwned.txt")
        try Data("\(hex):42\r\n".utf8).write(to: corpus)
        let config = f.dir.appendingPathComponent("config")
        try Data("breach-corpus = \(corpus.path)\n".utf8).write(to: config)
        let without = try f.run(["upgrade", "--all-high-priority"])
        #expect(without.status == 0 && without.stdout == "0 upgraded, 0 failed, 0 skipped.\n")
        let with = try Binary.run(["upgrade", "--all-high-priority", "--vault", f.vault, "--password-stdin"], stdin: "master\n",
                                  environment: ["BULWARK_CONFIG": config.path])
        #expect(with.status == 0, "\(with.stderr)")
        #expect(with.stdout == "upgraded  Shiny: Shiny now uses a strong password, saved in bulwark.\n1 upgraded, 0 failed, 0 skipped.\n")
    }

    /// A person's own vault knows only the services it is given: none of
    /// the demo's mocks answers for it (one offered chirp.example and wrote
    /// a "Chirp" entry with the demo's Apple ID into a real vault).
    @Test func aRealVaultKnowsNoMockService() throws {
        let f = try Fixture()
        #expect(try f.run(["add", "--title", "Shiny", "--url", "https://shiny.example", "--username", "jane", "--entry-password-stdin"],
                          stdin: "master\nhunter2-hunter2\n").status == 0)
        let listed = try Binary.run(["services", "--vault", f.vault])
        #expect(listed.status == 0 && listed.stdout == "No services: this vault's one-key fixes act on the services given with --services or the config's services. bulwark demo has its own, built-in mock services.\n")
        let enrolled = try f.run(["services", "enroll", "Shiny"])
        #expect(enrolled.status == 1 && enrolled.stderr == "bulwark: bulwark has no service for shiny.example, or the entry has no password.\n")
        let signUp = try f.run(["services", "enroll", "chirp", "--sign-in-with-apple"])
        #expect(signUp.status != 0)
        #expect(!FileManager.default.fileExists(atPath: f.dir.appendingPathComponent("services").path))
        #expect((try f.json(["list", "--json"]) as! [Any]).count == 1)
    }

    /// Signing up a provider's login (Nimbus ID's) says it was done (it said it failed).
    @Test func enrollingAProviderAccountSaysItWasDone() throws {
        let f = try Fixture(demoServices: true)
        _ = try f.run(["add", "--title", "Nimbus ID", "--url", "https://id.nimbus.example", "--username", "jane@mail.example", "--entry-password-stdin"],
                      stdin: "master\nnimbus-pass-1\n")
        let enrolled = try f.run(["services", "enroll", "Nimbus ID"])
        #expect(enrolled.status == 0 && enrolled.stdout == "Signed jane@mail.example up at Nimbus ID (mock).\n", "\(enrolled.stderr)")
    }

    @Test func servicesListsEveryManifest() throws {
        let f = try Fixture(demoServices: true)
        let result = try Binary.run(["services", "--json", "--vault", f.vault])
        let list = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [[String: Any]]
        #expect(list.map { $0["id"] as! String } == ["broker", "chirp", "city-health", "cloudnotes", "forum", "grocer", "harbor", "northwind-bank", "oldgame", "scooters", "shiny"])
        let harbor = list.first { $0["id"] as? String == "harbor" }!
        #expect(harbor["upgrades"] as? [String] == ["strong-password", "passkey"] && harbor["two_factor"] as? String == "security-key")
        let bank = list.first { $0["id"] as? String == "northwind-bank" }!
        #expect(bank["upgrades"] as? [String] == ["strong-password"] && bank["two_factor"] as? String == "totp")
        #expect(bank["change_password_url"] as? String == "https://northwind.example/.well-known/change-password")
    }

    @Test func upgradeToAPasskeyThenSignInWithIt() throws {
        let shiny = try Self.fixture("Shiny", "https://shiny.example")
        let done = try shiny.run(["upgrade", "Shiny", "--passkey"])
        #expect(done.status == 0 && done.stdout == "Shiny now signs in with a passkey, saved in bulwark. Its password no longer works (kept in history).\n")
        #expect(try shiny.run(["signin", "Shiny"]).stdout == "Signed in to Shiny.\n")
        #expect(try shiny.run(["signin", "Shiny", "--with", "passkey"]).status == 0)
        let shown = try shiny.json(["show", "Shiny", "--json", "--reveal"]) as! [String: Any]
        #expect(shown["has_password"] as? Bool == false && (shown["passkeys"] as? [[String: Any]])?.first?["rp_id"] as? String == "shiny.example")
        #expect((shown["history"] as? [[String: Any]])?.first?["reason"] as? String == "upgraded to a passkey")
        let again = try shiny.run(["upgrade", "Shiny", "--passkey"])
        #expect(again.status == 3 && again.stderr == "bulwark: This account already signs in with a passkey.\n")
        let none = try Self.fixture("Chirp", "https://chirp.example")
        let refused = try none.run(["upgrade", "Chirp", "--passkey"])
        #expect(refused.status == 3 && refused.stderr == "bulwark: Chirp does not accept passkeys.\n")
    }

    @Test func aSecurityKeyStepUpFromTheCommandLine() throws {
        let f = try Self.fixture("Harbor Credit Union", "https://harbor.example")
        let asked = try f.run(["upgrade", "Harbor Credit Union", "--strong-password"])
        #expect(asked.status == 4 && asked.stderr == "bulwark: Harbor Credit Union asks for a security key. Run again with --security-key-from-vault to use the entry's passkey for harbor.example. Nothing was changed.\n")
        let noKey = try f.run(["upgrade", "Harbor Credit Union", "--strong-password", "--security-key-from-vault"])
        #expect(noKey.status == 3 && noKey.stderr == "bulwark: Harbor Credit Union: Harbor Credit Union holds no passkey for harbor.example that Harbor Credit Union asked for. Nothing was changed.\n")
        // No USB key on a test machine: said, and nothing registered.
        let usb = try f.run(["services", "enroll", "Harbor Credit Union", "--security-key"])
        #expect(usb.status == 1 && usb.stderr == "bulwark: no USB security key is plugged in (libfido2 found none). Nothing was changed.\n")
        #expect(try f.run(["services", "enroll", "Harbor Credit Union", "--passkey"]).status == 0)
        let done = try f.run(["upgrade", "Harbor Credit Union", "--strong-password", "--security-key-from-vault"])
        #expect(done.status == 0 && done.stdout == "Harbor Credit Union now uses a strong password, saved in bulwark.\n", "\(done.stderr)")
    }

    @Test func badManifestsAreRefusedWithTheFile() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("bulwark-services-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(#"{"id": "x", "name": "X"}"#.utf8).write(to: dir.appendingPathComponent("x.json"))
        let result = try Binary.run(["services", "--services", dir.path])
        #expect(result.status == 2 && result.stderr == "bulwark: services: \(dir.path)/x.json: missing \"appID\"\n")
    }

    /// Two upgrades within one TOTP step: the second's code from the vault
    /// is the one already used, refused as used; --code-from-vault waits
    /// for the next step and succeeds (it failed as "not right").
    @Test func codeFromVaultWaitsForTheNextStepWhenItsCodeWasUsed() throws {
        let f = try Self.fixture("Northwind Bank", "https://bank.northwind.example", totp: Self.totp)
        let first = try f.run(["upgrade", "Northwind Bank", "--strong-password", "--code-from-vault"])
        #expect(first.status == 0, "\(first.stderr)")
        let second = try f.run(["upgrade", "Northwind Bank", "--strong-password", "--code-from-vault"])
        #expect(second.status == 0, "\(second.stderr)")
        // Unless the first ended just as a step did, the second waited, and said so.
        #expect(second.stderr.isEmpty || second.stderr.hasPrefix("bulwark: Northwind Bank: this step's code was used already; waiting "), "\(second.stderr)")
    }

    /// Killed after Sign in with Apple answered and before the service
    /// heard (WWDC20: keep the credential and use it on the next launch):
    /// the next start finishes the link with the credential kept sealed in
    /// the staged change; no second sheet, no password left.
    @Test func aCredentialFromAppleBeforeACrashFinishesTheConversion() throws {
        let f = try Self.fixture("Shiny", "https://shiny.example")
        let killed = try Binary.run(["upgrade", "Shiny", "--sign-in-with-apple", "--vault", f.vault, "--password-stdin"], stdin: "master\n",
                                    environment: ["BULWARK_KILL_AT": "apple-credential-kept"])
        #expect(killed.status == 128 + 9)
        let staged = try f.json(["show", "Shiny", "--json"]) as! [String: Any]
        #expect(staged["has_password"] as? Bool == true && staged["sign_in_with_apple"] is NSNull)
        let signIn = try f.run(["signin", "Shiny"])
        #expect(signIn.status == 0 && signIn.stdout == "Signed in to Shiny with Apple.\n")
        #expect(signIn.stderr == "bulwark: settled an interrupted conversion of Shiny to Sign in with Apple.\n")
        let shown = try f.json(["show", "Shiny", "--json"]) as! [String: Any]
        #expect(shown["has_password"] as? Bool == false && (shown["sign_in_with_apple"] as? [String: Any])?["state"] as? String == "authorized")
    }

    /// The upgrade killed with SIGKILL at each kill point of each flow;
    /// after restart (which reconciles) the stored credential signs in.
    static let flows: [(title: String, url: String, args: [String], totp: String?)] = [
            ("Shiny", "https://shiny.example", ["--passkey"], nil),
            ("Harbor Credit Union", "https://harbor.example", ["--strong-password", "--security-key-from-vault"], nil),
            ("Shiny", "https://shiny.example", ["--strong-password"], nil),
            ("Northwind Bank", "https://bank.northwind.example", ["--strong-password", "--code-from-vault"], Self.totp),
            ("Chirp", "https://chirp.example", ["--strong-password", "--code-from-messages"], nil),
            ("Scooter Share", "https://scooters.example", ["--strong-password"], nil),
            ("Shiny", "https://shiny.example", ["--sign-in-with-apple"], nil),
            ("City Health Portal", "https://health.city.example", ["--sign-in-with-apple", "--hide-email"], nil),
    ]

    /// One flow per case, so they run in parallel.
    @Test(arguments: 0..<8)
    func killedAtEveryStepTheVaultStillSignsIn(flowIndex: Int) throws {
        let flow = Self.flows[flowIndex]
        let points = ["staged", "backend-authorised", "backend-committed", "linked", "settled"]
            + (flow.args.contains("--passkey") ? ["passkey-staged", "passkey-registered"] : [])
            + (flow.args.contains("--sign-in-with-apple") ? ["apple-credential-kept"] : [])
        var killed = 0, runs = 0
        do {
            for point in points {
                let f = try Self.fixture(flow.title, flow.url, totp: flow.totp)
                if flow.title == "Harbor Credit Union" {
                    // Its step-up asks for a security key: one registered there, kept in the entry.
                    #expect(try f.run(["services", "enroll", flow.title, "--passkey"]).status == 0)
                }
                var args = ["upgrade", flow.title] + flow.args
                if flow.title == "Chirp" && point != "staged" {
                    // The first SMS comes when the step-up starts; the second run fills it.
                    _ = try f.run(["upgrade", flow.title, "--strong-password"])
                    args = ["upgrade", flow.title] + flow.args
                }
                let result = try Binary.run(args + ["--vault", f.vault, "--password-stdin"], stdin: "master\n",
                                            environment: ["BULWARK_KILL_AT": point])
                runs += 1
                if result.status == 128 + 9 { killed += 1 } else {  // SIGKILL
                    #expect(result.status == 0, "\(flow.title) \(flow.args) at \(point): \(result.stderr)")
                }
                let signIn = try f.run(["signin", flow.title])
                #expect(signIn.status == 0, "\(flow.title) \(flow.args) killed at \(point): \(signIn.stderr)")
                // Nothing stays staged.
                let shown = try f.json(["show", flow.title, "--json"]) as! [String: Any]
                let passkeyOnly = shown["has_password"] as? Bool == false && (shown["passkeys"] as? [[String: Any]])?.isEmpty == false
                #expect((shown["upgrades"] as? [String])?.isEmpty == false || shown["sign_in_with_apple"] is [String: Any] || passkeyOnly)
            }
        }
        print("crash test: \(flow.title) \(flow.args.joined(separator: " ")): \(runs) runs at \(points.count) kill points, \(killed) killed mid-upgrade")
        // Every flow passes staging and settling; step-up flows reach authorisation, SIWA flows the link.
        #expect(killed >= 3)
    }
}
