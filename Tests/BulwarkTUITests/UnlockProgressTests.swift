import BulwarkCore
import Foundation
import Testing
@testable import BulwarkTUI

/// The unlock screen while the key is derived: a share of the time a small
/// derivation predicted, moved on by the clock, held below 99% until the
/// vault opens, and gone with a failure.
@Suite struct UnlockProgressTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    static func busy(creating: Bool = false) -> AppState {
        var state = AppState(width: 80, height: 24, unlocked: false, snapshot: SessionSnapshot(), lockLabel: "demo")
        state.unlock = UnlockForm(creating: creating, hint: "The demo's master password is \"demo\".")
        state.unlock.busy = true
        state.busy = true
        state.now = start
        return state
    }

    @Test func theShareFollowsTheClock() {
        var state = Self.busy()
        _ = Reducer.reduce(into: &state, action: .unlock(.keyDerivationEstimated(started: Self.start, seconds: 2)))
        #expect(state.unlock.keyDerivation == KeyDerivationProgress(started: Self.start, expected: 2))
        _ = Reducer.reduce(into: &state, action: .tick(Self.start.addingTimeInterval(1)))
        Snapshot.assert(AppView.render(state), named: "unlock-deriving")
        let screen = AppView.render(state).textDump()
        #expect(screen.contains("Unlocking: deriving the key from your password…"))
        #expect(screen.contains("███████ ") && screen.contains(" 50%"))
        // Past the estimate it waits at 99%, never 100% before the vault opens.
        _ = Reducer.reduce(into: &state, action: .tick(Self.start.addingTimeInterval(9)))
        #expect(AppView.render(state).textDump().contains(" 99%"))
        #expect(KeyDerivationProgress(started: Self.start, expected: 2).fraction(at: Self.start.addingTimeInterval(-1)) == 0)
    }

    @Test func aFailureOrAnEstimateTooLateLeavesNoBar() {
        var state = Self.busy()
        _ = Reducer.reduce(into: &state, action: .unlock(.keyDerivationEstimated(started: Self.start, seconds: 2)))
        _ = Reducer.reduce(into: &state, action: .unlock(.failed("Wrong master password. Try again.")))
        #expect(state.unlock.keyDerivation == nil && !state.unlock.busy)
        // An estimate that arrives after the unlock ended is dropped.
        _ = Reducer.reduce(into: &state, action: .unlock(.keyDerivationEstimated(started: Self.start, seconds: 2)))
        #expect(state.unlock.keyDerivation == nil)
        #expect(!AppView.render(state).textDump().contains("deriving"))
    }

    @Test func creatingSaysSo() {
        var state = Self.busy(creating: true)
        _ = Reducer.reduce(into: &state, action: .unlock(.keyDerivationEstimated(started: Self.start, seconds: 4)))
        _ = Reducer.reduce(into: &state, action: .tick(Self.start.addingTimeInterval(1)))
        let screen = AppView.render(state).textDump()
        #expect(screen.contains("Creating the vault: deriving its key…") && screen.contains(" 25%"))
    }

    /// Enter first reads the vault's key settings, and only then starts the
    /// unlock beside the estimate: read beside the unlock, the settings
    /// would wait for its lock through the whole derivation.
    @Test func theSettingsAreReadBeforeTheUnlockStarts() async throws {
        var state = AppState(width: 80, height: 24, unlocked: false, snapshot: SessionSnapshot(), lockLabel: "demo")
        state.unlock.password = TextField("demo", masked: true)
        guard case .run(let read) = Reducer.reduce(into: &state, action: .unlock(.submit)) else {
            Issue.record("Enter did not start with one step")
            return
        }
        #expect(state.unlock.busy)
        let action = await read(AppEnvironment())
        #expect(action == .unlock(.keyDerivationSettingsRead(nil)))  // no session: unknown settings, and the unlock still goes ahead
        guard case .batch(let both) = Reducer.reduce(into: &state, action: .unlock(.keyDerivationSettingsRead(ScryptParameters(logN: 10)))) else {
            Issue.record("the settings did not start the unlock and the estimate")
            return
        }
        #expect(both.count == 2)
        // An unlock that ended meanwhile (a failure) is not started again.
        _ = Reducer.reduce(into: &state, action: .unlock(.failed("Wrong master password. Try again.")))
        #expect(Reducer.reduce(into: &state, action: .unlock(.keyDerivationSettingsRead(nil))).isNone)
    }

    /// The estimate comes from the vault's own settings, read without the password.
    @Test func theEstimateReadsTheVaultsSettings() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("bulwark-estimate-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let path = dir.appendingPathComponent("vault.db")
        _ = try Vault.create(at: path, masterPassword: "m", parameters: ScryptParameters(logN: 11))
        #expect(try VaultFileCheck.parameters(at: path) == ScryptParameters(logN: 11))
        let small = try #require(Scrypt.estimatedSeconds(for: ScryptParameters(logN: 11)))
        #expect(small > 0 && small < 1)
        #expect(Scrypt.estimatedSeconds(for: ScryptParameters(logN: 40)) == nil)  // refused, as derive refuses it
    }
}
