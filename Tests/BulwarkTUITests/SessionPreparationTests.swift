import BulwarkCore
import BulwarkUpgrades
import Foundation
import Testing
@testable import BulwarkTUI

/// The demo draws its unlock screen while its vault is still being
/// written: the first unlock waits for that work, once, and fails with its error.
@Suite struct SessionPreparationTests {
    struct SetupFailed: Error, Equatable {}

    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0
        func increment() { lock.withLock { value += 1 } }
        var count: Int { lock.withLock { value } }
    }

    @Test func theFirstUnlockWaitsForThePreparationAndFailsWithItsError() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("bulwark-prepare-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("vault.db")
        let failing = AppSession(vaultPath: path, catalog: try ServiceCatalog.builtIn(), breaches: try BreachCorpus.load(paths: []),
                                 clock: { AppFixture.now }, sleep: { _ in })
        failing.preparation = { throw SetupFailed() }
        #expect(throws: SetupFailed.self) { try failing.unlock(masterPassword: "pw") }

        // The vault written by the preparation, as the demo writes its own.
        let session = AppSession(vaultPath: path, catalog: try ServiceCatalog.builtIn(), breaches: try BreachCorpus.load(paths: []),
                                 clock: { AppFixture.now }, sleep: { _ in })
        let runs = Counter()
        session.preparation = {
            runs.increment()
            if !FileManager.default.fileExists(atPath: path.path) {
                let vault = try Vault.create(at: path, masterPassword: "pw", parameters: ScryptParameters(logN: 10))
                try vault.save(Entry(title: "Written meanwhile", password: "pw-1"))
                vault.close()
            }
        }
        #expect(try session.unlock(masterPassword: "pw").entries.map(\.title) == ["Written meanwhile"])
        session.lockVault()
        _ = try session.unlock(masterPassword: "pw")
        #expect(runs.count == 2)  // asked each time; the demo's own wait returns at once after the first
    }

    /// The unlock screen's estimate reads the vault's settings through
    /// SQLite, and `Vault.open` checks the file's length through a
    /// descriptor of its own; closing that descriptor would drop the
    /// estimate's connection's lock, and a connection opened meanwhile would
    /// hold none the system knows of. So the estimate waits for an unlock
    /// under way (here held open by its preparation) and reads after it.
    @Test func theEstimateNeverReadsTheFileBesideAnUnlock() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("bulwark-estimate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("vault.db")
        try Vault.create(at: path, masterPassword: "pw", parameters: ScryptParameters(logN: 10)).close()
        let session = AppSession(vaultPath: path, catalog: try ServiceCatalog.builtIn(), breaches: try BreachCorpus.load(paths: []),
                                 clock: { AppFixture.now }, sleep: { _ in })
        // The preparation runs inside the unlock, under its lock, before Vault.open.
        let unlockStarted = DispatchSemaphore(value: 0), prepared = Counter()
        session.preparation = {
            unlockStarted.signal()
            usleep(300_000)
            prepared.increment()
        }
        Thread { _ = try? session.unlock(masterPassword: "pw") }.start()
        unlockStarted.wait()
        let parameters = session.keyDerivationParameters(creating: false)
        #expect(prepared.count == 1, "the settings were read from the file while the unlock was under way")
        #expect(parameters == ScryptParameters(logN: 10))
    }
}
