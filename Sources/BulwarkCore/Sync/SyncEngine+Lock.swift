import Foundation
#if canImport(Glibc)
import Glibc
#endif

// One sync of a vault at a time on this machine: the app's background sync
// and a `bulwark sync` in a terminal would otherwise fetch, merge and commit
// into the same repository together. The lock is an flock on
// `VAULT.sync/lock`, which the kernel drops when its holder dies.
extension SyncEngine {
    /// Runs `body` holding the vault's sync lock, waiting up to `lockWait` for another holder to finish.
    func holdingSyncLock<T>(_ body: () throws -> T) throws -> T {
        try FileManager.default.createDirectory(at: paths.directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let path = paths.directory.appendingPathComponent("lock").path
        let fd = open(path, O_CREAT | O_RDWR | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw SyncError.git("cannot open \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }  // closing drops the lock
        let deadline = Date().addingTimeInterval(lockWait)
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR, Date() < deadline else { throw SyncError.busy }
            usleep(20_000)
        }
        return try body()
    }
}
