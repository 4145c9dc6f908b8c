import BulwarkCore
import Testing
@testable import BulwarkTUI

/// Goldens of the walking skeleton. Each golden was read before it was committed.
@Suite struct SkeletonSnapshotTests {
    static func state(width: Int, height: Int) -> AppState {
        AppState(width: width, height: height, entries: DemoCatalog.entries, lockLabel: "demo")
    }

    @Test(arguments: [(80, 24), (120, 40)])
    func vaultSkeleton(width: Int, height: Int) {
        let store = Store(state: Self.state(width: width, height: height))
        store.send(.key(.char("j")))
        Snapshot.assert(AppView.render(store.state), named: "skeleton")
        Snapshot.assert(AppView.render(store.state, colors: false), named: "skeleton-nocolor")
    }

    @Test(arguments: [(80, 24), (120, 40)])
    func helpOverlay(width: Int, height: Int) {
        let store = Store(state: Self.state(width: width, height: height))
        store.send(.key(.char("?")))
        Snapshot.assert(AppView.render(store.state), named: "help")
    }

    @Test func confirmQuitOverlay() {
        var state = Self.state(width: 80, height: 24)
        state.upgradeInFlight = true
        let store = Store(state: state)
        store.send(.key(.ctrl("c")))
        Snapshot.assert(AppView.render(store.state), named: "confirm-quit")
    }

    @Test func tooSmall() {
        Snapshot.assert(AppView.render(Self.state(width: 50, height: 12)), named: "too-small")
    }

    @Test func emptyVault() {
        let store = Store(state: AppState(width: 80, height: 24, entries: [], lockLabel: "demo"))
        store.send(.key(.char("j")))
        Snapshot.assert(AppView.render(store.state), named: "empty")
    }
}
