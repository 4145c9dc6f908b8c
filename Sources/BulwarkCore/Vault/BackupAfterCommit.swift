import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A backup of the file as it was before a change, copied once the change
/// is committed, for the app (`Vault.backupsAfterCommit`).
///
/// A change that finds a backup due copies the whole vault first: at
/// 100,000 entries 35 MB, some 130 ms between the key and the frame, once
/// a minute of steady editing (the first change after a pause takes the
/// copy made ahead, `ReadyBackup`). Instead, a second connection opens a
/// read transaction before the change: SQLite keeps showing it the file as
/// it was (its log is not folded past a reader), and SQLite's backup,
/// made from that connection in the background after the commit, copies
/// that. The change shows at once; the copy is the one it would have been.
/// The process waits for copies under way before it ends (`waitForAll`).
final class BackupAfterCommit: @unchecked Sendable {
    private let reader: SQLiteDatabase
    private let lock: Int32
    private let backups: VaultBackups
    private let now: Date
    private let kept: Int
    private let done = DispatchSemaphore(value: 0)
    /// Why the copy failed; read only once it is done.
    private var failure: String?

    private static let underWay = DispatchGroup()

    /// The file as it is now, held by a read transaction of its own; nil
    /// when it cannot be (the change then copies first, as without this).
    /// Takes over `lock`, the backups' lock, held until the copy is made.
    init?(vaultPath: URL, lock: Int32, backups: VaultBackups, now: Date, kept: Int) {
        guard let reader = try? SQLiteDatabase(path: vaultPath.path, create: false, readOnly: true) else { return nil }
        do {
            try reader.execute("BEGIN DEFERRED")
            // The first read starts the transaction: from here on it sees the file as it is now.
            _ = try reader.query("SELECT count(*) FROM meta")
        } catch {
            reader.close()
            return nil
        }
        (self.reader, self.lock, self.backups, self.now, self.kept) = (reader, lock, backups, now, kept)
    }

    /// Copies in the background, then lets the lock go.
    func start() {
        Self.underWay.enter()
        DispatchQueue.global(qos: .utility).async { [self] in
            do {
                try backups.take(from: reader, now: now)
                backups.prune(keeping: kept)
            } catch {
                failure = "\(error)"
            }
            reader.close()
            Glibc.close(lock)
            done.signal()
            Self.underWay.leave()
        }
    }

    /// Whether the copy is still being made.
    var isUnderWay: Bool {
        guard done.wait(timeout: .now()) == .success else { return true }
        done.signal()
        return false
    }

    /// Why the copy failed, once it is made; nil while under way or when it did not.
    var failed: String? { isUnderWay ? nil : failure }

    /// Waits until the copy is made.
    func wait() {
        done.wait()
        done.signal()
    }

    /// Waits for every copy under way in this process (before it ends).
    static func waitForAll() {
        underWay.wait()
    }
}

extension Vault {
    /// Waits for the backups being copied after changes (`backupsAfterCommit`):
    /// asked before the process ends, so that none is left half made.
    public static func finishBackups() {
        BackupAfterCommit.waitForAll()
    }
}
