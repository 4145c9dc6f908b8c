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

/// Seals blocks of a write's entries away from the writing thread.
final class BlockSealer: @unchecked Sendable {  // immutable after init; each block's result is handed over once
    let entries: [Entry]
    let key: [UInt8]
    let prefix: [UInt8]
    let version: Int64

    init(_ entries: [Entry], key: [UInt8], prefix: [UInt8], version: Int64) {
        self.entries = entries
        self.key = key
        self.prefix = prefix
        self.version = version
    }

    final class Pending: @unchecked Sendable {  // written once before the signal, read after the wait
        private let done = DispatchSemaphore(value: 0)
        fileprivate var boxes: [[UInt8]] = []
        fileprivate func finish(_ result: [[UInt8]]) { boxes = result; done.signal() }
        func wait() -> [[UInt8]] { done.wait(); return boxes }
    }

    /// Starts sealing a block (each worker with its own cipher context).
    func start(_ block: [Int]) -> Pending {
        let pending = Pending()
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            pending.finish(Vault.seal(entries, at: block, key: key, prefix: prefix, version: version, context: nil))
        }
        return pending
    }
}
