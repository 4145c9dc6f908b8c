import BulwarkCore
import BulwarkUpgrades
import Foundation
import Testing
@testable import BulwarkTUI

/// What one key can fix: a mark in the recommendations list, a sort that
/// puts it first in each section, a filter that lists only it; and the demo's
/// worst account is one of them.
@Suite struct FixableFirstTests {
    @Test(arguments: [(80, 24), (60, 16)])
    func theMarkTheSortAndTheFilter(width: Int, height: Int) async throws {
        let f = try AppFixture(width: width, height: height)
        await f.press(.char("r"))
        let ranked = f.state.shownRecommendations
        // The demo's worst account is fixed with one key: the stakeholder path starts there.
        #expect(ranked.first?.entry.title == "Broker" && ranked.first?.severity == .critical && f.state.isFixable(ranked[0]))
        #expect(AppView.render(f.state).textDump().contains("‼ CRIT ↑ Broker"))
        #expect(AppView.render(f.state).textDump().contains("‼ CRIT   Photo"))

        await f.press(.char("F"))
        let fixable = f.state.shownRecommendations
        #expect(!fixable.isEmpty && fixable.allSatisfy(f.state.isFixable))
        #expect(fixable.map(\.id) == ranked.filter(f.state.isFixable).map(\.id))  // the ranking kept
        #expect(f.state.status == "Listing only what one key fixes (↑).")
        f.golden("recommendations-fixable-only")
        await f.press(.char("F"))
        #expect(f.state.shownRecommendations.map(\.id) == ranked.map(\.id))

        await f.press(.char("o"))
        let first = f.state.shownRecommendations
        let high = ranked.filter { $0.priority == .high }, other = ranked.filter { $0.priority != .high }
        let expected = high.filter(f.state.isFixable) + high.filter { !f.state.isFixable($0) }
            + other.filter(f.state.isFixable) + other.filter { !f.state.isFixable($0) }
        #expect(first.map(\.id) == expected.map(\.id))
        await f.press(.char("o"))
        #expect(f.state.fixableOrder == nil && f.state.shownRecommendations.map(\.id) == ranked.map(\.id))
    }

    @Test func anUpgradeLeavesTheFilteredListInStep() async throws {
        let f = try AppFixture()
        await f.press(.char("r"), .char("F"))
        let before = f.state.shownRecommendationCount
        await f.press(.char("u"))  // Broker, no step-up
        #expect(f.state.result?.heading == "Broker: upgraded to a strong password")
        #expect(f.state.shownRecommendationCount == before - 1 && !f.state.shownRecommendations.contains { $0.entry.title == "Broker" })
    }
}

/// The smallest window the app draws into, for the dialogs added with them.
@Suite struct SmallestWindowDialogsTests {
    @Test func theFilterPickerAndACancelledUpgradeAt60x16() async throws {
        let f = try AppFixture(width: 60, height: 16)
        await f.press(.char("f"))
        #expect(f.state.overlayKind == .filterPicker)
        f.golden("filter-picker")
        await f.press(.escape)
        var state = f.state
        state.upgrade = UpgradeUI(request: UpgradeRequest(entryID: "d02", kind: .strongPassword, origin: .entry), title: "Shiny", state: .authorising)
        state.upgrade?.before = state.snapshot.report.recommendation(forEntry: "d02")
        let store = Store(state: state)
        store.send(.key(.escape))
        store.send(.upgrade(.stepped(.cancelled, store.state.snapshot)))
        Snapshot.assert(AppView.render(store.state), named: "upgrade-cancelled-while-working")
    }
}
