import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// How often bulwark copies a vault before changing its entries, and how
/// many copies it keeps (config: `backups-kept`, `backup-every-minutes`).
public struct BackupPolicy: Sendable, Equatable {
    /// How many copies are kept, oldest out first; 0 takes none.
    public var kept: Int
    /// At most one copy in this many seconds.
    public var interval: TimeInterval

    public init(kept: Int, interval: TimeInterval) {
        self.kept = kept
        self.interval = interval
    }

    public static let standard = BackupPolicy(kept: 20, interval: 60)
    public static let none = BackupPolicy(kept: 0, interval: 60)
}

/// Consistent copies of a vault, made through SQLite's online backup API
/// into `backups/` beside it (the directory 0700, each file 0600), named
/// `VAULT-FILE.ID.backup` where ID is the UTC time `YYYYMMDD-HHMMSS`.
public struct VaultBackups: Sendable {
    public struct Backup: Sendable, Equatable {
        public let id: String
        public let path: URL
        public let date: Date
        public let size: Int
    }

    public let vaultPath: URL
    public var directory: URL { vaultPath.deletingLastPathComponent().appendingPathComponent("backups") }
    private var prefix: String { vaultPath.lastPathComponent + "." }
    private static let suffix = ".backup"

    public init(vaultPath: URL) { self.vaultPath = vaultPath }

    /// Every backup of this vault, newest first.
    public func list() -> [Backup] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.compactMap { name -> Backup? in
            guard name.hasPrefix(prefix), name.hasSuffix(Self.suffix) else { return nil }
            let id = String(name.dropFirst(prefix.count).dropLast(Self.suffix.count))
            guard let date = CalendarDay.parseStamp(String(id.prefix(15))) else { return nil }
            let path = directory.appendingPathComponent(name)
            // stat, not FileManager's attributes: those look up the owner's and group's names
            // (reading /etc/passwd and /etc/group) for every file, before every write.
            var status = stat()
            let size = stat(path.path, &status) == 0 ? Int(status.st_size) : 0
            return Backup(id: id, path: path, date: date, size: size)
        }.sorted { $0.id > $1.id }
    }

    public func backup(id: String) -> Backup? { list().first { $0.id == id } }

    /// A copy of `database` now, whatever the policy says. Written under a
    /// temporary name and renamed, so a backup is whole or absent.
    @discardableResult
    public func take(from database: SQLiteDatabase, now: Date = Date()) throws -> Backup {
        let target = try reserve(now: now)
        let temporary = directory.appendingPathComponent(".\(target.lastPathComponent).tmp-\(getpid())")
        try? FileManager.default.removeItem(at: temporary)
        let fd = Glibc.open(temporary.path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw VaultError.storage("cannot create \(temporary.path): \(String(cString: strerror(errno)))") }
        Glibc.close(fd)
        do {
            try database.backup(to: temporary.path)
            guard rename(temporary.path, target.path) == 0 else { throw VaultError.storage("cannot write \(target.path)") }
        } catch {
            for suffix in ["", "-wal", "-shm", "-journal"] { unlink(temporary.path + suffix) }
            if let error = error as? VaultError { throw error }
            throw VaultError.storage("the backup failed: \(error)")
        }
        return list().first { $0.path == target } ?? Backup(id: "", path: target, date: now, size: 0)
    }

    /// Copies the files as they are, for a vault SQLite can no longer read
    /// (`restore` keeps what it replaces, even when that is damaged).
    @discardableResult
    public func takeRaw(now: Date = Date()) throws -> Backup {
        let target = try reserve(now: now)
        for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: vaultPath.path + suffix) {
            guard let data = FileManager.default.contents(atPath: vaultPath.path + suffix),
                  FileManager.default.createFile(atPath: target.path + suffix, contents: data, attributes: [.posixPermissions: 0o600]) else {
                throw VaultError.storage("cannot copy \(vaultPath.path + suffix) to \(directory.path)")
            }
        }
        return list().first { $0.path == target } ?? Backup(id: "", path: target, date: now, size: 0)
    }

    /// The directory made (0700) and a name no other backup has.
    func reserve(now: Date) throws -> URL {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch { throw VaultError.storage("cannot create \(directory.path)") }
        chmod(directory.path, 0o700)
        let stamp = CalendarDay.stamp(now)
        var id = stamp
        var n = 2
        while FileManager.default.fileExists(atPath: directory.appendingPathComponent(prefix + id + Self.suffix).path) {
            id = "\(stamp)-\(n)"
            n += 1
        }
        return directory.appendingPathComponent(prefix + id + Self.suffix)
    }

    /// Keeps the newest `kept`.
    func prune(keeping kept: Int) {
        for old in list().dropFirst(max(kept, 0)) {
            for suffix in ["", "-wal"] { try? FileManager.default.removeItem(atPath: old.path.path + suffix) }
        }
    }

    /// Whether the policy wants a copy now.
    func isDue(_ policy: BackupPolicy, now: Date) -> Bool {
        guard policy.kept > 0 else { return false }
        // Asked before every write: the newest backup's time from the names alone, no file looked at.
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        let dates = names.compactMap { name -> Date? in
            guard name.hasPrefix(prefix), name.hasSuffix(Self.suffix) else { return nil }
            return CalendarDay.parseStamp(String(name.dropFirst(prefix.count).dropLast(Self.suffix.count).prefix(15)))
        }
        guard let newest = dates.max() else { return true }
        return now.timeIntervalSince(newest) >= policy.interval || newest > now
    }

    /// The newest backup that opens with this master password (tried on a
    /// copy, so the backup itself is never touched).
    public func newestThatOpens(masterPassword: String, tries: Int = 5) -> Backup? {
        for backup in list().prefix(tries) {
            let copy = directory.appendingPathComponent(".probe-\(getpid())-\(backup.id)")
            defer { for suffix in ["", "-wal", "-shm"] { unlink(copy.path + suffix) } }
            guard (try? FileManager.default.copyItem(at: backup.path, to: copy)) != nil else { continue }
            if FileManager.default.fileExists(atPath: backup.path.path + "-wal") {
                try? FileManager.default.copyItem(atPath: backup.path.path + "-wal", toPath: copy.path + "-wal")
            }
            if let vault = try? Vault.open(at: copy, masterPassword: masterPassword) {
                vault.close()
                return backup
            }
        }
        return nil
    }
}

extension Vault {
    /// A copy before a write that changes entries, at most once per the
    /// policy's interval, and only one process at a time (the others
    /// skip when a copy is being made). A failure never stops the write.
    func takeBackupIfDue(now: Date = Date()) {
        _ = backupBeforeChange(now: now, afterCommit: false)
    }

    /// The same, before a write: the copy made ahead renamed into place
    /// (`ReadyBackup`), else, with `afterCommit` (the app), the file as it
    /// is now held for a copy the caller starts once its write is committed
    /// (`BackupAfterCommit`), else a copy made now.
    func backupBeforeChange(now: Date = Date(), afterCommit: Bool) -> BackupAfterCommit? {
        backupFailure = nil
        if let earlier = backupUnderWay {
            // A copy still being made is this interval's.
            if earlier.isUnderWay { return nil }
            backupFailure = earlier.failed
            backupUnderWay = nil
        }
        let backups = self.backups
        guard let database, backups.isDue(backupPolicy, now: now) else {
            discardReadyBackup()
            return nil
        }
        try? FileManager.default.createDirectory(at: backups.directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let lock = Glibc.open(backups.directory.appendingPathComponent(".lock").path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard lock >= 0 else {
            backupFailure = "cannot write to \(backups.directory.path)"
            return nil
        }
        guard Self.lock(lock, within: 1), backups.isDue(backupPolicy, now: now) else {
            Glibc.close(lock)
            discardReadyBackup()
            return nil
        }
        if useReadyBackup(now: now) {
            backups.prune(keeping: backupPolicy.kept)
            Glibc.close(lock)
            return nil
        }
        if afterCommit, let later = BackupAfterCommit(vaultPath: path, lock: lock, backups: backups, now: now, kept: backupPolicy.kept) {
            backupUnderWay = later
            return later
        }
        defer { Glibc.close(lock) }
        do {
            try backups.take(from: database, now: now)
            backups.prune(keeping: backupPolicy.kept)
        } catch {
            backupFailure = "\(error)"
        }
        return nil
    }

    /// Takes the lock if it comes free within `seconds`. Another process
    /// copying a big vault makes the copy it would have made (the policy
    /// is asked again once the lock is held), so waiting longer would only
    /// hold up the write. A short wait, not none: a child being spawned
    /// holds every descriptor until its exec closes them.
    private static func lock(_ fd: Int32, within seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK, Date() < deadline else { return false }
            usleep(5_000)
        }
        return true
    }

    /// A copy now, whatever the policy (before a restore).
    public func takeBackup(now: Date = Date()) throws -> VaultBackups.Backup {
        let backup = try guarded { try backups.take(from: try db(), now: now) }
        backups.prune(keeping: max(backupPolicy.kept, 1))
        return backup
    }
}
