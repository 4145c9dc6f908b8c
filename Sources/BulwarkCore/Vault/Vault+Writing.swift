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
        let bases = Dictionary(changed.map { ($0.id, versions[$0.id]) }, uniquingKeysWith: { first, _ in first })
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
                let now = versions[entry.id]
                guard base == now else {
                    throw VaultError.conflict(title: entries.first { $0.id == entry.id }?.title ?? entry.title, deleted: now == nil)
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
            guard var entry = entries.first(where: { $0.id == id }) else { throw VaultError.entryNotFound(id) }
            try change(&entry)
            result = entry
            return ([entry], [])
        }
        return result!
    }

    /// Deletes an entry; with `base`, only if its row is still that version.
    public func remove(id: String, basedOn base: Int64? = nil) throws {
        touch()
        try write { [self] in
            guard let now = versions[id] else { throw VaultError.entryNotFound(id) }
            if let base, base != now {
                throw VaultError.conflict(title: entries.first { $0.id == id }?.title ?? id, deleted: false)
            }
            return ([], [id])
        }
    }

    /// One write transaction. `plan` runs after the sync, so it sees the
    /// file's current entries, and returns the rows to put and to delete.
    /// Memory follows only when the file did.
    @discardableResult
    func write(changesEntries: Bool = true, _ plan: () throws -> (put: [Entry], delete: [String])) throws -> VaultChanges {
        if changesEntries { takeBackupIfDue() }
        return try guarded {
            let dataVersion = try db().dataVersion()
            var external = VaultChanges()
            var put: [Entry] = [], delete: [String] = []
            var written = Listing()
            // Counters never repeat on this machine, even after a rollback.
            var next: Int64 = 0
            try db().transaction {
                external = try sync()
                (put, delete) = try plan()
                next = max(counter, rollback?.seen ?? 0) + 1
                for entry in put { try writeRow(entry, version: next) }
                for id in delete { try db().query("DELETE FROM entries WHERE id = ?", [.text(id)]) }
                written = try Listing.scan(db(), expecting: listing.count + put.count)
                try writeIndex(listing: written, counter: next)
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

    func writeRow(_ entry: Entry, version: Int64) throws {
        let sealed = aead.seal(FieldCoding.encode(parts: Vault.encode(entry)), key: key,
                               associatedData: Vault.entryAAD(prefix: aadPrefix, id: entry.id, version: version))
        try db().query("INSERT OR REPLACE INTO entries(id, version, sealed) VALUES (?, ?, ?)", [.text(entry.id), .integer(version), .blob(sealed)])
    }

    /// The committed change, applied to `entries` in place: at 100k entries
    /// re-sorting or copying them all on every save was most of a save.
    private func apply(put: [Entry], delete: [String], version: Int64) {
        place(put, removing: Set(delete))
        for id in delete { versions[id] = nil }
        for entry in put { versions[entry.id] = version }
    }
}
