import Foundation
import Testing

/// `signin` as the app does it (WWDC19): the saved password or Sign in
/// with Apple where the service takes both, and the upgrades offered after
/// a sign-in with a weak password; a script keeps the saved password.
@Suite struct SignInChoiceCommandTests {
    @Test func aScriptSignsInWithTheSavedPasswordUnlessItSaysApple() throws {
        let demo = try AccountCommandTests.Demo()
        let saved = try demo.run(["signin", "Scooter Share"])
        #expect(saved.status == 0 && saved.stdout == "Signed in to Scooter Share.\n" && saved.stderr.isEmpty)
        let apple = try demo.run(["signin", "Scooter Share", "--with", "apple", "--hide-email"])
        #expect(apple.status == 0 && apple.stdout == "Scooter Share now uses Sign in with Apple with a hidden e-mail. Its password was removed.\n")
        let shown = try demo.json(["show", "Scooter Share", "--json"]) as! [String: Any]
        #expect(shown["has_password"] as? Bool == false && ((shown["sign_in_with_apple"] as? [String: Any])?["email"] as? String)?.hasSuffix("@privaterelay.appleid.example") == true)
        let again = try demo.run(["signin", "Scooter Share", "--with", "apple"])
        #expect(again.status == 2 && again.stderr == "bulwark: Scooter Share cannot move to Sign in with Apple: it signs in with Apple already. Nothing was sent.\n")
        let grocer = try demo.run(["signin", "Grocer", "--with", "apple"])
        #expect(grocer.status == 2 && grocer.stderr == "bulwark: Grocer cannot move to Sign in with Apple: Grocer does not support Sign in with Apple. Nothing was sent.\n")
        #expect(try demo.run(["signin", "Grocer", "--with", "carrier-pigeon"]).status == 2)
    }

    /// On a terminal: the two credentials offered before anything is sent,
    /// then, after the weak password signed in, the account's upgrades.
    @Test func onATerminalBothAreOfferedAndAWeakSignInOffersTheUpgrade() throws {
        let demo = try AccountCommandTests.Demo()
        let tmux = try demo.onTerminal("signin 'Scooter Share'")
        defer { tmux.close() }
        let asked = try tmux.waitFor(text: "[P/a]", seconds: 30)
        #expect(asked.contains("Sign in to Scooter Share with [p] the saved password (jane@mail.example) or [a] Sign in with Apple (the account moves to your Apple ID; its password goes)? [P/a]"))
        try tmux.sendBytes("\r")
        let offered = try tmux.waitFor(text: "not now? [n]", seconds: 30)
        #expect(offered.contains("Signed in to Scooter Share.\nThis password is easy to guess: it contains the account's username or the site's name. Upgrade this account now: [s] a strong password, [a] Sign in with Apple, or [n] not now? [n]"), "\(offered)")
        try tmux.sendBytes("s\r")
        #expect(try tmux.exitStatus(seconds: 30) == 0)
        #expect(try tmux.capture().contains("Scooter Share set a strong password of its own; bulwark saved it."))
        let shown = try demo.json(["show", "Scooter Share", "--json", "--reveal"]) as! [String: Any]
        #expect((shown["history"] as? [Any])?.count == 1 && shown["password"] as? String != "scooter111")
    }

    @Test func onATerminalSignInWithAppleMovesTheAccount() throws {
        let demo = try AccountCommandTests.Demo()
        let tmux = try demo.onTerminal("signin 'City Health Portal'")
        defer { tmux.close() }
        _ = try tmux.waitFor(text: "[P/a]", seconds: 30)
        try tmux.sendBytes("a\r")
        #expect(try tmux.exitStatus(seconds: 30) == 0)
        #expect(try tmux.capture().contains("City Health Portal now uses Sign in with Apple. Its password was removed."), "\((try? tmux.capture()) ?? "")")
    }
}
