import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The backup the next change will want, made ahead while the app is idle.
///
/// A change that finds a backup due (`BackupPolicy`) copies the whole vault
/// first: at 100,000 entries a 35 MB copy, 90 to 160 ms between the key and
/// the frame of the first change after unlock. The app makes that copy
/// when it has been idle a while, under a hidden name beside the backups;
/// the change then only renames it into place, when nothing has been
/// committed to the file since it was made (by this connection or any
/// other). Otherwise it is thrown away and the change copies as before.
/// It is thrown away too when the vault locks or closes, and a copy left by
/// a process that died is removed by the next one made.
struct ReadyBackup {
    let path: URL
    /// The file as the copy found it: SQLite's data version (other
    /// connections' commits) and this connection's count of changed rows.
    let made: FileState

    struct FileState: Equatable {
        let dataVersion: Int64
        let changes: Int64
        let counter: Int64
    }

    static let prefix = ".ready-"

    func discard() {
        for suffix in ["", "-journal", "-wal", "-shm"] { unlink(path.path + suffix) }
    }
}

extension VaultBackups {
    /// A copy of `database` under this process's hidden name, replacing one it made before.
    func takeReady(from database: SQLiteDatabase) throws -> URL {
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        removeReadyCopiesOfTheDead()
        let path = directory.appendingPathComponent("\(ReadyBackup.prefix)\(getpid())-\(vaultPath.lastPathComponent)")
        for suffix in ["", "-journal", "-wal", "-shm"] { unlink(path.path + suffix) }
        let fd = Glibc.open(path.path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw VaultError.storage("cannot create \(path.path): \(String(cString: strerror(errno)))") }
        Glibc.close(fd)
        do {
            try database.backup(to: path.path)
        } catch {
            for suffix in ["", "-journal", "-wal", "-shm"] { unlink(path.path + suffix) }
            throw error
        }
        return path
    }

    /// The copy made ahead, renamed to a backup's name as of `now`.
    func install(ready: URL, now: Date) throws -> Backup {
        let target = try reserve(now: now)
        guard rename(ready.path, target.path) == 0 else { throw VaultError.storage("cannot write \(target.path)") }
        return list().first { $0.path == target } ?? Backup(id: "", path: target, date: now, size: 0)
    }

    /// Copies made ahead by processes no longer running (killed before they
    /// could throw theirs away).
    private func removeReadyCopiesOfTheDead() {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for name in names where name.hasPrefix(ReadyBackup.prefix) {
            let pid = name.dropFirst(ReadyBackup.prefix.count).prefix { $0.isNumber }
            guard let pid = pid_t(pid), pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
            unlink(directory.appendingPathComponent(name).path)
        }
    }
}

extension Vault {
    /// The file as this connection sees it now, to tell whether anything
    /// was committed since a copy was made.
    func fileState() throws -> ReadyBackup.FileState {
        let database = try db()
        return ReadyBackup.FileState(dataVersion: try database.dataVersion(), changes: database.totalChanges, counter: counter)
    }

    /// When the next change would take a backup, takes it now (for the app,
    /// while idle): the change then only renames it. Nothing when none is
    /// due, a copy made ahead is still current, or the vault is locked. A
    /// failure is left for the change, which copies as before.
    public func prepareBackup(now: Date = Date()) {
        guard !isLocked, let database, backupUnderWay?.isUnderWay != true, backups.isDue(backupPolicy, now: now) else { return }
        if let ready = readyBackup {
            if (try? fileState()) == ready.made { return }
            ready.discard()
            readyBackup = nil
        }
        guard let before = try? fileState(), let path = try? backups.takeReady(from: database) else { return }
        let ready = ReadyBackup(path: path, made: before)
        // A commit by another process while copying: the copy may hold it or not.
        guard (try? fileState()) == before else { return ready.discard() }
        readyBackup = ready
    }

    /// The copy made ahead, as the backup a change due one takes, when the
    /// file is as it was copied; false when there is none to use (any left is thrown away).
    func useReadyBackup(now: Date) -> Bool {
        guard let ready = readyBackup else { return false }
        readyBackup = nil
        guard (try? fileState()) == ready.made, (try? backups.install(ready: ready.path, now: now)) != nil else {
            ready.discard()
            return false
        }
        return true
    }

    /// Throws away a copy made ahead (the vault locks or closes, or no backup is due).
    func discardReadyBackup() {
        readyBackup?.discard()
        readyBackup = nil
    }
}
