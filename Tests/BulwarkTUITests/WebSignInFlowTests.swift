import BulwarkCore
import BulwarkUpgrades
import Foundation
import Testing
@testable import BulwarkTUI

/// "Log in with Nimbus ID" at Shiny in the app: the alert, the provider's
/// login page with AutoFill, its code, its consent; the shared session the
/// second time; a private session; cancel at each sheet.
@Suite struct WebSignInFlowTests {
    @Test func theWholeSessionThenASharedOneThenAPrivateOne() async throws {
        let f = try AppFixture()
        await f.selectEntry("Shiny")
        await f.press(.char("l"))
        #expect(f.state.webSignIn?.step == .alert(app: "Shiny", domain: "id.nimbus.example"))
        f.golden("web-sign-in-alert")
        await f.press(.enter)
        #expect(f.state.webSignIn?.step == .loginPage(provider: "Nimbus ID", domain: "id.nimbus.example", message: nil))
        #expect(f.state.webSignIn?.autoFill == "jane@mail.example")
        f.golden("web-sign-in-login")
        await f.press(.enter)  // AutoFill
        #expect(f.state.webSignIn?.step == .secondFactor(provider: "Nimbus ID", message: nil))
        await f.type("000000")
        f.golden("web-sign-in-code")
        await f.press(.enter)
        #expect(f.state.webSignIn?.step == .secondFactor(provider: "Nimbus ID", message: "That code is not right. 4 attempts left."))
        await f.press(.char("f"))  // from the vault's Nimbus ID entry
        #expect(f.state.webSignIn?.step == .consent(provider: "Nimbus ID", app: "Shiny"))
        f.golden("web-sign-in-consent")
        await f.press(.enter)
        #expect(f.state.webSignIn == nil)
        #expect(f.state.banner?.text == "Signed in to Shiny through Nimbus ID (as jane@mail.example); the account is now linked to it.")
        #expect(f.entry("Shiny")?.signsInWith == "https://id.nimbus.example")
        f.golden("entry-signs-in-with")
        // The same browser: straight through after the alert.
        await f.press(.char("l"), .enter)
        #expect(f.state.webSignIn == nil && f.state.banner?.text == "Signed in to Shiny through Nimbus ID (as jane@mail.example).")
        // A private session: the login page again.
        await f.press(.char("l"), .char("p"))
        #expect(f.state.webSignIn?.ephemeral == true)
        await f.press(.enter)
        #expect(f.state.webSignIn?.step == .loginPage(provider: "Nimbus ID", domain: "id.nimbus.example", message: nil))
        await f.press(.escape)
        #expect(f.state.webSignIn == nil && f.state.banner?.text == "Shiny: sign-in cancelled. Nothing was changed.")
    }

    /// The login page takes typing: an account the vault does not hold, a
    /// wrong password refused by the provider (the password field emptied),
    /// then the right one; "?" is a character there, not the help.
    @Test(arguments: [(80, 24), (60, 16)])
    func theLoginPageTakesAnAccountTyped(width: Int, height: Int) async throws {
        let f = try AppFixture(width: width, height: height)
        await f.selectEntry("Shiny")
        await f.press(.char("l"), .enter)
        await f.type("jane@mail.example")
        await f.press(.tab)
        await f.type("wrong?pass")
        #expect(f.state.webSignIn?.email.text == "jane@mail.example" && f.state.webSignIn?.password.text == "wrong?pass")
        #expect(f.state.overlay == nil)
        f.golden("web-sign-in-login-typed")
        await f.press(.enter)
        #expect(f.state.webSignIn?.step == .loginPage(provider: "Nimbus ID", domain: "id.nimbus.example",
                                                      message: "That e-mail or password is not right. 4 attempts left."))
        #expect(f.state.webSignIn?.password.isEmpty == true && f.state.webSignIn?.email.text == "jane@mail.example")
        let nimbus = try #require(f.state.snapshot.entries.first { $0.title == "Nimbus ID" }?.password)
        await f.type(nimbus)  // the password field still has the keys
        await f.press(.enter)
        #expect(f.state.webSignIn?.step == .secondFactor(provider: "Nimbus ID", message: nil))
        #expect(f.state.webSignIn?.email.isEmpty == true && f.state.webSignIn?.password.isEmpty == true)
    }

    @Test(arguments: ["alert", "login", "code", "consent", "don't allow"])
    func cancelAtEachSheetChangesNothing(at point: String) async throws {
        let f = try AppFixture()
        await f.selectEntry("Shiny")
        await f.press(.char("l"))
        if point != "alert" { await f.press(.enter) }
        if point == "code" || point == "consent" || point == "don't allow" { await f.press(.enter) }
        if point == "consent" || point == "don't allow" { await f.press(.char("f")) }
        await f.press(point == "don't allow" ? .char("n") : .escape)
        #expect(f.state.webSignIn == nil && f.state.banner?.text == "Shiny: sign-in cancelled. Nothing was changed.")
        #expect(f.entry("Shiny")?.signsInWith == nil)
    }

    @Test func aServiceWithoutAProviderSaysSo() async throws {
        let f = try AppFixture()
        await f.selectEntry("Broker")
        await f.press(.char("l"))
        #expect(f.state.webSignIn == nil && f.state.status == "Log in through the identity provider the service takes: unavailable. invest.example offers no sign-in through an identity provider.")
    }

    @Test func theSheetsAt60x16() async throws {
        let f = try AppFixture(width: 60, height: 16)
        await f.selectEntry("Shiny")
        await f.press(.char("l"))
        f.golden("web-sign-in-alert")
        await f.press(.enter)
        f.golden("web-sign-in-login")
    }

    /// Locking ends a sign-in under way: no sheet after the unlock, nothing recorded.
    @Test func lockingEndsTheSignIn() async throws {
        let f = try AppFixture()
        await f.selectEntry("Shiny")
        await f.press(.char("l"), .enter)
        #expect(f.state.webSignIn != nil)
        await f.press(.escape)  // cancels; then start again and lock mid-way
        await f.press(.char("l"), .enter)
        f.store.send(.lock)
        await f.store.settle()
        #expect(f.state.webSignIn == nil && !f.state.unlocked)
        await f.type("demo")
        await f.press(.enter)
        #expect(f.state.unlocked && f.state.webSignIn == nil && f.entry("Shiny")?.signsInWith == nil)
    }
}
