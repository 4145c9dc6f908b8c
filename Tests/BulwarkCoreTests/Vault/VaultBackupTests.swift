import Foundation
import Testing
@testable import BulwarkCore

/// Backups taken before changes, listed, pruned and restored; damage
/// inspected and what decrypts recovered.
@Suite struct VaultBackupTests {
    let dir = TemporaryDirectory()
    var path: URL { dir.file("vault.db") }

    @Test func aBackupIsTakenBeforeAChangeAtMostOncePerInterval() throws {
        let vault = try Vault.create(at: path, masterPassword: "m", parameters: testParameters)
        try vault.save(Entry(title: "Alpha"))
        try vault.save(Entry(title: "Beta"))
        try vault.setNote("n", "notes are not entries")
        let backups = vault.backups
        #expect(backups.list().count == 1)  // before Alpha; Beta came within the minute
        let first = try #require(backups.list().first)
        #expect(try SQLiteDatabase(path: first.path.path, create: false).query("SELECT count(*) FROM entries").first?.first?.integer == 0)

        vault.takeBackupIfDue(now: Date().addingTimeInterval(61))
        #expect(backups.list().count == 2)
        vault.takeBackupIfDue(now: Date().addingTimeInterval(62))
        #expect(backups.list().count == 2)

        let modes = { (path: String) in (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? 0 }
        #expect(try modes(backups.directory.path) == 0o700)
        for backup in backups.list() { #expect(try modes(backup.path.path) == 0o600) }
        #expect(backups.list().map(\.id) == backups.list().map(\.id).sorted(by: >))
    }

    @Test func onlyTheNewestAreKept() throws {
        let vault = try Vault.create(at: path, masterPassword: "m", parameters: testParameters)
        vault.backupPolicy = BackupPolicy(kept: 3, interval: 60)
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        for minute in 0..<6 { vault.takeBackupIfDue(now: start.addingTimeInterval(Double(minute) * 60)) }
        #expect(vault.backups.list().map(\.id) == ["20270115-080500", "20270115-080400", "20270115-080300"])
        vault.backupPolicy = .none
        vault.takeBackupIfDue(now: start.addingTimeInterval(3600))
        #expect(vault.backups.list().count == 3)
    }

    /// A child process started while a backup holds its lock must not
    /// inherit the lock: flock belongs to the open file, so a child still
    /// running (a clipboard tool serving its selection, another test's
    /// process) would hold it and every later backup would be skipped.
    /// (Found in CI: one backup of six, with other tests spawning.)
    @Test func processesStartedMeanwhileDoNotHoldTheLock() throws {
        let vault = try Vault.create(at: path, masterPassword: "m", parameters: testParameters)
        vault.backupPolicy = BackupPolicy(kept: 100, interval: 60)
        let stop = LockedFlag()
        let spawner = Thread {
            // posix_spawn as it is, closing nothing (Foundation's Process
            // closes the parent's descriptors; a tool runner may not).
            var argv: [UnsafeMutablePointer<CChar>?] = [strdup("sleep"), strdup("3"), nil]
            defer { argv.forEach { free($0) } }
            while !stop.value {
                var pid: pid_t = 0
                if posix_spawn(&pid, "/bin/sleep", nil, nil, &argv, environ) == 0 { Self.reap(pid) }
                usleep(10_000)
            }
        }
        spawner.start()
        defer { stop.set() }
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        for minute in 0..<40 {
            vault.takeBackupIfDue(now: start.addingTimeInterval(Double(minute) * 60))
            usleep(5_000)
        }
        #expect(vault.backups.list().count == 40)
    }

    /// Waits for a child on another thread, so the spawner goes on.
    private static func reap(_ pid: pid_t) {
        Thread { var status: Int32 = 0; _ = waitpid(pid, &status, 0) }.start()
    }

    @Test func aRestoreBringsBackTheBackupAndKeepsWhatItReplaced() throws {
        let record = FreshnessRecord(directory: dir.file("state"))
        let vault = try Vault.create(at: path, masterPassword: "m", parameters: testParameters, freshness: record)
        try vault.save(Entry(title: "Alpha"))
        vault.takeBackupIfDue(now: Date().addingTimeInterval(120))
        try vault.save(Entry(title: "Beta"))
        let other = try Vault.open(at: path, masterPassword: "m")  // another process with the vault open
        let backups = vault.backups
        let wanted = try #require(backups.list().first)
        let kept = backups.list()
        vault.close()

        #expect(throws: VaultError.wrongPassword) { try backups.restore(wanted, masterPassword: "not it", freshness: record) }
        #expect(backups.list() == kept)  // a refused restore changes nothing

        let (restored, saved) = try backups.restore(wanted, masterPassword: "m", freshness: record, now: Date().addingTimeInterval(180))
        #expect(restored.entries.map(\.title) == ["Alpha"])
        #expect(restored.rollback == nil && restored.counter == 4)  // moved past the 3 this machine saw
        #expect(try Vault.open(at: path, masterPassword: "m", freshness: record).rollback == nil)
        #expect(try Vault.open(at: saved.path, masterPassword: "m").entries.map(\.title) == ["Alpha", "Beta"])
        // The process that had it open sees the restore as a change.
        let changes = try #require(try other.refresh())
        #expect(changes.removed.map(\.title) == ["Beta"] && other.entries.map(\.title) == ["Alpha"])
    }

    @Test func inspectionListsEveryProblemAndRecoverSavesTheRest() throws {
        let vault = try Vault.create(at: path, masterPassword: "m", parameters: testParameters)
        vault.backupPolicy = .none
        try vault.save([Entry(title: "Alpha", password: "a"), Entry(title: "Beta", password: "b"), Entry(title: "Gamma", password: "g")])
        let beta = try vault.find("Beta").id
        vault.close()
        #expect(try VaultInspection.inspect(at: path, masterPassword: "m").problems.isEmpty)
        #expect(throws: VaultError.wrongPassword) { try VaultInspection.inspect(at: path, masterPassword: "x") }

        let database = try SQLiteDatabase(path: path.path, create: false)
        var box = try #require(try database.query("SELECT sealed FROM entries WHERE id = ?", [.text(beta)]).first?.first?.blob)
        box[20] ^= 1
        try database.query("UPDATE entries SET sealed = ? WHERE id = ?", [.blob(box), .text(beta)])
        try database.query("UPDATE entries SET version = 9 WHERE id <> ?", [.text(beta)])
        let report = try VaultInspection.inspect(at: path, masterPassword: "m")
        #expect(report.unreadable.count == 3 && report.rowCount == 3 && report.counter == 2)
        #expect(report.problems.contains(.rowUnreadable(id: beta)))
        #expect(report.problems.filter { if case .rowNewerThanIndex = $0 { true } else { false } }.count == 2)
        #expect(report.entries.isEmpty)  // versions moved: their boxes no longer open either

        try database.query("UPDATE entries SET version = 2 WHERE id <> ?", [.text(beta)])
        let fixed = try VaultInspection.inspect(at: path, masterPassword: "m")
        #expect(fixed.problems == [.rowUnreadable(id: beta)])  // the index lists (id, version): the box's own tag caught this
        let recovered = try fixed.recover(to: dir.file("recovered.db"), masterPassword: "m", from: path).vault
        #expect(recovered.entries.map(\.title) == ["Alpha", "Gamma"])
        #expect(try Vault.open(at: dir.file("recovered.db"), masterPassword: "m").entries.map(\.password) == ["a", "g"])
    }
}
