import Foundation

/// What a command is done with but need not free: the process ends right
/// after, and the kernel takes its memory back at once. Freeing an
/// import's 100,000 entries one by one (each a cache miss, and malloc
/// merging the holes) was 50 ms of its end.
enum KeptUntilExit {
    nonisolated(unsafe) private static var kept: [Any] = []  // only appended to, under `lock`
    private static let lock = NSLock()

    static func keep(_ value: Any) { lock.withLock { kept.append(value) } }
}
