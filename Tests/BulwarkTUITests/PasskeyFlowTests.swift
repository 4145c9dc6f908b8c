import BulwarkCore
import BulwarkUpgrades
import Foundation
import Testing
@testable import BulwarkTUI

/// A USB key as the app sees one, answering with a passkey it holds (the
/// libfido2 path itself is tested against a software CTAP2 device).
struct StandInSecurityKey: SecurityKeyDevice, SecurityKeyProvider {
    let name = "Stand-in Key"
    let passkey: Passkey
    func assert(_ options: RequestOptions, origin: String) throws -> String {
        try PasskeyAuthenticator.assert(options, origin: origin, with: passkey).response
    }
    func devices() -> [SecurityKeyDevice] { [self] }
}

/// Upgrading to a passkey and a security-key step-up, on screen.
@Suite struct PasskeyFlowTests {
    @Test func upgradeToAPasskeyFromARecommendation() async throws {
        let f = try AppFixture()
        await f.press(.char("r"))
        await f.selectRecommendation("Shiny")
        // The passkey is the first fix offered where the service takes one.
        #expect(Keymaps.recommendations(f.state).bindings.first { $0.hint == "passkey" || $0.hint == "upgrade" }?.hint == "passkey")
        await f.press(.char("P"))
        guard case .passkeySheet(let sheet)? = f.state.upgrade?.state else { Issue.record("no sheet: \(String(describing: f.state.upgrade?.state))"); return }
        #expect(sheet.rpID == "shiny.example" && sheet.userName == "jane@mail.example")
        f.golden("passkey-sheet")
        await f.press(.enter)
        #expect(f.state.overlayKind == .result && f.state.result?.heading == "Shiny: upgraded to a passkey")
        f.golden("passkey-result")
        await f.press(.enter)
        let shiny = try #require(f.entry("Shiny"))
        #expect(shiny.password == nil && shiny.passkeys.count == 1 && shiny.history.first?.reason == "upgraded to a passkey")
        // The same account's other entry stops offering its dead password too.
        #expect(f.entry("Shiny Store")?.password == nil)
        await f.press(.tab)
        await f.selectEntry("Shiny")
        f.golden("entry-after-passkey-upgrade")
        // Signing in: the sheet asks first; Esc backs out, Enter signs in through the service's relying party.
        await f.press(.char("s"))
        #expect(f.state.overlayKind == .passkeySignIn)
        await f.press(.escape)
        #expect(f.state.overlay == nil && f.state.banner?.text != "Signed in to Shiny.")
        await f.press(.char("s"))
        f.golden("passkey-sign-in")
        await f.press(.enter)
        #expect(f.state.overlay == nil && f.state.banner?.text == "Signed in to Shiny.")
    }

    @Test func escOnTheSheetChangesNothing() async throws {
        let f = try AppFixture()
        await f.selectEntry("Shiny")
        let before = try #require(f.entry("Shiny"))
        await f.press(.char("P"))
        await f.press(.escape)
        #expect(f.state.upgrade == nil && f.state.banner?.text == "Shiny: cancelled. Nothing was changed.")
        #expect(f.entry("Shiny")?.password == before.password && f.entry("Shiny")?.passkeys.isEmpty == true)
    }

    @Test func aSecurityKeyStepUpAnsweredByTheVaultsPasskey() async throws {
        let f = try AppFixture()
        await f.selectEntry("Harbor Credit Union")
        let old = try #require(f.entry("Harbor Credit Union")?.password)
        await f.press(.char("u"))
        guard case .stepUp(let screen)? = f.state.upgrade?.state else { Issue.record("no step-up: \(String(describing: f.state.upgrade?.state))"); return }
        #expect(screen.method == .securityKey && f.state.upgrade?.securityKeys == [])
        #expect(Keymaps.active(f.state).binding(for: .char("s"))?.disabledReason == "No USB security key is plugged in")
        f.golden("security-key-step-up")
        await f.press(.enter)
        #expect(f.state.result?.heading == "Harbor Credit Union: upgraded to a strong password")
        #expect(f.entry("Harbor Credit Union")?.password != old)
    }

    @Test func aSecurityKeyStepUpAnsweredByAUSBKey() async throws {
        let f = try AppFixture()
        let passkey = try #require(f.entry("Harbor Credit Union")?.passkeys.first)
        f.session.securityKeyProvider = StandInSecurityKey(passkey: passkey)
        await f.selectEntry("Harbor Credit Union")
        await f.press(.char("u"))
        #expect(f.state.upgrade?.securityKeys == ["Stand-in Key"])
        f.golden("security-key-usb")
        await f.press(.char("s"))
        #expect(f.state.result?.heading == "Harbor Credit Union: upgraded to a strong password")
    }

    /// The smallest window the app draws: the sheet and the security-key screen still whole.
    @Test func theSheetAndTheSecurityKeyScreenAt60x16() async throws {
        let f = try AppFixture(width: 60, height: 16)
        await f.selectEntry("Shiny")
        await f.press(.char("P"))
        #expect(AppView.render(f.state).textDump().contains("[ Save ]"))
        f.golden("passkey-sheet")
        await f.press(.escape)
        await f.selectEntry("Harbor Credit Union")
        await f.press(.char("u"))
        #expect(AppView.render(f.state).textDump().contains("[s] Use a USB security key"))
        f.golden("security-key-step-up")
    }
}
