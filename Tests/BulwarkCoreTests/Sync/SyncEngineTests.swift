import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import BulwarkCore

/// Two machines on one bare remote, through the system's git.
@Suite struct SyncEngineTests {
    typealias F = SyncFixture

    @Test func aCloneHoldsTheSameEntriesAndChangesFlowBothWays() throws {
        let f = try SyncFixture()
        let laptop = try f.first(entries: [F.entry("Mail"), F.entry("Bank")])
        let desktop = try f.clone("desktop")
        #expect(desktop.titles() == ["Bank", "Mail"])
        #expect(desktop.entry("Mail") == laptop.entry("Mail"))

        try F.edit(laptop, "Mail", at: 10) { $0.notes = "from the laptop" }
        try laptop.vault.save(F.entry("Forum", at: 11))
        let out = try laptop.sync()
        #expect(out.outgoing.sorted() == ["Forum", "Mail"])
        #expect(out.incoming.isEmpty)
        let into = try desktop.sync()
        #expect(into.incoming.map(\.title).sorted() == ["Forum", "Mail"])
        #expect(into.incoming.map(\.from) == ["laptop", "laptop"])
        #expect(into.incomingSummary.hasPrefix("2 changes from laptop ("))
        #expect(desktop.entry("Mail")?.notes == "from the laptop")
        #expect(desktop.titles() == ["Bank", "Forum", "Mail"])
        #expect(try desktop.sync() == SyncEngine.Report())
        #expect(try laptop.sync() == SyncEngine.Report())
    }

    @Test func aSameFieldConflictKeepsBothValuesAndIsReported() throws {
        let f = try SyncFixture()
        let laptop = try f.first(entries: [F.entry("Bank", password: "bank-1")])
        let desktop = try f.clone("desktop")
        try F.edit(laptop, "Bank", at: 10) { $0.changePassword(to: "bank-laptop", reason: "changed", at: F.t0 + 10) }
        try F.edit(desktop, "Bank", at: 20) { $0.changePassword(to: "bank-desktop", reason: "changed", at: F.t0 + 20) }
        try laptop.sync()
        let report = try desktop.sync()
        #expect(report.conflicts.map(\.title) == ["Bank"])
        #expect(report.conflicts.first?.kept == "the change made on desktop was kept; laptop's password is in its history")
        try laptop.sync()
        for machine in [laptop, desktop] {
            let bank = try #require(machine.entry("Bank"))
            #expect(bank.password == "bank-desktop")
            #expect(Set(bank.history.map(\.password)) == ["bank-1", "bank-laptop"])
        }
        #expect(laptop.entry("Bank") == desktop.entry("Bank"))
        #expect(try SyncState.load(for: desktop.vault)?.conflicts.map(\.title) == ["Bank"])
    }

    @Test func anEditAgainstADeleteKeepsTheEditAndDeletionsDoNotComeBack() throws {
        let f = try SyncFixture()
        let laptop = try f.first(entries: [F.entry("Forum"), F.entry("Old")])
        let desktop = try f.clone("desktop")
        try laptop.vault.remove(id: try #require(laptop.entry("Forum")).id)
        try F.edit(desktop, "Forum", at: 30) { $0.notes = "still used" }
        try desktop.vault.remove(id: try #require(desktop.entry("Old")).id)
        #expect(try laptop.sync().outgoing == ["Forum (deleted)"])
        let report = try desktop.sync()
        #expect(report.editsKeptOverDeletes == ["Forum: deleted on laptop and changed here; the change was kept"])
        try laptop.sync()
        #expect(laptop.titles() == ["Forum"] && desktop.titles() == ["Forum"])
        #expect(laptop.entry("Forum")?.notes == "still used")
        // An old machine that never heard of the deletion cannot bring "Old" back.
        let third = try f.clone("third")
        #expect(third.titles() == ["Forum"])
        try laptop.sync()
        #expect(laptop.titles() == ["Forum"])
    }

    /// The remote as the machine's repository holds it after its last sync.
    static func remoteTree(_ f: SyncFixture, _ machine: SyncFixture.Machine) throws -> SyncRepository.Tree {
        let repository = f.dir.file("\(machine.name)/vault.db.sync/repo.git")
        let files = try GitSnapshot(git: f.git, repository: repository, commit: "refs/heads/main")
        return try SyncRepository(files: files, sealer: SyncSealer(vault: machine.vault)).read()
    }

    @Test func aTombstoneGoesOnceEveryMachineHasSeenItAndAMachineAwayStillTakesTheDeletion() throws {
        let f = try SyncFixture()
        let laptop = try f.first(entries: [F.entry("Mail"), F.entry("Old")])
        let desktop = try f.clone("desktop")
        let away = try f.clone("away")          // and then away for months
        let old = try #require(laptop.entry("Old")).id
        try laptop.vault.remove(id: old)
        try laptop.sync()
        #expect(try Self.remoteTree(f, laptop).records[old]?.isTombstone == true)
        try F.edit(laptop, "Mail", at: 20) { $0.notes = "a change that writes the remote" }
        try laptop.sync()
        #expect(try Self.remoteTree(f, laptop).records[old]?.isTombstone == true)   // the desktop has not seen it yet
        #expect(try desktop.sync().incoming.map(\.title) == ["Mail", "Old (deleted)"])  // and says it has, in its push
        try F.edit(laptop, "Mail", at: 30) { $0.notes = "another change" }
        try laptop.sync()
        #expect(try Self.remoteTree(f, laptop).records[old]?.isTombstone == true)   // the machine away has not seen it
        // Ninety days on, the tombstone goes even so.
        try F.edit(laptop, "Mail", at: 40) { $0.notes = "months later" }
        try SyncEngine(vault: laptop.vault, git: f.git, clock: { Date().addingTimeInterval(91 * 86_400) }).sync()
        let tree = try Self.remoteTree(f, laptop)
        #expect(tree.records[old] == nil)
        #expect(tree.collected > 0)
        #expect(try desktop.sync().incoming.map(\.title) == ["Mail"])
        var state = try #require(try SyncState.load(for: desktop.vault))
        #expect(try state.known.known(old) == nil)
        // The machine that was away took in a deletion whose tombstone it never saw.
        let report = try away.sync()
        #expect(report.incoming.map(\.title) == ["Mail", "Old (deleted)"])
        #expect(away.titles() == ["Mail"] && laptop.titles() == ["Mail"] && desktop.titles() == ["Mail"])
    }

    /// The state a sync saves last: a kill after its push loses it. The
    /// machine's next change must not take a change number it already pushed
    /// (the remote would hold two values under one vector, and a merge would
    /// throw the newer away: the three-machine test found it).
    @Test func aSyncKilledAfterItsPushNeverLetsALaterChangeReuseItsNumber() throws {
        let f = try SyncFixture()
        let laptop = try f.first(entries: [F.entry("Bank", password: "bank-1")])
        let desktop = try f.clone("desktop")
        let statePath = f.dir.file("desktop/vault.db.sync/state")
        let before = try Data(contentsOf: statePath)
        try F.edit(desktop, "Bank", at: 10) { $0.notes = "first change" }
        try desktop.sync()
        try before.write(to: statePath)   // as if killed after the push, before the state was saved
        try F.edit(laptop, "Bank", at: 20) { $0.notes = "the laptop's" }
        try laptop.sync()
        try F.edit(desktop, "Bank", at: 30) { $0.changePassword(to: "bank-desktop", reason: "changed", at: F.t0 + 30) }
        try desktop.sync()
        try laptop.sync()
        for machine in [laptop, desktop] {
            let bank = try #require(machine.entry("Bank"))
            #expect(bank.password == "bank-desktop", "\(machine.name)")
            #expect(bank.history.map(\.password) == ["bank-1"])
        }
    }

    /// A change kept against one delete is a copy of content a later delete
    /// had seen: that delete wins (the three-machine test saw the entry come back).
    @Test func aDeleteThatSawTheChangeWinsOverACopyOfIt() throws {
        let f = try SyncFixture()
        let laptop = try f.first(entries: [F.entry("Forum")])
        let desktop = try f.clone("desktop"), phone = try f.clone("phone")
        try F.edit(desktop, "Forum", at: 10) { $0.notes = "the desktop's change" }
        try desktop.sync()
        try phone.vault.remove(id: try #require(phone.entry("Forum")).id)   // not having seen the change
        try laptop.sync()
        try laptop.vault.remove(id: try #require(laptop.entry("Forum")).id) // having seen it
        #expect(try phone.sync().editsKeptOverDeletes == ["Forum: deleted here and changed on desktop; the change was kept"])
        try laptop.sync()
        for machine in [phone, desktop, laptop, phone] { try machine.sync() }
        #expect(laptop.titles() == [] && desktop.titles() == [] && phone.titles() == [])
    }

    @Test func aPushRaceIsRetriedFromTheFetch() throws {
        let f = try SyncFixture()
        let laptop = try f.first(entries: [F.entry("Mail")])
        let desktop = try f.clone("desktop")
        try laptop.vault.save(F.entry("Laptop's", at: 5))
        try desktop.vault.save(F.entry("Desktop's", at: 6))
        // The laptop pushes between the desktop's fetch and its push: git refuses it, and the sync starts again from a fetch.
        var pushes = 0
        desktop.engine.beforePush = {
            pushes += 1
            if pushes == 1 { try laptop.sync() }
        }
        let report = try desktop.sync()
        #expect(pushes == 2)
        #expect(report.incoming.map(\.title) == ["Laptop's"])
        try laptop.sync()
        #expect(laptop.titles() == desktop.titles())
        #expect(laptop.titles() == ["Desktop's", "Laptop's", "Mail"])
    }

    /// One sync of a vault at a time on a machine: while another holds the
    /// vault's sync lock (the app's background sync, say), a sync waits for
    /// it, and past its wait says so and changes nothing; the lock gone, it runs.
    @Test func aSecondSyncOfTheSameVaultWaitsForTheFirst() throws {
        let f = try SyncFixture()
        let laptop = try f.first(entries: [F.entry("Mail")])
        try F.edit(laptop, "Mail", at: 10) { $0.notes = "waiting" }
        let lock = open(laptop.vault.path.path + ".sync/lock", O_RDWR | O_CLOEXEC)
        // A blocking flock: taken the moment it is free (a child another test spawned may hold a copy of the link's descriptor for a moment).
        #expect(lock >= 0 && flock(lock, LOCK_EX) == 0)
        let stateBefore = try SyncState.load(for: laptop.vault)
        laptop.engine.lockWait = 0
        #expect(throws: SyncError.busy) { try laptop.sync() }
        #expect(try SyncState.load(for: laptop.vault) == stateBefore)
        close(lock)
        laptop.engine.lockWait = 30
        #expect(try laptop.sync().outgoing == ["Mail"])
    }

    @Test func aMasterPasswordChangedOnOneMachineReachesTheOthers() throws {
        let f = try SyncFixture()
        let laptop = try f.first(entries: [F.entry("Mail"), F.entry("Bank")])
        let desktop = try f.clone("desktop")
        let oldKey = laptop.vault.key
        try laptop.vault.changeMasterPassword(to: "new master")
        try F.edit(laptop, "Mail", at: 10) { $0.notes = "after the re-key" }
        try F.edit(desktop, "Bank", at: 11) { $0.notes = "on the desktop meanwhile" }
        try desktop.sync()   // still the old key: the laptop has not pushed its re-key yet
        let rewrite = try laptop.sync()
        #expect(rewrite.incoming.map(\.title) == ["Bank"])
        // The repository is sealed under the new key alone now: the old one opens nothing of it.
        let root = try #require(try GitSnapshot(git: f.git, repository: f.dir.file("laptop/vault.db.sync/repo.git"), commit: "refs/heads/main")
            .bytes("manifest/root"))
        #expect((try? SyncSealer(vaultID: laptop.vault.vaultID, key: oldKey).openManifest(Array(root), name: "root")) == nil)
        #expect(throws: SyncError.rekeyed) { try desktop.sync() }
        #expect(throws: VaultError.wrongPassword) { try desktop.engine.followRekey(masterPassword: "master") }
        try desktop.engine.followRekey(masterPassword: "new master")
        let report = try desktop.sync()
        #expect(report.incoming.map(\.title) == ["Mail"])
        #expect(desktop.entry("Mail")?.notes == "after the re-key" && desktop.entry("Bank")?.notes == "on the desktop meanwhile")
        desktop.vault.close()
        #expect(throws: VaultError.wrongPassword) { try Vault.open(at: f.dir.file("desktop/vault.db"), masterPassword: "master") }
        #expect(try Vault.open(at: f.dir.file("desktop/vault.db"), masterPassword: "new master").entries.count == 2)
        #expect(try laptop.sync() == SyncEngine.Report())
    }

    @Test func theRemoteLearnsNoTitleUserNameURLOrPassword() throws {
        let f = try SyncFixture()
        var secret = F.entry("Zebra Bank", password: "correct horse battery staple")
        secret.notes = "PIN 8842"
        secret.username = "zebra.user@example.com"
        let laptop = try f.first(entries: [secret])
        try F.edit(laptop, "Zebra Bank", at: 40) { $0.tags = ["finance-tag"] }
        try laptop.sync()
        let objects = try f.git.run(["cat-file", "--batch-all-objects", "--batch"], in: f.remote)
        let log = try f.git.must(["log", "--all", "--format=%an %ae %s %b"], in: f.remote, "log")
        let refs = try f.git.must(["for-each-ref", "--format=%(refname)"], in: f.remote, "refs")
        for needle in ["Zebra", "zebra", "correct horse", "PIN 8842", "finance-tag", "example.com", "jane"] {
            #expect(objects.data.range(of: Data(needle.utf8)) == nil, "\(needle) in an object")
            #expect(!log.contains(needle) && !refs.contains(needle))
        }
        #expect(log.split(separator: "\n").allSatisfy { $0.hasPrefix("bulwark ") && $0.contains("@bulwark.invalid sync") })
        #expect(refs == "refs/heads/main\n")
    }
}
