import BulwarkCore
import BulwarkUpgrades
import Foundation
import Testing
@testable import BulwarkTUI

/// The real app on the embedded demo: a vault and mock services in a
/// temporary directory, a fixed clock, no service latency. Keys go through
/// the Store as the terminal would send them; effects are awaited.
final class AppFixture {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)  // 2027-01-15, a Friday
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bulwark-app-\(UUID().uuidString)")
    let session: AppSession
    let store: Store

    /// `approvals`: where the answers to the SSH agent's questions go.
    init(width: Int = 80, height: Int = 24, unlocked: Bool = true, approvals: (any SSHApprovalClient)? = nil,
         configure: (inout AppState) -> Void = { _ in }) throws {
        let catalog = try ServiceCatalog.builtIn()
        let path = try DemoSetup.write(to: directory, catalog: catalog, now: Self.now, parameters: ScryptParameters(logN: 10))
        let now = Self.now
        session = AppSession(vaultPath: path, catalog: catalog, breaches: try BreachCorpus.load(paths: []), appleID: DemoSetup.appleID,
                             clock: { now }, sleep: { _ in })
        var state = AppState(width: width, height: height, unlock: UnlockForm(hint: "The demo's master password is “demo”."), now: now)
        if unlocked {
            state = AppState(width: width, height: height, unlocked: true, snapshot: try session.unlock(masterPassword: "demo"), now: now)
        }
        // The flows under test begin at the service; the question before it has tests of its own.
        state.confirmServiceChanges = false
        configure(&state)
        var environment = AppEnvironment(now: { now }, session: session)
        environment.approvals = approvals
        store = Store(state: state, environment: environment)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    var state: AppState { store.state }

    func press(_ keys: Key...) async {
        for key in keys {
            store.send(.key(key))
            await store.settle()
        }
    }

    func type(_ text: String) async {
        for character in text { await press(.char(character)) }
    }

    /// Moves the vault selection to an entry.
    func selectEntry(_ title: String) async {
        await press(.char("g"))
        for _ in 0..<state.visible.count where state.selectedEntry?.title != title { await press(.char("j")) }
        #expect(state.selectedEntry?.title == title)
    }

    /// Moves the recommendations selection to an account.
    func selectRecommendation(_ title: String) async {
        await press(.char("g"))
        for _ in 0..<state.snapshot.report.recommendations.count where state.selectedRecommendation?.entry.title != title {
            await press(.char("j"))
        }
        #expect(state.selectedRecommendation?.entry.title == title)
    }

    func entry(_ title: String) -> Entry? { state.snapshot.entries.first { $0.title == title } }

    /// Goldens of the current screen, in colour and with NO_COLOR.
    func golden(_ name: String, filePath: String = #filePath, sourceLocation: SourceLocation = #_sourceLocation) {
        Snapshot.assert(AppView.render(state), named: name, filePath: filePath, sourceLocation: sourceLocation)
        Snapshot.assert(AppView.render(state, colors: false), named: name + "-nocolor", filePath: filePath, sourceLocation: sourceLocation)
    }
}
