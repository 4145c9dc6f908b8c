import Foundation
import Testing
@testable import BulwarkCore

/// The app's backups: copied in the background once a change is
/// committed, of the file as it was before the change.
@Suite struct BackupAfterCommitTests {
    let dir = TemporaryDirectory()
    var path: URL { dir.file("vault.db") }

    func rows(_ backup: VaultBackups.Backup) throws -> [String] {
        let opened = try Vault.open(at: backup.path, masterPassword: "m")
        defer { opened.close() }
        return opened.entries.map(\.title)
    }

    @Test func theCopyIsOfTheFileBeforeTheChange() throws {
        let vault = try Vault.create(at: path, masterPassword: "m", parameters: testParameters)
        vault.backupsAfterCommit = true
        try vault.save(Entry(title: "Alpha"))
        let first = try #require(vault.backupUnderWay)
        first.wait()
        #expect(first.failed == nil)
        #expect(try vault.backups.list().map(rows) == [[]])

        try vault.save(Entry(title: "Beta"))  // within the minute: none due
        #expect(vault.backupUnderWay == nil && vault.backups.list().count == 1)
    }

    /// The copy starts after the change: it holds what the file held when
    /// the change began, not the change nor any made while it waited.
    @Test func changesCommittedBeforeTheCopyStartsAreNotInIt() throws {
        let vault = try Vault.create(at: path, masterPassword: "m", parameters: testParameters)
        try vault.save(Entry(title: "Alpha"))
        let later = try #require(vault.backupBeforeChange(now: Date().addingTimeInterval(61), afterCommit: true))
        #expect(later.isUnderWay)
        try vault.save(Entry(title: "Beta"))  // the copy under way is this interval's: none taken now
        let other = try Vault.open(at: path, masterPassword: "m")
        other.backupPolicy = .none
        try other.save(Entry(title: "Gamma"))
        other.close()
        later.start()
        later.wait()
        #expect(vault.backups.list().count == 2)
        #expect(try rows(try #require(vault.backups.list().first)) == ["Alpha"])
        #expect(vault.backupFailure == nil)
    }

    @Test func aCopyMadeAheadIsTakenFirst() throws {
        let vault = try Vault.create(at: path, masterPassword: "m", parameters: testParameters)
        try vault.save(Entry(title: "Alpha"))
        let later = Date().addingTimeInterval(61)
        vault.prepareBackup(now: later)
        #expect(vault.backupBeforeChange(now: later, afterCommit: true) == nil)
        #expect(vault.backups.list().count == 2)
        #expect(try rows(try #require(vault.backups.list().first)) == ["Alpha"])
    }

    @Test func closingAndTheProcessEndingWaitForTheCopy() throws {
        let vault = try Vault.create(at: path, masterPassword: "m", parameters: testParameters)
        vault.backupsAfterCommit = true
        try vault.save(Entry(title: "Alpha"))
        vault.close()
        #expect(vault.backups.list().count == 1)

        let second = dir.file("second.db")
        let other = try Vault.create(at: second, masterPassword: "m", parameters: testParameters)
        other.backupsAfterCommit = true
        try other.save(Entry(title: "Alpha"))
        Vault.finishBackups()
        #expect(other.backupUnderWay?.isUnderWay == false && other.backups.list().count == 1)
    }
}
