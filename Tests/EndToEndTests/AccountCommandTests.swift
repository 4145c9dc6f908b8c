import Foundation
import Testing

/// The account as a whole through the real binary, on the demo's own
/// vault: Shiny and Shiny Store are one account on one backend.
@Suite struct AccountCommandTests {
    final class Demo {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("bulwark-account-\(UUID().uuidString)")
        var vault: String { dir.appendingPathComponent("vault.db").path }
        init() throws { #expect(try Binary.run(["demo", "--setup", dir.path]).status == 0) }
        deinit { try? FileManager.default.removeItem(at: dir) }
        func run(_ args: [String], stdin: String = "demo\n") throws -> Binary.Result {
            try Binary.run(args + ["--vault", vault, "--password-stdin"], stdin: stdin)
        }
        func json(_ args: [String]) throws -> Any { try JSONSerialization.jsonObject(with: Data(run(args).stdout.utf8)) }
        /// The binary on a terminal (tmux) at its master password's prompt, and past it with `unlock`.
        func onTerminal(_ arguments: String, unlock: Bool = true) throws -> TmuxSession {
            let tmux = try TmuxSession(width: 200, height: 20, command: "\(Binary.path) \(arguments) --vault \(vault)",
                                       environment: ["TERM": "xterm-256color", "BULWARK_CONFIG": "/nonexistent/bulwark-test-config"])
            _ = try tmux.waitFor(text: "Master password", seconds: 30)
            if unlock { try tmux.sendBytes("demo\r") }
            return tmux
        }
    }

    @Test func anUpgradeUpdatesEveryEntryOfTheAccount() throws {
        let demo = try Demo()
        let upgraded = try demo.run(["upgrade", "Shiny", "--strong-password"])
        #expect(upgraded.status == 0)
        #expect(upgraded.stdout == "Shiny now uses a strong password, saved in bulwark. Also updated, the same account: Shiny Store.\n")
        #expect(try demo.run(["signin", "Shiny Store"]).stdout == "Signed in to Shiny Store.\n")
        let store = try demo.json(["show", "Shiny Store", "--json", "--reveal"]) as! [String: Any]
        let shiny = try demo.json(["show", "Shiny", "--json", "--reveal"]) as! [String: Any]
        #expect(store["password"] as? String == shiny["password"] as? String)
        #expect((store["history"] as? [[String: Any]])?.first?["reason"] as? String == "upgraded to a strong password (the same account as Shiny)")
        // Neither has a finding left, only the opportunity of a passkey (Shiny takes one).
        let report = try demo.json(["analyze", "--json"]) as! [String: Any]
        let rows = (report["recommendations"] as? [[String: Any]] ?? []).filter { ["Shiny", "Shiny Store"].contains($0["title"] as? String) }
        #expect(rows.count == 2 && rows.allSatisfy { $0["severity"] as? String == "low" })
        #expect(rows.allSatisfy { ($0["warnings"] as? [[String: Any]])?.compactMap { $0["kind"] as? String } == ["passkey-available"] })
    }

    @Test func aConversionLeavesNoPasswordBehind() throws {
        let demo = try Demo()
        let converted = try demo.run(["upgrade", "Shiny Store", "--sign-in-with-apple"])
        #expect(converted.status == 0, "\(converted.stderr)")
        for title in ["Shiny", "Shiny Store"] {
            let shown = try demo.json(["show", title, "--json", "--reveal"]) as! [String: Any]
            #expect(shown["password"] is NSNull && (shown["history"] as? [Any])?.isEmpty == true, "\(title): \(shown)")
            #expect(try demo.run(["signin", title]).stdout == "Signed in to \(title) with Apple.\n")
        }
    }

    @Test func aRogueManifestIsRefused() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("bulwark-rogue-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let manifest = #"{"id": "rogue", "name": "Rogue", "appID": "EVIL000001.example.rogue", "associatedDomains": ["webcredentials:shiny.example"], "supportsStrongPassword": true, "supportsSignInWithApple": false, "twoFactor": "none", "behaviour": {}}"#
        try Data(manifest.utf8).write(to: dir.appendingPathComponent("rogue.json"))
        // Beside the demo's built-in services (a person's own vault has none to collide with).
        let demo = try Demo()
        let listed = try Binary.run(["services", "--services", dir.path, "--vault", demo.vault])
        #expect(listed.status == 2)
        #expect(listed.stderr == "bulwark: services: \(dir.path)/rogue.json: claims shiny.example, which Shiny (Assets/services/shiny.json) also claims; one domain belongs to one service, so neither is loaded\n")
    }

    /// An account that shared its real address hears no e-mail event: the
    /// relay's forwarding is not its to turn off (Apple sends those only for
    /// the private relay), and the vault shows nothing changed.
    @Test func anAccountThatSharesItsAddressHearsNoEmailEvent() throws {
        let demo = try Demo()
        #expect(try demo.run(["upgrade", "Shiny", "--sign-in-with-apple"]).status == 0)
        let disabled = try demo.run(["services", "notify", "shiny", "email-disabled", "Shiny"])
        #expect(disabled.status == 1 && disabled.stdout.isEmpty)
        #expect(disabled.stderr == "bulwark: Sign in with Apple sends email-disabled only for an account that hides its e-mail behind the private relay; this one shares its real address, so nothing was sent.\n")
        let link = (try demo.json(["show", "Shiny", "--json"]) as! [String: Any])["sign_in_with_apple"] as! [String: Any]
        #expect(link["email_forwarding"] as? Bool == true && link["email"] as? String == "jane.appleseed@icloud.example")
    }

    /// `list`, `show` and `analyze` ask for the credential state as the app
    /// does on unlock: an authorization stopped at the provider with no
    /// notification sent shows in the next listing, said once.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3"), "sqlite3 is not installed (make test-deps installs it)"))
    func aListingAsksForTheSignInWithAppleState() throws {
        let demo = try Demo()
        #expect(try demo.run(["upgrade", "Shiny", "--sign-in-with-apple"]).status == 0)
        let provider = demo.dir.appendingPathComponent("services/identity-provider.db").path
        #expect(try InstallTests.shell("sqlite3 \(provider) \"UPDATE users SET state = 'revoked' WHERE team = 'SHINY00001'\"").status == 0)
        let listed = try demo.run(["list"])
        #expect(listed.status == 0)
        #expect(listed.stderr == """
            bulwark: Shiny: Sign in with Apple was stopped for Shiny in the Apple ID's settings; the account is signed out.
            bulwark: Shiny Store: Sign in with Apple was stopped for Shiny in the Apple ID's settings; the account is signed out.

            """)
        let link = (try demo.json(["show", "Shiny", "--json"]) as! [String: Any])["sign_in_with_apple"] as! [String: Any]
        #expect(link["state"] as? String == "revoked" && link["signed_out"] as? Bool == true)
        #expect(try demo.run(["analyze"]).stderr.isEmpty)  // said once
    }

    @Test func notificationsChangeWhatTheVaultShowsAndWhatSignInDoes() throws {
        let demo = try Demo()
        #expect(try demo.run(["upgrade", "Shiny", "--sign-in-with-apple", "--hide-email"]).status == 0)
        let revoked = try demo.run(["services", "notify", "shiny", "consent-revoked", "Shiny"])
        #expect(revoked.status == 0, "\(revoked.stderr)")
        #expect(revoked.stdout == """
            Shiny received consent-revoked (signed by the identity provider).
            Shiny: Sign in with Apple was stopped for Shiny in the Apple ID's settings; the account is signed out.
            Shiny Store: Sign in with Apple was stopped for Shiny in the Apple ID's settings; the account is signed out.

            """)
        let shown = try demo.json(["show", "Shiny Store", "--json"]) as! [String: Any]
        let link = shown["sign_in_with_apple"] as! [String: Any]
        #expect(link["state"] as? String == "revoked" && link["signed_out"] as? Bool == true)
        let refused = try demo.run(["signin", "Shiny"])
        #expect(refused.status == 1)
        #expect(refused.stderr == "bulwark: Shiny refused the sign-in: Sign in with Apple was stopped for Shiny in the Apple ID's settings, so the account is signed out; sign in with Apple again to continue.\n")
        let again = try demo.run(["signin", "Shiny", "--sign-in-with-apple"])
        #expect(again.status == 0 && again.stdout == "Signed in to Shiny with Apple.\n")
        #expect(again.stderr == "bulwark: Shiny: Sign in with Apple is authorised again.\nbulwark: Shiny Store: Sign in with Apple is authorised again.\n")

        let disabled = try demo.run(["services", "notify", "shiny", "email-disabled", "Shiny"])
        #expect(disabled.stdout.hasSuffix("is no longer forwarded.\n"))
        #expect(((try demo.json(["show", "Shiny", "--json"]) as! [String: Any])["sign_in_with_apple"] as! [String: Any])["email_forwarding"] as? Bool == false)
        let deleted = try demo.run(["services", "notify", "shiny", "account-delete", "Shiny"])
        #expect(deleted.stdout.contains("Shiny: the Apple ID no longer knows Shiny (the person deleted it); the account is signed out."))
        #expect(try demo.run(["signin", "Shiny"]).stderr.contains("has no account for this Apple ID any more"))

        let usage = try demo.run(["services", "notify", "shiny", "password-changed", "Shiny"])
        #expect(usage.status == 2 && usage.stderr == "bulwark: usage: bulwark services notify SERVICE EVENT ENTRY (EVENT: email-disabled, email-enabled, consent-revoked, account-delete)\n")
        let notLinked = try demo.run(["services", "notify", "grocer", "consent-revoked", "Grocer"])
        #expect(notLinked.status == 1 && notLinked.stderr == "bulwark: Grocer does not sign in with Apple.\n")
    }

    /// Where the vault holds an account at the service, signing up again
    /// would make a duplicate: its upgrade is offered instead, and a new
    /// account is made only when asked for (`--new-account`).
    @Test func signUpWithAppleWhereAnAccountIsHeldOffersItsUpgrade() throws {
        let f = try VaultCommandTests.Fixture(demoServices: true)
        #expect(try f.run(["add", "--title", "My Notes", "--url", "https://cloudnotes.example", "--username", "jane", "--entry-password-stdin"],
                          stdin: "master\nold-notes-pw-1\n").status == 0)
        let offered = try f.run(["services", "enroll", "cloudnotes", "--sign-in-with-apple"])
        #expect(offered.status == 1 && offered.stdout.isEmpty)
        #expect(offered.stderr == "bulwark: the vault already holds an account at Cloud Notes: My Notes (as jane). A second one would be a duplicate: "
                + "upgrade it instead with `bulwark upgrade 'My Notes' --sign-in-with-apple`, or add --new-account to make another. Nothing was made.\n")
        #expect((try f.json(["list", "--json"]) as! [Any]).count == 1)
        let made = try f.run(["services", "enroll", "cloudnotes", "--sign-in-with-apple", "--new-account"])
        #expect(made.status == 0, "\(made.stderr)")
        #expect((try f.json(["list", "--json"]) as! [Any]).count == 2)
    }

    @Test func signUpWithAppleCreatesAnAccountWithNoPassword() throws {
        let f = try VaultCommandTests.Fixture(demoServices: true)
        let signedUp = try f.run(["services", "enroll", "cloudnotes", "--sign-in-with-apple", "--hide-email"])
        #expect(signedUp.status == 0, "\(signedUp.stderr)")
        #expect(signedUp.stdout.hasPrefix("Signed up at Cloud Notes with Apple as "))
        #expect(signedUp.stdout.hasSuffix("@privaterelay.appleid.example (a hidden e-mail); the entry \"Cloud Notes\" has no password to keep.\n"))
        let shown = try f.json(["show", "Cloud Notes", "--json", "--reveal"]) as! [String: Any]
        #expect(shown["password"] is NSNull && (shown["urls"] as? [String]) == ["https://cloudnotes.example"])
        #expect(try f.run(["signin", "Cloud Notes"]).stdout == "Signed in to Cloud Notes with Apple.\n")
        let twice = try f.run(["services", "enroll", "cloudnotes", "--sign-in-with-apple"])
        #expect(twice.status == 1 && twice.stderr == "bulwark: Cloud Notes already has an account for this Apple ID; sign in with Apple instead.\n")
        let forum = try f.run(["services", "enroll", "forum", "--sign-in-with-apple"])
        #expect(forum.status == 1 && forum.stderr == "bulwark: Forum does not offer Sign in with Apple.\n")
    }

    static func qr(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("BulwarkCoreTests/Fixtures/qr/\(name)").path
    }

    @Test func aQRCodeSetsUpTheCodeAndItsIssuerSuggestsTheEntry() throws {
        let demo = try Demo()
        let edited = try demo.run(["edit", "Grocer", "--totp-qr", Self.qr("transparent.png")])
        #expect(edited.status == 0 && edited.stdout == "Saved Grocer.\n")
        #expect(edited.stderr == "bulwark: warning: the code says it is Shiny's, and Grocer does not look like Shiny; entries that do: Shiny, Shiny Store.\n")
        let rfc = try demo.run(["add", "--title", "Example", "--url", "https://example.com", "--totp-qr", Self.qr("rfc6238.jpg")])
        #expect(rfc.status == 0 && rfc.stderr.isEmpty)
        // RFC 6238's SHA-1 test values, from the code set up by the picture.
        for (at, code) in [("59", "94287082"), ("1111111109", "07081804"), ("2000000000", "69279037")] {
            let shown = try demo.json(["code", "Example", "--json", "--at", at]) as! [String: Any]
            #expect(shown["code"] as? String == code)
        }
        let several = try demo.run(["edit", "Shiny", "--totp-qr", Self.qr("two-codes.png")])
        #expect(several.status == 2 && several.stderr.hasSuffix("two-codes.png: the image holds more than one QR code; crop it to the one to use.\n"))
        let both = try demo.run(["edit", "Shiny", "--totp", "-", "--totp-qr", Self.qr("rfc6238.png")])
        #expect(both.status == 2 && both.stderr == "bulwark: give --totp - or --totp-qr IMAGE, not both.\n")
    }

    @Test func anAppTransferKeepsTheAccountSigningIn() throws {
        let demo = try Demo()
        #expect(try demo.run(["upgrade", "Shiny", "--sign-in-with-apple"]).status == 0)
        let before = ((try demo.json(["show", "Shiny", "--json"]) as! [String: Any])["sign_in_with_apple"] as! [String: Any])["user"] as? String
        let moved = try demo.run(["services", "transfer", "shiny", "NEWTEAM001"])
        #expect(moved.status == 0)
        #expect(moved.stdout == """
            Shiny moved from team SHINY00001 to NEWTEAM001; 1 Sign in with Apple user has a transfer identifier.
            Shiny: Shiny moved to another developer; the account was migrated to the id Sign in with Apple gives it there.
            Shiny Store: Shiny moved to another developer; the account was migrated to the id Sign in with Apple gives it there.

            """)
        let after = ((try demo.json(["show", "Shiny", "--json"]) as! [String: Any])["sign_in_with_apple"] as! [String: Any])["user"] as? String
        #expect(after != nil && after != before)
        #expect(try demo.run(["signin", "Shiny Store"]).stdout == "Signed in to Shiny Store with Apple.\n")
        #expect(try demo.run(["upgrade", "Grocer", "--strong-password"]).status == 3)  // Grocer's own failure: other services untouched
        let bad = try demo.run(["services", "transfer", "shiny", "lower"])
        #expect(bad.status == 2 && bad.stderr == "bulwark: a team id is ten capital letters and digits, as Apple's are (got lower).\n")
    }

    /// A password changed by hand is the account's too.
    @Test func aPasswordTypedForOneEntryReachesTheAccount() throws {
        let demo = try Demo()
        let edited = try demo.run(["edit", "Shiny Store", "--entry-password-stdin"], stdin: "demo\nTyped-By-Hand-42\n")
        #expect(edited.status == 0 && edited.stdout == "Saved Shiny Store. Also updated, the same account: Shiny.\n")
        let shiny = try demo.json(["show", "Shiny", "--json", "--reveal"]) as! [String: Any]
        #expect(shiny["password"] as? String == "Typed-By-Hand-42")
        #expect((shiny["history"] as? [[String: Any]])?.first?["reason"] as? String == "changed with Shiny Store, the same account")
        // Another person's entry at the same site is not the same account.
        let grocer = try demo.run(["edit", "Grocer", "--entry-password-stdin"], stdin: "demo\nGrocer-Own-77\n")
        #expect(grocer.stdout == "Saved Grocer.\n")
    }
}
