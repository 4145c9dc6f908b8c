import BulwarkCore
import BulwarkUpgrades
import Foundation
import Testing
@testable import BulwarkTUI

/// `u` asks before the service is told (`confirm-service-changes`, on
/// unless the config turns it off): Esc sends nothing, Enter goes on.
/// Sign in with Apple and passkeys ask on their own sheets instead, and an
/// upgrade the service does not offer says why without asking.
@Suite struct ConfirmServiceChangeTests {
    func fixture(width: Int = 80, height: Int = 24, confirm: Bool = true) throws -> AppFixture {
        try AppFixture(width: width, height: height) { $0.confirmServiceChanges = confirm }
    }

    @Test(arguments: [(80, 24), (60, 16), (120, 40)])
    func uAsksWhatWillChangeBeforeTheServiceIsTold(width: Int, height: Int) async throws {
        let f = try fixture(width: width, height: height)
        await f.selectEntry("Shiny")
        let before = f.entry("Shiny")?.password
        await f.press(.char("u"))
        guard case .confirmServiceChange(let change)? = f.state.overlay else { Issue.record("no question: \(String(describing: f.state.overlay))"); return }
        #expect(change.question == "Change the password at Shiny?")
        #expect(change.detail == "bulwark makes a strong password and tells Shiny to use it for jane@mail.example. "
                + "The vault keeps the old one in the entry's history; Shiny may ask for a code first.")
        #expect(f.state.upgrade == nil)
        f.golden("confirm-service-change")
        // Esc: nothing sent, nothing changed.
        await f.press(.escape)
        #expect(f.state.overlay == nil && f.state.upgrade == nil && f.entry("Shiny")?.password == before)
        #expect(f.state.status == "Shiny: nothing was sent to the service.")
        // Enter: the service is told.
        await f.press(.char("u"), .enter)
        #expect(f.state.banner?.text.hasPrefix("Shiny now uses a strong password") == true, "\(String(describing: f.state.banner))")
        #expect(f.entry("Shiny")?.password != before)
    }

    @Test func turnedOffUStartsAtOnce() async throws {
        let f = try fixture(confirm: false)
        await f.selectEntry("Shiny")
        await f.press(.char("u"))
        #expect(f.state.overlay?.kind != .confirmServiceChange)
        #expect(f.state.banner?.text.hasPrefix("Shiny now uses a strong password") == true)
    }

    @Test func anUpgradeOnItsOwnSheetOrUnavailableAsksNothingMore() async throws {
        let f = try fixture()
        await f.selectEntry("Forum")
        await f.press(.char("u"))
        #expect(f.state.overlay == nil && f.state.status == "Upgrade to a strong password: unavailable. Forum does not support upgrading to a strong password.")
        await f.selectEntry("Shiny")
        await f.press(.char("a"))
        guard case .sheet? = f.state.upgrade?.state else { Issue.record("no sheet: \(String(describing: f.state.upgrade?.state))"); return }
        #expect(f.state.overlay == nil)
    }

    /// The palette lists the question's two answers, and the help names them.
    @Test func theKeysAreTheTable() async throws {
        let f = try fixture()
        await f.selectEntry("Shiny")
        await f.press(.char("u"))
        let hints = Keymaps.active(f.state).footerHints.map(\.label)
        #expect(hints == ["cancel", "continue"])
    }
}
