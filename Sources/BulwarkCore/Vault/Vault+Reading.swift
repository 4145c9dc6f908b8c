import Foundation
import Synchronization

/// What another process changed, as found by `refresh()` or at the start
/// of a write.
public struct VaultChanges: Sendable, Equatable {
    public struct Removed: Sendable, Equatable {
        public let id: String
        public let title: String
    }
    public var added: [String] = []
    public var changed: [String] = []
    public var removed: [Removed] = []

    public var isEmpty: Bool { added.isEmpty && changed.isEmpty && removed.isEmpty }

    mutating func merge(_ other: VaultChanges) {
        added += other.added
        changed += other.changed
        removed += other.removed
    }
    public var ids: Set<String> { Set(added + changed + removed.map(\.id)) }
}

extension Vault {
    /// A row as read: its id, version and sealed box.
    typealias SealedRow = (id: String, version: Int64, box: [UInt8])

    /// Reads every entry (inside the caller's read transaction): one box
    /// per row. Rows come off SQLite's cursor in chunks; each chunk is
    /// opened and decoded on every core (an AEAD context per slice), and
    /// its ciphertexts are dropped before the next chunk is read, so memory
    /// stays near one copy of the entries.
    func load() throws {
        var loaded: [Entry] = []
        var listing = Listing()
        var pending: [SealedRow] = []
        var rowVersions: [Int64] = []  // in the order of the entries read
        let key = key, prefix = aadPrefix
        func flush() throws {
            let slices = stride(from: 0, to: pending.count, by: 512).map { Array(pending[$0..<min($0 + 512, pending.count)]) }
            for opened in try Concurrently.map(slices, chunk: 1, { slice in try Vault.open(slice, key: key, aadPrefix: prefix) }) {
                loaded.append(contentsOf: opened)
            }
            pending.removeAll(keepingCapacity: true)
        }
        try db().eachRaw("SELECT id, version, sealed FROM entries ORDER BY id") { row in
            guard let idBytes = row.bytes(0), let version = row.integer(1), let box = row.bytes(2) else {
                throw VaultError.damaged("an entry row is malformed")
            }
            listing.append(id: idBytes, version: version)
            let id = String(decoding: idBytes, as: UTF8.self)
            rowVersions.append(version)
            pending.append((id, version, Array(box)))
            if pending.count == 8192 { try flush() }
        }
        try flush()
        let blob = try readIndexBlob()
        // The index check and the rows by id, and the title order, are
        // independent: one core each.
        let order: [Int]
        let index: SealedIndex
        let byID: VaultRows
        do {
            let done = loaded, versions = rowVersions  // released at the end of this block, so the permutation below moves in place
            let check = listing
            nonisolated(unsafe) let vault = self  // the index check only reads this vault's key
            let results = try Concurrently.map([0, 1], chunk: 1) { task -> (index: SealedIndex?, byID: VaultRows?, order: [Int]?) in
                task == 0 ? (try vault.verifiedIndex(check, blob: blob), VaultRows(zip(done, versions).lazy.map(VaultRow.init)), nil)
                    : (nil, nil, Vault.titleOrder(done))
            }
            index = results[0].index!
            byID = results[0].byID!
            order = results[1].order!
        }
        Vault.permute(&loaded, by: order)
        entries = loaded
        rows = byID
        self.listing = listing
        indexBlob = blob
        counter = index.counter
        try db().releaseCache()
    }

    /// Opens and decodes rows with an AEAD context of their own.
    static func open(_ rows: [SealedRow], key: [UInt8], aadPrefix: [UInt8]) throws -> [Entry] {
        let aead = AEAD()
        return try rows.map { row in
            let plain: [UInt8]
            do { plain = try aead.open(row.box, key: key, associatedData: entryAAD(prefix: aadPrefix, id: row.id, version: row.version)) } catch {
                throw VaultError.damaged("entry \(row.id) does not decrypt (it was altered, or moved from another row or version)")
            }
            guard let parts = FieldCoding.decode(parts: plain), isEntryShape(parts.count),
                  let entry = decode(id: row.id, parts) else { throw VaultError.damaged("entry \(row.id) is malformed") }
            return entry
        }
    }

    // MARK: Following the file

    /// Brings `entries` up to what the file holds now, if another process
    /// committed since this one last looked; nil when nothing changed.
    /// Cheap when nothing did: SQLite's data version is compared first.
    public func refresh() throws -> VaultChanges? {
        try guarded {
            let version = try db().dataVersion()
            if version != lastDataVersion {
                try db().readTransaction { try sync() }
                lastDataVersion = version
            }
            return takeExternalChanges()
        }
    }

    /// What other processes changed that this object has read in since it
    /// was last asked, by a refresh or at the start of its own writes;
    /// nil when nothing. The app re-analyses exactly these entries.
    public func takeExternalChanges() -> VaultChanges? {
        defer { unconsumed = VaultChanges() }
        return unconsumed.isEmpty ? nil : unconsumed
    }

    /// Inside the caller's transaction: compares the file's listing with
    /// the one last read, verifies the file's index, and reads the rows
    /// that changed.
    @discardableResult
    func sync() throws -> VaultChanges {
        let scanned = try Listing.scan(db(), expecting: listing.count)
        let blob = try readIndexBlob()
        if scanned == listing && blob == indexBlob { return VaultChanges() }
        let index = try verifiedIndex(scanned, blob: blob)
        let difference = scanned.difference(from: listing)
        var changes = VaultChanges(added: difference.added, changed: difference.changed)
        let stale = difference.added + difference.changed
        var rows: [SealedRow] = []
        for id in stale {
            guard let row = try db().query("SELECT version, sealed FROM entries WHERE id = ?", [.text(id)]).first,
                  let version = row[0].integer, let box = row[1].blob else { throw VaultError.damaged("entry \(id) vanished while it was read") }
            rows.append((id, version, box))
        }
        let fresh = try Vault.open(rows, key: key, aadPrefix: aadPrefix)
        let gone = Set(difference.removed)
        var titles: [String: String] = [:]
        if !gone.isEmpty { for at in entries.indices where gone.contains(entries[at].id) { titles[entries[at].id] = entries[at].title } }
        changes.removed = difference.removed.map { VaultChanges.Removed(id: $0, title: titles[$0] ?? $0) }
        place(zip(fresh, rows).map { VaultRow(entry: $0, version: $1.version) }, removing: gone)
        listing = scanned
        indexBlob = blob
        if index.counter < counter { rollback = Rollback(found: index.counter, seen: counter) }
        counter = index.counter
        unconsumed.merge(changes)
        return changes
    }

    /// SQLite failures as vault errors: busy as busy, damage as damage.
    func guarded<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as VaultError {
            throw error
        } catch let failure as SQLiteDatabase.Failure {
            throw VaultError(failure, whileReading: "the database file is unreadable")
        }
    }

    // MARK: Order

    /// The entry with this id, if the vault holds one (by the table, not a walk).
    public func entry(id: String) -> Entry? { rows.entry(id: id) }

    /// The ids of the entries whose user name has this key (`UserNameIndex`).
    func ids(withUserNameKey key: UInt32) -> [String] {
        indexUserNames()
        return userNames!.ids(for: key)
    }

    /// Makes the index of user names, when it is not made (the app asks
    /// while idle, so that the first password change does not wait for it).
    public func indexUserNames() {
        if userNames == nil && !isLocked { userNames = UserNameIndex(rows.elements) }
    }

    /// Puts changed and new entries in their places in `entries` and drops
    /// the gone ones, keeping the title order, and the rows by id with them.
    /// A few are found through the rows by id and their old title (a
    /// binary search), and moved one by one; many are sorted with the rest.
    func place(_ changed: [VaultRow], removing gone: Set<String>) {
        // The index of user names follows a few changes; many drop it (made again when asked).
        var names = changed.count + gone.count <= 64 ? userNames : nil
        // Taken out, so that changing it changes it in place rather than copying all of it.
        userNames = nil
        defer { userNames = names }
        if names != nil {
            var keys: [String: UInt32] = [:]  // the last of an entry changed twice in one change
            for row in changed { keys[row.entry.id] = row.entry.userNameKey }
            for id in gone.union(keys.keys) { if let old = entry(id: id) { names?.remove(id, key: old.userNameKey) } }
            for (id, key) in keys { names?.add(id, key: key) }
        }
        if gone.count > 8 {
            entries.removeAll { gone.contains($0.id) }
        } else {
            for id in gone {
                if let old = entry(id: id), let at = position(of: old) { entries.remove(at: at) }
            }
        }
        for id in gone { rows[id] = nil }
        if changed.count > 64 {
            var position: [String: Int] = [:]
            for (offset, entry) in entries.enumerated() { position[entry.id] = offset }
            for row in changed {
                if let at = position[row.entry.id] { entries[at] = row.entry } else {
                    position[row.entry.id] = entries.count
                    entries.append(row.entry)
                }
                rows[row.entry.id] = row
            }
            Vault.permute(&entries, by: Vault.titleOrder(entries))
            return
        }
        for row in changed {
            let entry = row.entry
            if let old = self.entry(id: entry.id), let at = position(of: old) {
                if old.title == entry.title {
                    entries[at] = entry
                } else {
                    entries.remove(at: at)
                    entries.insert(entry, at: insertionPoint(title: entry.title, id: entry.id))
                }
            } else {
                entries.insert(entry, at: insertionPoint(title: entry.title, id: entry.id))
            }
            // At once: the same entry twice in one change finds the first where it put it.
            rows[entry.id] = row
        }
    }

    /// Where an entry with this title and id belongs in the title order.
    private func insertionPoint(title: String, id: String) -> Int {
        let key = Vault.sortKey(title)
        var low = 0, high = entries.count
        while low < high {
            let middle = (low + high) / 2
            let order = Vault.compare(Vault.sortKey(entries[middle].title), key)
            if order < 0 || (order == 0 && entries[middle].id < id) { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Where an entry is in `entries`: where its title puts it, else (not
    /// expected) found by walking, so that an entry is never held twice.
    func position(of entry: Entry) -> Int? {
        let at = insertionPoint(title: entry.title, id: entry.id)
        if at < entries.count, entries[at].id == entry.id { return at }
        return entries.firstIndex { $0.id == entry.id }
    }

    /// By title without regard to case, then by id. The keys are made once:
    /// a locale-aware comparison per pair costs seconds for 100k entries.
    static func sorted(_ entries: [Entry]) -> [Entry] {
        var sorted = entries
        permute(&sorted, by: titleOrder(entries))
        return sorted
    }

    /// Positions in title order: small indices are sorted, not whole entries.
    static func titleOrder(_ entries: [Entry]) -> [Int] {
        let keys = entries.map { sortKey($0.title) }
        return entries.indices.sorted { (a: Int, b: Int) -> Bool in
            let order = compare(keys[a], keys[b])
            return order == 0 ? entries[a].id < entries[b].id : order < 0
        }
    }

    /// A title's key for ordering: its lower-cased UTF-8 bytes (ASCII
    /// lower-cased in place; Unicode lower-casing only for other titles).
    /// Strings compared as `String` normalise on every comparison, which
    /// made ordering 100,000 titles a noticeable part of loading them.
    static func sortKey(_ title: String) -> [UInt8] {
        var bytes = Array(title.utf8)
        for i in bytes.indices {
            let byte = bytes[i]
            if byte >= 0x80 { return Array(title.lowercased().utf8) }
            if byte >= 0x41 && byte <= 0x5A { bytes[i] = byte + 0x20 }
        }
        return bytes
    }

    /// Natural order: runs of digits compare as numbers, so "Site 9" comes
    /// before "Site 10" and "Site 1001" before "Site 10009" (then, for the
    /// same number, fewer leading zeros first); everything else byte by byte.
    static func compare(_ a: [UInt8], _ b: [UInt8]) -> Int {
        a.withUnsafeBufferPointer { x in b.withUnsafeBufferPointer { y in naturalOrder(x, y) } }
    }

    private static func naturalOrder(_ x: UnsafeBufferPointer<UInt8>, _ y: UnsafeBufferPointer<UInt8>) -> Int {
        @inline(__always) func digit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
        var i = 0, j = 0
        while i < x.count && j < y.count {
            let c = x[i], d = y[j]
            guard digit(c) && digit(d) else {
                if c != d { return Int(c) - Int(d) }
                i += 1
                j += 1
                continue
            }
            // Two numbers: the one with more significant digits is larger, else the first differing digit decides.
            var si = i, sj = j
            while si < x.count && x[si] == 0x30 { si += 1 }
            while sj < y.count && y[sj] == 0x30 { sj += 1 }
            var ei = si, ej = sj
            while ei < x.count && digit(x[ei]) { ei += 1 }
            while ej < y.count && digit(y[ej]) { ej += 1 }
            if ei - si != ej - sj { return (ei - si) - (ej - sj) }
            for k in 0..<(ei - si) where x[si + k] != y[sj + k] { return Int(x[si + k]) - Int(y[sj + k]) }
            if ei - i != ej - j { return (ei - i) - (ej - j) }
            i = ei
            j = ej
        }
        return (x.count - i) - (y.count - j)
    }

    /// Puts the entry at `order[k]` at position k, by swapping along each
    /// cycle of the permutation: entries are moved, never copied (copying
    /// 100k entries' strings was a fifth of loading them).
    static func permute(_ entries: inout [Entry], by order: [Int]) {
        var placed = [Bool](repeating: false, count: order.count)
        for start in order.indices where !placed[start] {
            var position = start
            while true {
                placed[position] = true
                let source = order[position]
                if source == start { break }
                entries.swapAt(position, source)
                position = source
            }
        }
    }
}

/// The vault's order of entries (title without regard to case, numbers as
/// numbers, then id), for those who keep their own ordered copy of them.
public enum TitleOrder {
    /// A title's key: compare keys with `precedes`.
    public static func key(_ title: String) -> [UInt8] { Vault.sortKey(title) }

    public static func precedes(_ a: (key: [UInt8], id: String), _ b: (key: [UInt8], id: String)) -> Bool {
        let order = Vault.compare(a.key, b.key)
        return order == 0 ? a.id < b.id : order < 0
    }
}
