import Foundation
import Testing

/// `bulwark signin ENTRY --with-provider` on the demo: Shiny's "Log in with
/// Nimbus ID", its exit codes, the shared and ephemeral sessions, the
/// transcript, and the entry recording the provider.
@Suite struct ProviderSignInTests {
    @Test func theCommandLineSignsInThroughTheProvider() throws {
        let demo = try AccountCommandTests.Demo()
        // Nimbus ID asks for a code: without --code-from-vault, exit 4 and nothing changes.
        let asked = try demo.run(["signin", "Shiny", "--with-provider"])
        #expect(asked.status == 4 && asked.stderr == "bulwark: Nimbus ID asks for a verification code. Run again with --code-from-vault (the code of Nimbus ID). Nothing was changed.\n")
        let transcript = demo.dir.appendingPathComponent("signin.jsonl")
        let first = try demo.run(["signin", "Shiny", "--with-provider", "--code-from-vault", "--transcript", transcript.path])
        #expect(first.status == 0 && first.stdout == "Signed in to Shiny through Nimbus ID (as jane@mail.example); the account is now linked to it.\n", "\(first.stderr)")
        let shown = try demo.json(["show", "Shiny", "--json"]) as! [String: Any]
        #expect(shown["signs_in_with"] as? String == "https://id.nimbus.example")
        // The shared session: no login page, no code.
        #expect(try demo.run(["signin", "Shiny", "--with-provider"]).stdout == "Signed in to Shiny through Nimbus ID (as jane@mail.example).\n")
        // Ephemeral: the login page and the code again.
        #expect(try demo.run(["signin", "Shiny", "--with-provider", "--ephemeral"]).status == 4)
        // Ephemeral with the vault's code, in the step whose code was just used: it waits for the next (it failed as "not right").
        let again = try demo.run(["signin", "Shiny", "--with-provider", "--ephemeral", "--code-from-vault"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr.isEmpty || again.stderr.hasPrefix("bulwark: Nimbus ID: this step's code was used already; waiting "), "\(again.stderr)")

        let lines = try String(contentsOf: transcript, encoding: .utf8).split(separator: "\n")
        let steps = lines.compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["step"] as? String }
        #expect(steps == ["authorization-request", "login-form", "second-factor-form", "consent-form", "redirect", "token-request", "token-response"])
        let mode = (try FileManager.default.attributesOfItem(atPath: transcript.path)[.posixPermissions] as? NSNumber)?.intValue
        #expect(mode == 0o600)
        // Neither the Nimbus password nor any token appears; the code verifier does (it is what proves PKCE).
        let text = lines.joined(separator: "\n")
        #expect(!text.contains("nimbus2021") && !text.contains("id_token\"") && text.contains("\"code_verifier\""))

        // Its blast radius now counts Shiny too.
        let report = try demo.json(["analyze", "--json"]) as! [String: Any]
        let nimbus = (report["recommendations"] as! [[String: Any]]).first { $0["title"] as? String == "Nimbus ID" }
        let provider = (nimbus?["warnings"] as? [[String: Any]])?.first { $0["kind"] as? String == "identity-provider" }
        #expect((provider?["accounts"] as? [[String: Any]])?.compactMap { $0["title"] as? String } == ["Cloud Notes", "Grocer", "Shiny"])
    }

    @Test func aServiceWithoutAProviderAndAnEntryMarkedByHand() throws {
        let demo = try AccountCommandTests.Demo()
        let none = try demo.run(["signin", "Broker", "--with-provider"])
        #expect(none.status == 1 && none.stderr == "bulwark: Broker's service offers no sign-in through an identity provider; nothing was contacted.\n")
        let bad = try demo.run(["edit", "Broker", "--signs-in-with", "nimbus"])
        #expect(bad.status == 2 && bad.stderr.contains("--signs-in-with takes an identity provider's issuer, an https URL"))
        #expect(try demo.run(["edit", "Broker", "--signs-in-with", "https://id.nimbus.example"]).status == 0)
        #expect((try demo.json(["show", "Broker", "--json"]) as! [String: Any])["signs_in_with"] as? String == "https://id.nimbus.example")
        #expect(try demo.run(["edit", "Broker", "--signs-in-with", ""]).status == 0)
        #expect((try demo.json(["show", "Broker", "--json"]) as! [String: Any])["signs_in_with"] is NSNull)
    }
}
