import BulwarkCore
@testable import BulwarkUpgrades
import Foundation
import Testing
@testable import BulwarkTUI

/// Esc during an upgrade, the result panel that stays until dismissed, and
/// the history browser.
@Suite struct ResultPanelTests {
    static func working(_ kind: UpgradeKind = .strongPassword) -> Store {
        var state = ReducerTests.state()
        state.upgrade = UpgradeUI(request: UpgradeRequest(entryID: "d02", kind: kind, origin: .entry), title: "Shiny", state: .authorising)
        return Store(state: state)
    }

    @Test func escWhileTheServiceWorksAsksItToStop() {
        let store = Self.working()
        #expect(Keymaps.active(store.state).footerHints.map(\.label) == ["cancel", "help", "quit"])
        store.send(.key(.escape))
        #expect(store.state.upgrade?.cancelling == true && store.state.status == "Cancelling: asking the service to stop…")
        store.send(.key(.escape))  // once is enough
        #expect(store.state.status == "Cancel the upgrade (nothing changes unless the service has already made the change): unavailable. Already cancelling.")
        store.send(.upgrade(.stepped(.cancelled, store.state.snapshot)))
        #expect(store.state.upgrade == nil && store.state.overlayKind == .result)
        let result = store.state.result
        #expect(result?.ending == .cancelled && result?.heading == "Shiny: cancelled")
        #expect(result?.service == "Shiny was told to stop before it changed anything." && result?.vault == ["Nothing was changed."])
        Snapshot.assert(AppView.render(store.state), named: "upgrade-cancelled-while-working")
    }

    @Test func aStepThatEndsAtAScreenAfterEscIsCancelledFromThere() {
        let store = Self.working()
        store.send(.key(.escape))
        let screen = StepUpScreen(serviceName: "Shiny", method: .totp, prompt: "Enter the code.", attemptsLeft: 5,
                                  expiresAt: store.state.now.addingTimeInterval(60), message: nil, canResend: true, domain: "shiny.example")
        var state = store.state
        // The screen's own Cancel is the effect (no session here to answer it): the step-up screen is not left waiting for a code.
        let effect = Reducer.reduce(into: &state, action: .upgrade(.stepped(.stepUp(screen), state.snapshot)))
        #expect(!effect.isNone && state.upgrade?.cancelling == true)
        // Without Esc the same step shows the screen and waits.
        var calm = Self.working().state
        #expect(Reducer.reduce(into: &calm, action: .upgrade(.stepped(.stepUp(screen), calm.snapshot))).isNone)
    }

    @Test func escAfterTheServiceCommittedSaysTheChangeStands() {
        let store = Self.working()
        store.send(.key(.escape))
        let outcome = UpgradeOutcome(kind: .strongPassword, entryID: "d02", serviceName: "Shiny", substituted: false, email: nil, isPrivateRelay: false)
        store.send(.upgrade(.stepped(.completed(outcome), store.state.snapshot)))
        #expect(store.state.result?.ending == .upgraded)
        #expect(store.state.result?.vault.first == "Esc came after Shiny had made the change, so it stands.")
    }

    @Test func aKeyThePanelDoesNotTakeClosesItAndActs() {
        let store = Self.working()
        store.send(.upgrade(.stepped(.failed(reason: "The service is down."), store.state.snapshot)))
        let selected = store.state.list.selected
        #expect(store.state.overlayKind == .result)
        store.send(.key(.char("j")))
        #expect(store.state.overlay == nil && store.state.result == nil && store.state.list.selected == selected + 1)
        store.send(.upgrade(.stepped(.failed(reason: "The service is down."), store.state.snapshot)))  // no upgrade: nothing shown
        #expect(store.state.overlay == nil)
    }

    @Test(arguments: [(80, 24), (60, 16)])
    func theResultShowsBeforeAndAfterThenTheHistory(width: Int, height: Int) async throws {
        let f = try AppFixture(width: width, height: height)
        await f.selectEntry("Shiny")
        await f.press(.char("u"))
        let result = try #require(f.state.result)
        #expect(f.state.overlayKind == .result && f.state.selectedEntry?.title == "Shiny")  // the cursor stays on the entry
        #expect(result.before == ["High", "Also used on 2 other accounts", "Weak, about 11 bits: it is mostly a dictionary word or name",
                                   "Could sign in with a passkey instead"])
        // Only the opportunity is left: Shiny takes passkeys.
        #expect(result.after.first?.hasPrefix("Strong: about ") == true && result.after.dropFirst() == ["Low", "Could sign in with a passkey instead"])
        #expect(result.vault.last == "Also updated, the same account: Shiny Store.")
        f.golden("upgrade-result")
        await f.press(.char("h"))
        #expect(f.state.overlayKind == .history && f.state.history?.entryID == f.entry("Shiny")?.id)
        f.golden("history")
        await f.press(.char("v"))
        #expect(f.state.history?.revealed == 0)
        await f.press(.char("v"))
        #expect(f.state.history?.revealed == nil)
        await f.press(.char("v"), .char("j"))  // moving hides it
        #expect(f.state.history?.revealed == nil)
        await f.press(.escape)
        #expect(f.state.overlay == nil && f.state.history == nil)
        await f.press(.char("h"))  // from the vault's detail
        #expect(f.state.overlayKind == .history)
    }

    @Test func anOldPasswordHidesAgainAfterTheRevealTime() throws {
        var state = ReducerTests.state()
        var entries = state.snapshot.entries
        entries[0].changePassword(to: "new-one", reason: "edited", at: state.now)
        state.snapshot.entries = entries
        let id = entries[0].id
        state.history = HistoryBrowser(entryID: id)
        let store = Store(state: state)
        store.send(.key(.char("v")))
        #expect(store.state.history?.revealed == 0)
        store.send(.tick(store.state.now.addingTimeInterval(store.state.revealFor)))
        #expect(store.state.history?.revealed == nil && store.state.status == "The old password is hidden again.")
    }
}
