import Foundation
import Testing
@testable import BulwarkTUI

/// `bulwark watch`'s news on the lock screen: said under the field until
/// the person types (a wrong password's error takes its place).
@Suite struct WatchNewsTests {
    static let news = "2 passwords were found in new breach data (pwned-passwords-v8.txt, 2026-11-28). Unlock to see which in Security Recommendations."

    @Test(arguments: [(80, 24), (120, 40), (60, 16)])
    func theNewsIsOnTheLockScreen(width: Int, height: Int) async throws {
        let f = try AppFixture(width: width, height: height, unlocked: false)
        var state = f.state
        state.unlock.news = Self.news
        let store = Store(state: state)
        Snapshot.assert(AppView.render(store.state), named: "unlock-watch-news")
        for c in "wrong" { store.send(.key(.char(c))) }
        #expect(store.state.unlock.news == Self.news)
    }

    /// As tapping the notification does (WWDC20): the unlock that follows
    /// news opens Security Recommendations; an unlock with none opens the vault.
    @Test func unlockingAfterNewsOpensSecurityRecommendations() async throws {
        let f = try AppFixture(width: 80, height: 24, unlocked: false)
        f.store.send(.unlock(.watchNews(Self.news)))
        #expect(f.state.unlock.news == Self.news)
        await f.type("demo")
        await f.press(.enter)
        #expect(f.state.unlocked && f.state.screen == .recommendations && f.state.unlock.news == nil)
        // At the worst newly breached account (the demo's worst, Broker, is one: its password is on the common list).
        #expect(f.state.selectedRecommendation?.entry.title == "Broker" && f.state.snapshot.newlyBreached.contains("Broker"))
        var state = f.state
        state.snapshot.newlyBreached = ["Gym", "Library"]
        state.recommendationList.select(0, count: state.shownRecommendationCount)
        UnlockReducer.selectTheNews(&state)
        #expect(state.selectedRecommendation?.entry.title == "Gym" && !state.landsOnBreachNews)
        // A selection the person moved before the analysis ended stays.
        state.recommendationList.select(1, count: state.shownRecommendationCount)
        UnlockReducer.selectTheNews(&state)
        #expect(state.selectedRecommendation?.entry.title == "Photo Share")
        let plain = try AppFixture(width: 80, height: 24, unlocked: false)
        await plain.type("demo")
        await plain.press(.enter)
        #expect(plain.state.unlocked && plain.state.screen == .vault)
        // Unlocked, news for the lock screen is not taken (it would show at the next lock only if the watch said it again).
        plain.store.send(.unlock(.watchNews(Self.news)))
        #expect(plain.state.unlock.news == nil)
    }
}
