import BulwarkCore
import BulwarkUpgrades
import Foundation
import Testing
@testable import BulwarkTUI

/// Each dialog holds its own state: it goes with the dialog, survives the
/// help or the quit question opened over it, and comes back with it.
@Suite struct OverlayStateTests {
    static func withHistory() -> AppState {
        var state = ReducerTests.state()
        var entries = state.snapshot.entries
        entries[0].changePassword(to: "second", reason: "edited", at: state.now)
        entries[0].changePassword(to: "third", reason: "edited", at: state.now)
        state.snapshot.entries = entries
        state.history = HistoryBrowser(entryID: entries[0].id)
        return state
    }

    @Test func theHelpOverADialogGivesItBackAsItWas() {
        let store = Store(state: Self.withHistory())
        store.send(.key(.char("j")))
        store.send(.key(.char("v")))
        #expect(store.state.history?.list.selected == 1 && store.state.history?.revealed == 1)
        store.send(.key(.char("?")))
        #expect(store.state.overlayKind == .help && store.state.history?.revealed == 1)
        store.send(.key(.escape))
        #expect(store.state.overlayKind == .history && store.state.history?.list.selected == 1 && store.state.history?.revealed == 1)
        store.send(.key(.escape))
        #expect(store.state.overlay == nil && store.state.history == nil)
    }

    @Test func settingADialogsStateToNilClosesOnlyThatDialog() {
        var state = Self.withHistory()
        state.picker = nil  // not the one open
        #expect(state.overlayKind == .history)
        state.history = nil
        #expect(state.overlay == nil)
    }

    /// The result of an upgrade that ends while "Quit?" is asked waits under
    /// the question; the question, about nothing now, goes and leaves it.
    @Test func aResultArrivingUnderTheQuitQuestionIsShownWhenItGoes() {
        var state = ReducerTests.state()
        let entry = state.snapshot.entries[0]
        state.upgrade = UpgradeUI(request: UpgradeRequest(entryID: entry.id, kind: .strongPassword, origin: .entry), title: entry.title, state: .authorising)
        let store = Store(state: state)
        store.send(.key(.ctrl("c")))
        #expect(store.state.overlay == .confirmQuit(over: nil))
        store.send(.upgrade(.stepped(.failed(reason: "The service is down."), store.state.snapshot)))
        #expect(store.state.overlayKind == .result && store.state.result?.ending == .failed && store.exitCode == nil)
    }

    /// "No" to the quit question goes back to the dialog it came over.
    @Test func noToTheQuitQuestionGoesBackToTheDialogUnderIt() {
        var state = Self.withHistory()
        state.upgrade = UpgradeUI(request: UpgradeRequest(entryID: "x", kind: .strongPassword, origin: .entry), title: "X", state: .authorising)
        let store = Store(state: state)
        store.send(.interrupt)
        #expect(store.state.overlayKind == .confirmQuit)
        store.send(.key(.char("n")))
        #expect(store.state.overlayKind == .history && store.exitCode == nil)
    }
}
