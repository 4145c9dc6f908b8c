import BulwarkCore
import BulwarkUpgrades
import Foundation
import Testing
@testable import BulwarkTUI

/// The account around its upgrades, in the app: no question without an
/// answer after a weak sign-in, and a Sign in with Apple account signed out
/// from the Apple ID's settings says so.
@Suite struct AccountFlowTests {
    static let sizes = [(80, 24), (120, 40)]

    /// Changes an entry in the fixture's vault file before the app unlocks it.
    static func edit(_ f: AppFixture, _ title: String, _ change: (inout Entry) -> Void) throws {
        let vault = try Vault.open(at: f.session.vaultPath, masterPassword: "demo")
        try vault.update(try vault.find(title).id, change)
        vault.close()
    }

    @Test(arguments: sizes)
    func aWeakSignInWithNoUpgradeOffersTheChangePasswordPage(width: Int, height: Int) async throws {
        let f = try AppFixture(width: width, height: height, unlocked: false)
        try Self.edit(f, "Forum") { $0.password = "forum" }
        try f.world().backend(for: f.world().catalog.manifest(id: "forum")!).commitPasswordForTest(user: "janea", password: "forum")
        await f.type("demo")
        await f.press(.enter)
        await f.selectEntry("Forum")
        await f.press(.char("s"))
        #expect(f.state.overlayKind == .signInPrompt && Keymaps.signInPrompt(f.state).title == "Change this password?")
        #expect(Keymaps.signInPrompt(f.state).footerHints.map(\.key) == ["w", "Esc"])
        f.golden("sign-in-prompt-change-password")
        await f.press(.char("w"))
        #expect(f.state.overlay == nil && f.store.copies.last?.text == "https://forum.example/settings/password")
        #expect(f.state.banner?.text == "Change the password at https://forum.example/settings/password (copied).")
    }

    @Test(arguments: sizes)
    func aSignedOutAccountSaysSoOnUnlock(width: Int, height: Int) async throws {
        let f = try AppFixture(width: width, height: height)
        await f.selectEntry("Shiny")
        await f.press(.char("a"), .enter)
        #expect(f.entry("Shiny")?.signInWithApple != nil && f.entry("Shiny Store")?.signInWithApple != nil)
        try f.world().notify(.consentRevoked, entry: try #require(f.entry("Shiny")))
        await f.press(.char("L"))
        await f.type("demo")
        await f.press(.enter)
        #expect(f.state.banner?.text == "Shiny: Sign in with Apple was stopped for Shiny in the Apple ID's settings; the account is signed out. (and 1 more: see the entries)")
        await f.selectEntry("Shiny")
        #expect(f.entry("Shiny")?.signInWithApple?.state == .revoked)
        f.golden("entry-signed-out")
        await f.press(.char("s"))
        #expect(f.state.banner?.text == "Shiny refused the sign-in: Sign in with Apple was stopped for Shiny in the Apple ID's settings, so the account is signed out; sign in with Apple again to continue.")
    }

    /// The other entry of the account is re-analysed too: no stale "reused" or "weak" left on it.
    @Test func anUpgradeClearsTheWholeAccountsFindings() async throws {
        let f = try AppFixture(width: 120, height: 40)
        let store = try #require(f.entry("Shiny Store"))
        #expect(f.state.snapshot.report.recommendation(forEntry: store.id) != nil)
        await f.selectEntry("Shiny")
        await f.press(.char("u"))
        #expect(f.entry("Shiny Store")?.password == f.entry("Shiny")?.password)
        // Only the opportunity of a passkey is left (Shiny takes one).
        #expect(f.state.snapshot.report.recommendation(forEntry: store.id)?.kinds == [.passkeyAvailable])
        // Recipe Box and City Health Portal shared the old password: no longer with Shiny Store.
        let recipeID = try #require(f.entry("Recipe Box")).id
        let recipe = try #require(f.state.snapshot.report.recommendation(forEntry: recipeID))
        #expect(!recipe.warnings.contains { $0.reason.contains("Shiny") })
    }

    /// Editing one entry's password in the form updates the account's other entry,
    /// and a code whose issuer is another entry's says so.
    @Test func theFormsPasswordIsTheAccountsAndACodeSaysWhoseItIs() async throws {
        let f = try AppFixture(width: 120, height: 40)
        await f.selectEntry("Shiny Store")
        await f.press(.char("e"), .tab, .tab, .tab, .ctrl("u"))
        await f.type("Typed-By-Hand-42")
        await f.press(.enter)
        #expect(f.state.banner?.text == "Saved Shiny Store. Also updated, the same account: Shiny.")
        #expect(f.entry("Shiny")?.password == "Typed-By-Hand-42" && f.entry("Shiny")?.history.first?.reason == "changed with Shiny Store, the same account")
        await f.selectEntry("Grocer")
        await f.press(.char("e"), .tab, .tab, .tab, .tab)
        await f.type("otpauth://totp/Shiny:jane?secret=JBSWY3DPEHPK3PXP&issuer=Shiny")
        await f.press(.enter)
        #expect(f.state.banner?.text == "Saved Grocer. The code says it is Shiny's: entries that look like it: Shiny, Shiny Store.")
    }

    @Test(arguments: sizes)
    func signUpWithAppleInTheApp(width: Int, height: Int) async throws {
        let f = try AppFixture(width: width, height: height)
        await f.press(.char("N"))
        #expect(f.state.overlayKind == .signUp && f.state.signUp?.services.map(\.id) == ["chirp", "city-health", "cloudnotes", "scooters", "shiny"])
        f.golden("sign-up-services")
        await f.press(.char("j"), .char("j"), .enter)
        // The vault holds a Cloud Notes account: its upgrade is offered first; a new account only when asked for.
        #expect(f.state.signUp?.existing?.map(\.said) == ["Cloud Notes (as jane@mail.example)"] && f.state.signUp?.sheet == nil)
        f.golden("sign-up-existing")
        await f.press(.char("n"))
        #expect(f.state.signUp?.sheet?.serviceName == "Cloud Notes")
        await f.press(.down)
        f.golden("sign-up-sheet")
        await f.press(.enter)
        #expect(f.state.overlay == nil && f.state.signUp == nil)
        let entry = try #require(f.entry("Cloud Notes (Sign in with Apple)"))
        #expect(entry.password == nil && entry.signInWithApple?.isPrivateRelay == true && entry.username == entry.signInWithApple?.email)
        #expect(f.state.selectedEntry?.id == entry.id)
        #expect(f.state.banner?.text == "Signed up at Cloud Notes with Apple as \(entry.username) (a hidden e-mail); the entry \"Cloud Notes (Sign in with Apple)\" has no password to keep.")
        await f.press(.char("s"))
        #expect(f.state.banner?.text == "Signed in to Cloud Notes (Sign in with Apple).")
        // Once per Apple ID: a second sign-up is refused by the service, and says so.
        await f.press(.char("N"), .char("j"), .char("j"), .enter, .char("n"), .enter)
        #expect(f.state.banner?.text == "Cloud Notes: Cloud Notes already has an account for this Apple ID; sign in with Apple instead.")
    }

    /// Signing up with Apple where the vault holds an account: `u` upgrades
    /// that account instead (the sheet an upgrade shows), and no second
    /// account is made.
    @Test func signingUpWhereAnAccountIsHeldUpgradesItInstead() async throws {
        let f = try AppFixture()
        let before = f.state.snapshot.entries.count
        await f.press(.char("N"), .char("j"), .enter)
        #expect(f.state.signUp?.existing?.first?.said == "City Health Portal (as jappleseed)")
        await f.press(.char("u"))
        #expect(f.state.overlay == nil && f.state.signUp == nil)
        #expect(f.state.selectedEntry?.title == "City Health Portal")
        guard case .sheet(let sheet)? = f.state.upgrade?.state else {
            Issue.record("no Sign in with Apple sheet: \(String(describing: f.state.upgrade?.state))")
            return
        }
        #expect(sheet.serviceName == "City Health Portal")
        await f.press(.enter)
        #expect(f.entry("City Health Portal")?.signInWithApple != nil && f.entry("City Health Portal")?.password == nil,
                "\(String(describing: f.state.banner))")
        #expect(f.state.snapshot.entries.count == before)
    }
}

extension AppFixture {
    /// The mock services' side, as another process (the `services` command) sees it.
    func world() throws -> ServiceWorld {
        try ServiceWorld(directory: ServiceWorld.directory(besideVault: session.vaultPath), catalog: try ServiceCatalog.builtIn(),
                         clock: { AppFixture.now }, sleep: { _ in })
    }
}

extension MockBackend {
    /// Sets an account's password directly, as if changed on the website.
    func commitPasswordForTest(user: String, password: String) throws {
        _ = try commitPassword(user: user, newPassword: password)
    }
}

/// `?` works in every dialog and step of an upgrade, shows that dialog's
/// keys, and Esc goes back to it.
@Suite struct HelpEverywhereTests {
    @Test func helpOverTheStepUpAndMessagesShowsTheirKeysAndReturns() async throws {
        let f = try AppFixture(width: 120, height: 40)
        await f.selectEntry("Chirp")
        await f.press(.char("u"))
        guard case .stepUp? = f.state.upgrade?.state else { Issue.record("no step-up"); return }
        #expect(Keymaps.active(f.state).footerHints.map(\.key).contains("Enter"))
        await f.press(.enter)
        #expect(f.state.status == "Type the code first.")
        await f.press(.char("?"))
        #expect(f.state.overlayKind == .help && Keymaps.beneathHelp(f.state).title == "Chirp")
        #expect(AppView.render(f.state).textDump().contains("Keys: Chirp"))
        await f.press(.escape)
        guard case .stepUp? = f.state.upgrade?.state else { Issue.record("the step-up was lost"); return }
        #expect(f.state.overlay == nil)
        await f.press(.char("m"))
        #expect(f.state.overlayKind == .messages)
        await f.press(.char("?"))
        #expect(AppView.render(f.state).textDump().contains("Keys: Messages"))
        await f.press(.escape)
        #expect(f.state.overlayKind == .messages)  // back to Messages, not past it
    }
}

/// At 80x24 the heart of the app is still one key away: the breach banner
/// shortens before it is cut, and the footer keeps Tab.
@Suite struct SmallWindowTests {
    @Test func theBannerShortensAndTheFooterKeepsTheWayToRecommendations() async throws {
        let f = try AppFixture(width: 80, height: 24, unlocked: false)
        await f.type("demo")
        await f.press(.enter)
        let screen = AppView.render(f.state).textDump().split(separator: "\n").map(String.init)
        #expect(screen[21].hasPrefix("│ ✗ 8 newly breached · r review"))
        #expect(screen[22].contains("Tab recommendations  ? help  q quit"))
        let wide = try AppFixture(width: 160, height: 40, unlocked: false)
        await wide.type("demo")
        await wide.press(.enter)
        #expect(AppView.render(wide.state).textDump().contains("8 passwords newly found in data breaches since your last unlock:"))
    }
}
