import CMalloc
import Foundation

/// How the app keeps malloc from holding more than it uses.
public enum FreeMemory {
    /// Gives the pages malloc holds free back to the system. A large
    /// vault's analysis runs in batches, each leaving behind the last
    /// batch's working lists and the report the screen has just let go;
    /// malloc keeps those pages resident, and the next batch's allocations,
    /// of other sizes, do not all fit in them, so without this the app's
    /// peak memory grew by their sum (4.5 MiB at 100,000 entries).
    public static func giveBack() {
        _ = malloc_trim(0)
    }

    /// At most one malloc arena per core, set once before the app's
    /// threads start. glibc gives a thread that meets another in malloc an
    /// arena of its own, up to eight per core, and memory freed in one is
    /// not reused by another: the app's work moves between its run loop
    /// and the threads its effects and the analysis run on, and with
    /// 100,000 entries open it held 146 to 152 MiB, 139 to 141 with one
    /// arena per core (the analysis, on every core, no slower).
    public static func limitArenas() {
        _ = limited
    }

    private static let limited: Bool = {
        mallopt(M_ARENA_MAX, Int32(clamping: max(1, ProcessInfo.processInfo.activeProcessorCount))) == 1
    }()
}
