import BulwarkCore
import BulwarkUpgrades
import Foundation
import Testing
@testable import BulwarkTUI

/// A new vault is not a blank screen: it says how to fill it.
@Suite struct EmptyVaultTests {
    @Test(arguments: [(80, 24), (120, 40)])
    func anEmptyVaultSaysHowToAddAndImport(width: Int, height: Int) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("bulwark-empty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let session = AppSession(vaultPath: dir.appendingPathComponent("vault.db"), catalog: try ServiceCatalog.builtIn(),
                                 breaches: try BreachCorpus.load(paths: []), clock: { AppFixture.now }, sleep: { _ in })
        let snapshot = try session.create(masterPassword: "lantern orchid velvet quarry", parameters: ScryptParameters(logN: 10))
        let state = AppState(width: width, height: height, unlocked: true, snapshot: snapshot, now: AppFixture.now)
        let screen = AppView.render(state).textDump()
        #expect(screen.contains("No entries yet.") && screen.contains("Your vault is empty") && screen.contains("bulwark import FILE"))
        Snapshot.assert(AppView.render(state), named: "vault-empty")
    }
}
