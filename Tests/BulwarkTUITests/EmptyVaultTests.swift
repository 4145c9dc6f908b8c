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

/// A vault no service covers gains no `services/` folder from being opened;
/// one appears when a service is involved (signing up at one).
@Suite struct ServicesFolderTests {
    @Test func onlyWhenAServiceIsInvolved() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("bulwark-real-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let services = dir.appendingPathComponent("services").path
        let vaultPath = dir.appendingPathComponent("vault.db")
        func session() throws -> AppSession {
            AppSession(vaultPath: vaultPath, catalog: try ServiceCatalog.builtIn(), breaches: try BreachCorpus.load(paths: []),
                       clock: { AppFixture.now }, sleep: { _ in })
        }
        let first = try session()
        _ = try first.create(masterPassword: "lantern orchid velvet quarry", parameters: ScryptParameters(logN: 10))
        _ = try first.save(Entry(title: "Bank", urls: ["https://bank.example.com"], username: "jane", password: "hunter2-hunter2"), basedOn: nil)
        first.lockVault()
        let second = try session()
        _ = try second.unlock(masterPassword: "lantern orchid velvet quarry")
        #expect(!FileManager.default.fileExists(atPath: services))
        #expect(second.signIn(id: second.snapshot().entries.first!.id) != .accepted(sessionToken: ""))  // nothing to sign in to, and no folder for it
        #expect(!FileManager.default.fileExists(atPath: services))
        guard case .done = second.signUpWithApple(serviceID: "shiny", hideEmail: true) else { Issue.record("no sign-up"); return }
        #expect(FileManager.default.fileExists(atPath: services))
        second.lockVault()
        // Kept from then on: the account lives at the service.
        let third = try session()
        _ = try third.unlock(masterPassword: "lantern orchid velvet quarry")
        #expect(third.snapshot().entries.contains { $0.signInWithApple != nil })
    }
}
