import Foundation

/// A write's rows sealed: each entry encoded and sealed (AES-256-GCM) for
/// its row, bound to its id and version; large batches on every core.
extension Vault {
    /// Each entry encoded and sealed for its row; a large batch on every
    /// core (each with its own cipher context: one is not shared between
    /// threads). `context`: the caller's, for a small batch on its thread.
    func seal(_ entries: [Entry], version: Int64) -> [[UInt8]] {
        Vault.seal(entries, at: Array(entries.indices), key: key, prefix: aadPrefix, version: version, context: aead)
    }

    /// The entries at `positions` (not copied out of `entries`: at 100,000
    /// that copy was measurable), in that order.
    static func seal(_ entries: [Entry], at positions: [Int], key: [UInt8], prefix: [UInt8], version: Int64, context: AEAD?) -> [[UInt8]] {
        @Sendable func box(_ entry: Entry, _ aead: AEAD) -> [UInt8] {
            aead.seal(Vault.box(entry), key: key, associatedData: Vault.entryAAD(prefix: prefix, id: entry.id, version: version))
        }
        guard positions.count > 512 else {
            let aead = context ?? AEAD()
            return positions.map { box(entries[$0], aead) }
        }
        let workers = max(1, min(8, ProcessInfo.processInfo.activeProcessorCount))
        let chunk = (positions.count + workers - 1) / workers
        let results = SealedChunks(count: workers)
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            let range = (worker * chunk)..<min(positions.count, (worker + 1) * chunk)
            let aead = AEAD()
            results.store(worker, range.map { box(entries[positions[$0]], aead) })
        }
        return results.joined()
    }

    /// Write-once slots, one per worker, read after every worker is done.
    private final class SealedChunks: @unchecked Sendable {
        private var chunks: [[[UInt8]]]
        private let lock = NSLock()
        init(count: Int) { chunks = Array(repeating: [], count: count) }
        func store(_ index: Int, _ boxes: [[UInt8]]) { lock.withLock { chunks[index] = boxes } }
        func joined() -> [[UInt8]] { chunks.flatMap { $0 } }
    }
}

/// Seals a large write's rows on every core while the writing thread
/// stores them in order. Chunks of 512 go to whichever worker is free (a
/// fixed share of each 8,192-row block per worker, then a wait for the
/// slowest, left a core idle at every block's end whenever one worker had
/// been descheduled by the writer), and the workers stay at most `window`
/// chunks ahead of the writer, so 100,000 boxes are never all in memory.
/// At 100,000 the writer is the bound: SQLite's inserts take about as long
/// as the sealing on the other core (measured: the writer waited 11 to 16
/// ms in all, the workers some 300 ms for room).
final class RowSealPipeline: @unchecked Sendable {  // its mutable state only under `condition`
    static let chunkSize = 512
    private let entries: [Entry]
    private let order: [Int]
    private let key: [UInt8]
    private let prefix: [UInt8]
    private let version: Int64
    private let window: Int
    let chunks: Int
    private let condition = NSCondition()
    private var nextChunk = 0
    private var taken = 0
    private var sealed: [Int: (ids: RowIDs, boxes: [[UInt8]])] = [:]
    private var stopped = false

    init(_ entries: [Entry], order: [Int], key: [UInt8], prefix: [UInt8], version: Int64, window: Int = 16) {
        self.entries = entries
        self.order = order
        self.key = key
        self.prefix = prefix
        self.version = version
        self.window = window
        chunks = (order.count + Self.chunkSize - 1) / Self.chunkSize
        let workers = max(1, min(8, ProcessInfo.processInfo.activeProcessorCount))
        for _ in 0..<workers { DispatchQueue.global(qos: .userInitiated).async { [self] in work() } }
    }

    /// The positions in `entries` of chunk `index`'s rows, in order.
    private func positions(of index: Int) -> ArraySlice<Int> {
        order[(index * Self.chunkSize)..<min(order.count, (index + 1) * Self.chunkSize)]
    }

    /// Chunk `index`'s rows, waited for; chunks are taken in order. The
    /// rows' ids come with their boxes, as bytes: read here, where each
    /// entry was just sealed, they are not a cache miss on the writing
    /// thread (reading 100,000 ids there, in the file's order, was 30 ms of an import).
    func take(_ index: Int) -> (ids: RowIDs, boxes: [[UInt8]]) {
        condition.lock()
        defer { condition.unlock() }
        while sealed[index] == nil { condition.wait() }
        taken = index + 1
        condition.broadcast()
        return sealed.removeValue(forKey: index)!
    }

    /// No more chunks are started (the write failed); those under way end on their own.
    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    private func work() {
        let aead = AEAD()
        while true {
            condition.lock()
            while !stopped && nextChunk < chunks && nextChunk >= taken + window { condition.wait() }
            guard !stopped, nextChunk < chunks else { condition.unlock(); return }
            let index = nextChunk
            nextChunk += 1
            condition.unlock()
            let positions = positions(of: index)
            var ids = RowIDs(capacity: positions.count)
            let boxes = positions.map { position in
                let entry = entries[position]
                ids.append(entry.id)
                return aead.seal(Vault.box(entry), key: key, associatedData: Vault.entryAAD(prefix: prefix, id: entry.id, version: version))
            }
            condition.lock()
            sealed[index] = (ids, boxes)
            condition.broadcast()
            condition.unlock()
        }
    }
}
