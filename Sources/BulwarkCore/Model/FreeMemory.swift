import CMalloc

/// Gives the pages malloc holds free back to the system. A large vault's
/// analysis runs in batches, each leaving behind the last batch's working
/// lists and the report the screen has just let go; malloc keeps those
/// pages resident, and the next batch's allocations, of other sizes, do not
/// all fit in them, so without this the app's peak memory grew by their
/// sum (4.5 MiB at 100,000 entries).
public enum FreeMemory {
    public static func giveBack() {
        _ = malloc_trim(0)
    }
}
