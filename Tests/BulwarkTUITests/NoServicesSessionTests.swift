import BulwarkCore
import BulwarkUpgrades
import Foundation
import Testing
@testable import BulwarkTUI

/// A person's own vault with no services given: its unlock makes no mock
/// service state anywhere (it made a temporary identity provider and inbox
/// on every unlock), and what needs a service says there is none.
@Suite struct NoServicesSessionTests {
    @Test func anUnlockMakesNoServiceWorldAndSignInSaysThereIsNone() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("bulwark-noservices-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("vault.db")
        let vault = try Vault.create(at: path, masterPassword: "pw", parameters: ScryptParameters(logN: 10))
        try vault.save(Entry(title: "Shiny", urls: ["https://shiny.example"], username: "jane", password: "hunter2-hunter2"))
        vault.close()
        let session = AppSession(vaultPath: path, catalog: ServiceCatalog(manifests: []), breaches: BreachCorpus(files: []))
        let snapshot = try session.unlock(masterPassword: "pw")
        #expect(snapshot.entries.count == 1)
        // No world at all (not even a temporary one: the temporary directory is no witness, as
        // other tests of this process make theirs there meanwhile) and nothing beside the vault.
        #expect(session.lock.withLock { session.world == nil } && !FileManager.default.fileExists(atPath: dir.appendingPathComponent("services").path))
        let id = snapshot.entries[0].id
        #expect(session.signIn(id: id) == .refused(AppSession.noServices))
        let upgrade = session.startUpgrade(UpgradeRequest(entryID: id, kind: .strongPassword, origin: .entry))
        #expect(upgrade.state == .failed(reason: AppSession.noServices))
    }
}
