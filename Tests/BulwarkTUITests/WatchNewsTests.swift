import Foundation
import Testing
@testable import BulwarkTUI

/// `bulwark watch`'s news on the lock screen: said under the field until
/// the person types (a wrong password's error takes its place).
@Suite struct WatchNewsTests {
    static let news = "2 passwords were found in new breach data (pwned-passwords-v8.txt, 2026-11-28). Unlock: Security Recommendations (r) show which."

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
}
