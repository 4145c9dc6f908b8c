import Foundation

/// Writes. Each one is a `BEGIN IMMEDIATE` transaction that first brings
/// this object up to the file (`sync`, which also verifies the file's
/// index), then decides what to write from that state, writes the rows
/// with the next change counter as their version, and seals a new index
/// from the listing the file then holds: never from a cached list, so a
/// second writer's rows are always counted.
extension Vault {
    /// Adds or replaces entries in one transaction (import uses this for
    /// thousands at once). An entry this vault read before is written only
    /// if nobody changed its row since; otherwise nothing is written and
    /// `VaultError.conflict` names it.
    public func save(_ changed: [Entry]) throws {
        let bases = Dictionary(changed.map { ($0.id, version(of: $0.id)) }, uniquingKeysWith: { first, _ in first })
        try save(changed, basedOn: bases)
    }

    public func save(_ entry: Entry) throws { try save([entry]) }

    /// Writes an entry edited from the row version `base` (nil: a new
    /// entry); a row that moved on meanwhile is a conflict, never an
    /// overwrite. The app passes the version its editor started from.
    public func save(_ entry: Entry, basedOn base: Int64?) throws {
        try save([entry], basedOn: [entry.id: base])
    }

    private func save(_ changed: [Entry], basedOn bases: [String: Int64?]) throws {
        touch()
        try write { [self] in
            for entry in changed {
                let base = bases[entry.id] ?? nil
                let now = version(of: entry.id)
                guard base == now else {
                    throw VaultError.conflict(title: self.entry(id: entry.id)?.title ?? entry.title, deleted: now == nil)
                }
            }
            return (changed, [])
        }
    }

    /// Changes one entry as the file holds it now, inside the write: the
    /// change applies to the newest row, whoever wrote it (the CLI's edit,
    /// hide, and every step of an upgrade).
    @discardableResult
    public func update(_ id: String, _ change: (inout Entry) throws -> Void) throws -> Entry {
        touch()
        var result: Entry?
        try write { [self] in
            guard var entry = entry(id: id) else { throw VaultError.entryNotFound(id) }
            try change(&entry)
            result = entry
            return ([entry], [])
        }
        return result!
    }

    /// Changes several entries in one transaction, each as the file holds it
    /// now: an upgrade settles every entry of one account together, so a
    /// crash never leaves some of them with the old password. `change`
    /// decides per entry (it may leave one alone); missing ids are skipped.
    @discardableResult
    public func updateEach(_ ids: [String], _ change: (inout Entry) throws -> Void) throws -> [Entry] {
        touch()
        var result: [Entry] = []
        try write { [self] in
            result = []
            for id in ids {
                guard var entry = entry(id: id) else { continue }
                try change(&entry)
                result.append(entry)
            }
            return (result, [])
        }
        return result
    }

    /// Writes new entries in one transaction without taking them into this
    /// object's list (loading 100,000 into it was a fifth of an import):
    /// for a command that ends after writing. Like another process's rows,
    /// the next sync reads them.
    public func insertNew(_ fresh: [Entry]) throws {
        touch()
        try write(keepInMemory: false) { [self] in
            if let taken = fresh.first(where: { version(of: $0.id) != nil }) { throw VaultError.conflict(title: taken.title, deleted: false) }
            return (fresh, [])
        }
    }

    /// Deletes an entry; with `base`, only if its row is still that version.
    public func remove(id: String, basedOn base: Int64? = nil) throws {
        touch()
        try write { [self] in
            guard let now = version(of: id) else { throw VaultError.entryNotFound(id) }
            if let base, base != now {
                throw VaultError.conflict(title: entry(id: id)?.title ?? id, deleted: false)
            }
            return ([], [id])
        }
    }

    /// One write transaction. `plan` runs after the sync, so it sees the
    /// file's current entries, and returns the rows to put and to delete.
    /// Memory follows only when the file did.
    @discardableResult
    func write(changesEntries: Bool = true, keepInMemory: Bool = true,
               _ plan: () throws -> (put: [Entry], delete: [String])) throws -> VaultChanges {
        if changesEntries { takeBackupIfDue() }
        return try guarded {
            var dataVersion: Int64 = 0
            var external = VaultChanges()
            var put: [Entry] = [], delete: [String] = []
            var written = Listing()
            // Counters never repeat on this machine, even after a rollback.
            var next: Int64 = 0
            try db().transaction {
                // Read under the write lock: when no other connection has
                // committed since this one last looked, the file is as
                // `listing` says, and reading every row's version again
                // (most of a write at 100k entries) would find nothing.
                dataVersion = try db().dataVersion()
                if dataVersion != lastDataVersion { external = try sync() }
                KillPoint.reach("write-synced")
                (put, delete) = try plan()
                KillPoint.reach("write-planned")
                next = max(counter, rollback?.seen ?? 0) + 1
                // In id order: the rows' B-tree is keyed by id, and thousands
                // of random-order inserts cost several times more.
                // Sealed a block at a time, so 100,000 boxes are never all in memory.
                // The ids gathered first: comparing through 100,000 entries' rows was a cache miss a compare.
                let ids = put.count > 64 ? put.map(\.id) : []
                let order = put.count > 64 ? ids.indices.sorted(by: { ids[$0] < ids[$1] }) : Array(put.indices)
                let blocks = stride(from: 0, to: order.count, by: 8192).map { Array(order[$0..<min(order.count, $0 + 8192)]) }
                if blocks.count <= 1 {
                    for block in blocks {
                        for (index, box) in zip(block, Vault.seal(put, at: block, key: key, prefix: aadPrefix, version: next, context: aead)) {
                            try writeRow(id: put[index].id, sealed: box, version: next)
                        }
                    }
                } else {
                    // A pipeline: the next block is sealed on the other cores
                    // while this thread writes the last one into SQLite.
                    let sealer = BlockSealer(put, key: key, prefix: aadPrefix, version: next)
                    var pending = sealer.start(blocks[0])
                    try db().repeatedly(Vault.putRow) { rows in
                        for (number, block) in blocks.enumerated() {
                            let boxes = pending.wait()
                            if number + 1 < blocks.count { pending = sealer.start(blocks[number + 1]) }
                            for (index, box) in zip(block, boxes) { try rows.run(text: put[index].id, integer: next, blob: box) }
                        }
                    }
                }
                KillPoint.reach("write-rows")
                for id in delete { try db().query("DELETE FROM entries WHERE id = ?", [.text(id)]) }
                KillPoint.reach("write-deleted")
                written = listing.applying(put: order.map { put[$0].id }, delete: delete, version: next)
                assert(written == (try? Listing.scan(db(), expecting: written.count)), "the listing made in memory differs from the file's")
                try writeIndex(listing: written, counter: next)
                KillPoint.reach("write-indexed")
            }
            guard keepInMemory else {
                // As if another process had written them: the next sync reads
                // them (SQLite's data version does not move for a connection's own commits).
                lastDataVersion = nil
                rememberCounter(next)
                return external
            }
            apply(put: put, delete: delete, version: next)
            listing = written
            counter = next
            rollback = nil
            lastDataVersion = dataVersion
            rememberCounter()
            return external
        }
    }

    static let putRow = "INSERT OR REPLACE INTO entries(id, version, sealed) VALUES (?, ?, ?)"

    func writeRow(id: String, sealed: [UInt8], version: Int64) throws {
        try db().query(Vault.putRow, [.text(id), .integer(version), .blob(sealed)])
    }

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

    /// The committed change, applied to `entries` in place: at 100k entries
    /// re-sorting or copying them all on every save was most of a save.
    private func apply(put: [Entry], delete: [String], version: Int64) {
        place(put.map { VaultRow(entry: $0, version: version) }, removing: Set(delete))
    }
}

/// Seals blocks of a write's entries away from the writing thread.
private final class BlockSealer: @unchecked Sendable {  // immutable after init; each block's result is handed over once
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
