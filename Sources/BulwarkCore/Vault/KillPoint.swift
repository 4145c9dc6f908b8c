import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Named moments where the crash tests kill the process: an upgrade's
/// steps, and each step of a vault write (inside its transaction). Every
/// build honours `BULWARK_KILL_AT=NAME`, the one `make test` runs being the
/// one that is installed: it can only end the process, which whoever sets
/// its environment can do anyway, and the tests show that nothing is lost
/// at any of these points. Unset, a point costs one comparison with nil.
public enum KillPoint {
    public static let all = ["staged", "backend-authorised", "backend-committed", "apple-credential-kept", "linked", "passkey-staged", "passkey-registered", "settled"]
    /// A vault write's steps, in order: the other writers' rows read, the
    /// plan made, the rows written, the deletions, the index sealed (the
    /// commit follows).
    public static let write = ["write-synced", "write-planned", "write-rows", "write-deleted", "write-indexed"]
    /// A sync's steps: the remote fetched and checked, merged into the
    /// vault, committed, pushed, recorded as synced (this machine's state follows).
    public static let sync = ["sync-fetched", "sync-merged", "sync-committed", "sync-pushed", "sync-recorded"]

    /// `NAME` kills at the first time the point is reached, `NAME#N` at the
    /// Nth (a change that wrote twice reached `write-rows` twice).
    public static func reach(_ name: String) {
        guard let target, target.name == name else { return }
        if timesReached.wrappingAdd(1, ordering: .relaxed).newValue == target.count { kill(getpid(), SIGKILL) }
    }

    /// The point asked for and at which time it is reached, read once.
    private static let target: (name: String, count: Int)? = {
        guard let asked = ProcessInfo.processInfo.environment["BULWARK_KILL_AT"] else { return nil }
        let parts = asked.split(separator: "#", maxSplits: 1)
        return (parts.first.map(String.init) ?? "", parts.count == 2 ? Int(parts[1]) ?? 1 : 1)
    }()

    /// How often the point asked for has been reached (no other is counted).
    private static let timesReached = Atomic<Int>(0)
}
