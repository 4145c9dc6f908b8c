import Foundation
import Testing
@testable import BulwarkCore
#if canImport(Glibc)
import Glibc
#endif

/// The backup a change will want, made ahead while the app is idle: the
/// change renames it into place when the file is as it was copied, and
/// copies afresh when anything was committed since.
@Suite struct ReadyBackupTests {
    let dir = TemporaryDirectory()
    var path: URL { dir.file("vault.db") }
    /// A minute after the backup the first save took: another is due.
    let later = Date().addingTimeInterval(61)

    func readyCopies(_ vault: Vault) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: vault.backups.directory.path)) ?? []).filter { $0.hasPrefix(".ready-") }
    }

    /// The copy made ahead, marked (its time set far back) so that the
    /// file a change installs can be told to be it: a rename keeps the
    /// time, a fresh copy has now's. (Not its inode: a file deleted and
    /// another made often gets the same.)
    func markReadyCopy(_ vault: Vault) throws {
        let name = try #require(readyCopies(vault).first)
        var times = [timespec(tv_sec: 1_000_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000_000, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, vault.backups.directory.appendingPathComponent(name).path, &times, 0) == 0)
    }

    func isTheReadyCopy(_ backup: VaultBackups.Backup) -> Bool {
        var status = stat()
        return stat(backup.path.path, &status) == 0 && status.st_mtim.tv_sec == 1_000_000_000
    }

    func rows(_ backup: VaultBackups.Backup) throws -> Int64? {
        let database = try SQLiteDatabase(path: backup.path.path, create: false)
        defer { database.close() }
        return try database.query("SELECT count(*) FROM entries").first?.first?.integer
    }

    @Test func theChangeTakesTheCopyMadeAheadByRenamingIt() throws {
        let vault = try Vault.create(at: path, masterPassword: "m", parameters: testParameters)
        try vault.save(Entry(title: "Alpha"))
        #expect(vault.backups.list().count == 1)
        vault.prepareBackup(now: later)
        #expect(readyCopies(vault) == [".ready-\(getpid())-vault.db"])
        #expect(vault.backups.list().count == 1)  // not a backup until a change takes it
        try markReadyCopy(vault)
        vault.prepareBackup(now: later)  // still current: not copied again

        vault.takeBackupIfDue(now: later)
        let newest = try #require(vault.backups.list().first)
        #expect(vault.backups.list().count == 2 && isTheReadyCopy(newest))
        #expect(readyCopies(vault).isEmpty && vault.backupFailure == nil)
        #expect(try rows(newest) == 1)
        let opened = try Vault.open(at: newest.path, masterPassword: "m")
        #expect(opened.entries.map(\.title) == ["Alpha"])
        opened.close()
    }

    @Test func aCommitByAnotherProcessSinceMakesAFreshCopy() throws {
        let vault = try Vault.create(at: path, masterPassword: "m", parameters: testParameters)
        try vault.save(Entry(title: "Alpha"))
        vault.prepareBackup(now: later)
        try markReadyCopy(vault)
        let other = try Vault.open(at: path, masterPassword: "m")
        other.backupPolicy = .none
        try other.save(Entry(title: "Beta"))
        other.close()

        vault.takeBackupIfDue(now: later)
        let newest = try #require(vault.backups.list().first)
        #expect(!isTheReadyCopy(newest) && readyCopies(vault).isEmpty)
        #expect(try rows(newest) == 2)
    }

    @Test func aCommitOfItsOwnSinceMakesAFreshCopy() throws {
        let vault = try Vault.create(at: path, masterPassword: "m", parameters: testParameters)
        try vault.save(Entry(title: "Alpha"))
        vault.prepareBackup(now: later)
        try markReadyCopy(vault)
        try vault.setNote("n", "notes are not entries, and take no backup")
        #expect(!readyCopies(vault).isEmpty)

        vault.takeBackupIfDue(now: later)
        let newest = try #require(vault.backups.list().first)
        #expect(!isTheReadyCopy(newest) && readyCopies(vault).isEmpty)
        let database = try SQLiteDatabase(path: newest.path.path, create: false)
        defer { database.close() }
        #expect(try database.query("SELECT count(*) FROM meta WHERE key = 'note:n'").first?.first?.integer == 1)
    }

    @Test func nothingIsCopiedAheadWhenNoBackupIsDueAndTheCopyGoesWithTheKey() throws {
        let vault = try Vault.create(at: path, masterPassword: "m", parameters: testParameters)
        try vault.save(Entry(title: "Alpha"))
        vault.prepareBackup()
        #expect(readyCopies(vault).isEmpty)
        vault.backupPolicy = .none
        vault.prepareBackup(now: later)
        #expect(readyCopies(vault).isEmpty)

        vault.backupPolicy = .standard
        vault.prepareBackup(now: later)
        #expect(readyCopies(vault).count == 1)
        vault.lock()
        #expect(readyCopies(vault).isEmpty)
        vault.prepareBackup(now: later)
        #expect(readyCopies(vault).isEmpty)
    }

    /// A process killed with a copy made ahead leaves it; the next copy made
    /// removes it (and leaves a live process's alone).
    @Test func aCopyLeftByADeadProcessIsRemoved() throws {
        let vault = try Vault.create(at: path, masterPassword: "m", parameters: testParameters)
        try vault.save(Entry(title: "Alpha"))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        let gone = try Spawn.start("/bin/true", ["true"], environment: [:], actions: &actions)
        #expect(Spawn.wait(gone) == 0)
        let directory = vault.backups.directory
        let dead = directory.appendingPathComponent(".ready-\(gone)-vault.db")
        let living = directory.appendingPathComponent(".ready-1-vault.db")
        for file in [dead, living] { #expect(FileManager.default.createFile(atPath: file.path, contents: Data("x".utf8))) }
        vault.prepareBackup(now: later)
        #expect(readyCopies(vault).sorted() == [".ready-\(getpid())-vault.db", ".ready-1-vault.db"].sorted())
    }
}
