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

    /// One write transaction, in named steps (each below, alone): catch up
    /// with the other writers' rows, let `plan` decide from the file's
    /// current entries what to put and delete, write the rows in id order
    /// under the next change counter, delete, seal the new index; then,
    /// once committed, take the change into memory. Memory follows only
    /// when the file did.
    @discardableResult
    func write(changesEntries: Bool = true, keepInMemory: Bool = true,
               _ plan: () throws -> (put: [Entry], delete: [String])) throws -> VaultChanges {
        let backup = changesEntries ? backupBeforeChange(afterCommit: backupsAfterCommit) : nil
        // Started once the write is done (committed or not): it copies the file as it was before.
        defer { backup?.start() }
        return try guarded {
            var dataVersion: Int64 = 0
            var external = VaultChanges()
            var put: [Entry] = [], delete: [String] = []
            var written = Listing()
            var next: Int64 = 0
            try db().transaction {
                (dataVersion, external) = try catchUpWithOtherWriters()
                KillPoint.reach("write-synced")
                (put, delete) = try plan()
                try dropUnheldBlobs(put: put, delete: delete)
                KillPoint.reach("write-planned")
                next = nextCounter()
                let ids = try writeRows(put, in: try Vault.rowOrder(put), version: next)
                KillPoint.reach("write-rows")
                try deleteRows(delete)
                KillPoint.reach("write-deleted")
                written = delete.isEmpty ? listing.applying(sortedPut: ids, version: next)
                    : listing.applying(put: ids.strings, delete: delete, version: next)
                SelfCheck.require(written == (try? Listing.scan(db(), expecting: written.count)), "the listing made in memory differs from the file's")
                try writeIndex(listing: written, counter: next)
                KillPoint.reach("write-indexed")
            }
            adopt(put: put, delete: delete, listing: written, counter: next, dataVersion: dataVersion, keepInMemory: keepInMemory)
            return external
        }
    }

    /// Step 1, under the write lock: when no other connection has committed
    /// since this one last looked, the file is as `listing` says, and
    /// reading every row's version again (most of a write at 100k entries)
    /// would find nothing; otherwise their rows are read in.
    func catchUpWithOtherWriters() throws -> (dataVersion: Int64, external: VaultChanges) {
        let dataVersion = try db().dataVersion()
        return (dataVersion, dataVersion != lastDataVersion ? try sync() : VaultChanges())
    }

    /// Step 2: the change's counter. Counters never repeat on this machine,
    /// even after a rollback.
    func nextCounter() -> Int64 { max(counter, rollback?.seen ?? 0) + 1 }

    /// Step 3a: the order rows are written in. By id: the rows' B-tree is
    /// keyed by id, and thousands of random-order inserts cost several
    /// times more (a few are written as they come). The ids gathered first:
    /// comparing through 100,000 entries' rows was a cache miss a compare.
    /// Sorted by each id's first eight bytes as one number (byte order, as
    /// SQLite's index compares them), the whole ids only where those tie:
    /// comparing 100,000 Strings was a tenth of an import's write.
    /// The same id twice (one would replace the other's row) is refused:
    /// neighbours once sorted, so it costs nothing here.
    static func rowOrder(_ put: [Entry]) throws -> [Int] {
        guard put.count > 64 else { return Array(put.indices) }
        var keyed = put.indices.map { index in
            var prefix: UInt64 = 0, taken = 0
            for byte in put[index].id.utf8.prefix(8) { prefix = prefix << 8 | UInt64(byte); taken += 1 }
            return (prefix << (8 * UInt64(8 - taken)), index)
        }
        keyed.sort { $0.0 != $1.0 ? $0.0 < $1.0 : Array(put[$0.1].id.utf8).lexicographicallyPrecedes(Array(put[$1.1].id.utf8)) }
        for (a, b) in zip(keyed, keyed.dropFirst()) where a.0 == b.0 && put[a.1].id == put[b.1].id {
            throw VaultError.conflict(title: put[b.1].title, deleted: false)
        }
        return keyed.map(\.1)
    }

    /// Step 3b: the rows, sealed under `version`; their ids in the order
    /// written. Past one block of 8,192, a pipeline (`RowSealPipeline`):
    /// the rows are sealed on the other cores a chunk at a time while this
    /// thread writes them into SQLite.
    func writeRows(_ put: [Entry], in order: [Int], version: Int64) throws -> RowIDs {
        var ids = RowIDs(capacity: order.count)
        guard order.count > 8192 else {
            for (index, box) in zip(order, Vault.seal(put, at: order, key: key, prefix: aadPrefix, version: version, context: aead)) {
                try writeRow(id: put[index].id, sealed: box, version: version)
                ids.append(put[index].id)
            }
            return ids
        }
        let pipeline = RowSealPipeline(put, order: order, key: key, prefix: aadPrefix, version: version)
        defer { pipeline.stop() }
        try db().repeatedly(Vault.putRow) { rows in
            for chunk in 0..<pipeline.chunks {
                let (chunkIDs, boxes) = pipeline.take(chunk)
                try chunkIDs.forEach { row, id in try rows.run(text: id, integer: version, blob: boxes[row]) }
                ids.append(chunkIDs)
            }
        }
        return ids
    }

    /// Step 4: the rows deleted.
    func deleteRows(_ ids: [String]) throws {
        for id in ids { try db().query("DELETE FROM entries WHERE id = ?", [.text(id)]) }
    }

    /// Step 6, after the commit: the change taken into memory, or (for a
    /// command that ends after writing) left for the next sync to read as
    /// another process's rows (SQLite's data version does not move for a
    /// connection's own commits).
    private func adopt(put: [Entry], delete: [String], listing written: Listing, counter next: Int64, dataVersion: Int64, keepInMemory: Bool) {
        guard keepInMemory else {
            lastDataVersion = nil
            rememberCounter(next)
            return
        }
        apply(put: put, delete: delete, version: next)
        listing = written
        counter = next
        rollback = nil
        lastDataVersion = dataVersion
        rememberCounter()
    }

    static let putRow = "INSERT OR REPLACE INTO entries(id, version, sealed) VALUES (?, ?, ?)"

    func writeRow(id: String, sealed: [UInt8], version: Int64) throws {
        try db().query(Vault.putRow, [.text(id), .integer(version), .blob(sealed)])
    }

    /// The committed change, applied to `entries` in place: at 100k entries
    /// re-sorting or copying them all on every save was most of a save.
    private func apply(put: [Entry], delete: [String], version: Int64) {
        place(put.map { VaultRow(entry: $0, version: version) }, removing: Set(delete))
    }
}
