import BulwarkCore
import BulwarkUpgrades
import Foundation
import Testing
@testable import BulwarkTUI

/// The app syncing by itself: the demo's vault linked to a bare remote,
/// another machine (a clone in another file) changing entries there.
@Suite struct SyncFlowTests {
    let f: AppFixture
    let git: Git
    let remote: URL
    let desktop: Vault

    init() throws {
        f = try AppFixture(width: 120, height: 40, unlocked: false)
        git = try #require(Git.find())
        remote = f.directory.appendingPathComponent("remote.git")
        try git.must(["init", "-q", "--bare", remote.path], in: nil, "init")
        let laptop = try Vault.open(at: f.session.vaultPath, masterPassword: "demo")
        try SyncEngine(vault: laptop, git: git).link(remote: remote.path, machineName: "laptop")
        laptop.close()
        desktop = try SyncEngine.clone(remote: remote.path, to: f.directory.appendingPathComponent("desktop/vault.db"), masterPassword: "demo",
                                       machineName: "desktop", git: git).vault
        desktop.backupPolicy = .none
    }

    func onDesktop(_ title: String, _ change: (inout Entry) -> Void) throws {
        _ = try desktop.update(try desktop.find(title).id) { entry in
            change(&entry)
            entry.modified = AppFixture.now + 60
        }
        try SyncEngine(vault: desktop, git: git).sync()
    }

    func unlock() async throws {
        f.store.send(.unlock(.unlocked(try f.session.unlock(masterPassword: "demo"))))
        await f.store.settle()
    }

    @Test func aChangeMadeOnAnotherMachineAppearsAfterUnlockAndOnS() async throws {
        try onDesktop("Mail") { $0.notes = "changed on the desktop" }
        try await unlock()
        #expect(f.state.status == "Synced: 1 change from desktop (Mail).")
        #expect(f.entry("Mail")?.notes == "changed on the desktop")
        #expect(f.state.sync.phase == .idle && f.state.sync.label == "synced")

        try onDesktop("Northwind Bank") { $0.tags = ["money"] }
        await f.press(.char("S"))
        #expect(f.state.status == "Synced: 1 change from desktop (Northwind Bank).")
        #expect(f.entry("Northwind Bank")?.tags == ["money"])
        f.golden("sync-on-s")
        await f.press(.char("S"))
        #expect(f.state.status == "Synced: up to date.")
    }

    @Test func theAppsOwnEditGoesOutByItself() async throws {
        try await unlock()
        await f.selectEntry("Mail")
        await f.press(.char("e"))
        for _ in 0..<7 { await f.press(.tab) }  // to the notes
        await f.press(.ctrl("u"))
        await f.type("edited in the app")
        await f.press(.enter)
        #expect(f.entry("Mail")?.notes == "edited in the app")
        let report = try SyncEngine(vault: desktop, git: git).sync()
        #expect(report.incoming.map(\.title) == ["Mail"])
        #expect(try desktop.find("Mail").notes == "edited in the app")
    }

    /// The desktop changes the master password and syncs: the app's next sync
    /// asks for the new one, once; a wrong one changes nothing; the right one
    /// opens the vault here with it, and the sync goes on.
    @Test func aMasterPasswordChangedOnAnotherMachineIsAskedForOnce() async throws {
        try await unlock()
        try desktop.changeMasterPassword(to: "new master", parameters: ScryptParameters(logN: 10))
        try onDesktop("Mail") { $0.notes = "after the re-key" }
        await f.press(.char("S"))
        #expect(f.state.overlayKind == .syncRekey)
        f.golden("sync-rekey")
        await f.type("not it")
        await f.press(.enter)
        #expect(f.state.rekey?.error == "That is not the new master password. Nothing was changed.")
        #expect(f.state.overlayKind == .syncRekey && f.state.rekey?.field.text == "")
        // Esc: not now; S asks again.
        await f.press(.escape)
        #expect(f.state.overlay == nil && f.state.status == "Sync waits for the new master password: S asks again.")
        #expect(f.state.sync.label == "sync needs password")
        // The periodic sync does not ask again by itself (it would, after its five minutes, were it not waiting).
        var later = f.state
        later.now = AppFixture.now + SyncUI.pullEvery * 2
        #expect(SyncReducer.onTick(&later).isNone)
        later.sync.phase = .failed
        #expect(!SyncReducer.onTick(&later).isNone)
        await f.press(.char("S"))
        #expect(f.state.overlayKind == .syncRekey)
        await f.type("new master")
        await f.press(.enter)
        #expect(f.state.overlay == nil && f.state.rekey == nil)
        #expect(f.state.banner?.text == "This vault now opens with the new master password.")
        #expect(f.state.status == "Synced: 1 change from desktop (Mail).")
        #expect(f.entry("Mail")?.notes == "after the re-key")
        #expect(f.state.sync.phase == .idle)
        // The vault here opens with the new password now, and not with the old one.
        #expect(throws: VaultError.wrongPassword) { try Vault.open(at: f.session.vaultPath, masterPassword: "demo").close() }
        try Vault.open(at: f.session.vaultPath, masterPassword: "new master").close()
    }

    /// The same field changed on both machines (the desktop's change the later one), then `S`.
    func conflictOnMail() async throws {
        try await unlock()
        let other = try Vault.open(at: f.session.vaultPath, masterPassword: "demo")
        _ = try other.update(try other.find("Mail").id) { $0.notes = "laptop's note"; $0.modified = AppFixture.now + 30 }
        other.close()
        try onDesktop("Mail") { $0.notes = "desktop's note" }
        await f.press(.char("S"))
    }

    @Test func aSameFieldConflictOpensTheDialogAndMineCanStand() async throws {
        try await conflictOnMail()
        #expect(f.state.overlayKind == .syncConflict)
        #expect(f.state.sync.conflicts.map(\.title) == ["Mail"])
        #expect(f.entry("Mail")?.notes == "desktop's note")
        #expect(f.entry("Mail")?.fields.first { $0.name == "Notes (from laptop)" }?.value == "laptop's note")
        f.golden("sync-conflict")
        await f.press(.char("m"))
        #expect(f.state.overlay == nil && f.state.sync.conflicts.isEmpty)
        #expect(f.state.banner?.text == "This machine's version of Mail stands; desktop's values are kept on it.")
        #expect(f.entry("Mail")?.notes == "laptop's note")
        #expect(f.entry("Mail")?.fields.first { $0.name == "Notes (from desktop)" }?.value == "desktop's note")
        // The choice is a change here: it went out, and the desktop takes it.
        try SyncEngine(vault: desktop, git: git).sync()
        #expect(try desktop.find("Mail").notes == "laptop's note")
        #expect(try SyncConflicts.pending(in: desktop).isEmpty)
    }

    @Test func offlineIsSaidOnceAndTriedAgainLater() async throws {
        try FileManager.default.moveItem(at: remote, to: f.directory.appendingPathComponent("gone.git"))
        try await unlock()
        #expect(f.state.sync.phase == .offline && f.state.sync.label == "offline")
        #expect(f.state.status?.hasPrefix("Offline: cannot reach \(remote.path); your changes stay here") == true)
        f.store.send(.setStatus(nil))
        f.store.send(.tick(AppFixture.now + 30))
        await f.store.settle()
        #expect(f.state.sync.lastAttempt == AppFixture.now)  // not yet
        try FileManager.default.moveItem(at: f.directory.appendingPathComponent("gone.git"), to: remote)
        f.store.send(.tick(AppFixture.now + 61))
        await f.store.settle()
        #expect(f.state.sync.phase == .idle)
    }

    @Test func lockingDropsTheConflictsVersions() async throws {
        try await conflictOnMail()
        #expect(f.state.sync.conflicts.first?.mine?.notes == "laptop's note")   // both sides, secrets and all, while the dialog is up
        f.store.send(.lock)
        await f.store.settle()
        #expect(f.state.sync == SyncUI())
    }
}
