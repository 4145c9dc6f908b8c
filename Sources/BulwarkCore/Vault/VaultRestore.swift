import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension VaultBackups {
    /// Puts a backup back in the vault's place. The backup is first opened
    /// (on a copy) with the master password, so a backup that does not
    /// open is never installed; the vault as it is now is backed up first,
    /// even when damaged (its files copied as they are). The backup goes in
    /// through SQLite's backup API, so other processes that hold the vault
    /// open see an ordinary commit; a file SQLite cannot open is replaced
    /// by renaming. The restored vault's counter then moves past the
    /// highest this machine saw, so it does not read as a rollback.
    public func restore(_ backup: Backup, masterPassword: String, freshness: FreshnessRecord? = nil,
                        now: Date = Date()) throws -> (vault: Vault, saved: Backup) {
        let directory = vaultPath.deletingLastPathComponent()
        let staged = directory.appendingPathComponent(".\(vaultPath.lastPathComponent).restore-\(getpid())")
        defer { for suffix in ["", "-wal", "-shm"] { unlink(staged.path + suffix) } }
        for suffix in ["", "-wal", "-shm"] { unlink(staged.path + suffix) }
        do {
            try FileManager.default.copyItem(at: backup.path, to: staged)
            if FileManager.default.fileExists(atPath: backup.path.path + "-wal") {
                try FileManager.default.copyItem(atPath: backup.path.path + "-wal", toPath: staged.path + "-wal")
            }
        } catch { throw VaultError.storage("cannot copy the backup \(backup.id): \(error)") }
        chmod(staged.path, 0o600)
        // Opening checks the password and the backup whole, and checkpoints it into one file.
        try Vault.open(at: staged, masterPassword: masterPassword).close()

        let saved: Backup
        if let live = try? SQLiteDatabase(path: vaultPath.path, create: false), (try? live.query("PRAGMA quick_check").first?.first?.text) == "ok" {
            defer { live.close() }
            saved = try take(from: live, now: now)
            do { try live.restore(from: staged.path) } catch { throw VaultError.storage("cannot write the vault: \(error)") }
        } else {
            saved = try takeRaw(now: now)
            for suffix in ["-wal", "-shm"] { unlink(vaultPath.path + suffix) }
            guard rename(staged.path, vaultPath.path) == 0 else { throw VaultError.storage("cannot replace \(vaultPath.path)") }
        }
        let vault = try Vault.open(at: vaultPath, masterPassword: masterPassword, freshness: freshness)
        if vault.rollback != nil { try vault.write(changesEntries: false) { ([], []) } }
        return (vault, saved)
    }
}
