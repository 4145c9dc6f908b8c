import Foundation

/// The (id, version) pairs of every row, in the file's id order, as one
/// byte string: what the sealed index covers. A scan reads them from a
/// narrow SQLite index without touching the sealed boxes.
struct Listing: Equatable {
    var bytes: [UInt8] = []
    var count = 0
    /// The highest row version listed.
    var newest: Int64 = 0

    static let query = "SELECT id, version FROM entries ORDER BY id"

    mutating func append(id: UnsafeRawBufferPointer, version: Int64) {
        let n = UInt32(id.count)
        for shift in stride(from: 0, through: 24, by: 8) { bytes.append(UInt8(truncatingIfNeeded: n >> UInt32(shift))) }
        bytes.append(contentsOf: id)
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: version >> Int64(shift))) }
        count += 1
        newest = max(newest, version)
    }

    static func scan(_ database: SQLiteDatabase, expecting rows: Int = 0) throws -> Listing {
        var listing = Listing()
        listing.bytes.reserveCapacity(rows * 50)
        try database.eachRaw(query) { row in
            guard let id = row.bytes(0), let version = row.integer(1) else { throw VaultError.damaged("an entry row is malformed") }
            listing.append(id: id, version: version)
        }
        return listing
    }

    var digest: [UInt8] { Digest.sha256(bytes) }

    /// This listing after a write of its own (`put` rows at `version`,
    /// `delete` rows gone), made in one merge walk instead of reading every
    /// row back from SQLite: at 100,000 entries the scan was most of a write.
    func applying(put: [String], delete: [String], version: Int64) -> Listing {
        guard !put.isEmpty || !delete.isEmpty else { return self }
        let sorted = Self.inFileOrder(put: put, delete: delete, version: version)
        return merging(RowIDs(sorted.lazy.map(\.id)), versions: sorted.map(\.version), newestPut: put.isEmpty ? nil : version)
    }

    /// This listing after a write of `put` alone, ids already in the file's
    /// order (as a large write writes them): no String is made or read.
    /// Ids not strictly in that order (a write of a few, or the same id
    /// twice) take the general way.
    func applying(sortedPut put: RowIDs, version: Int64) -> Listing {
        guard put.count > 0 else { return self }
        var previous: UnsafeBufferPointer<UInt8>?
        var increasing = true
        put.forEach { _, id in
            if let previous, increasing, Self.compare(previous, id) >= 0 { increasing = false }
            previous = id
        }
        guard increasing else { return applying(put: put.strings, delete: [], version: version) }
        return merging(put, versions: nil, newestPut: version)
    }

    /// The merge walk: `changes` in the file's id order, each with its new
    /// version (nil: deleted); `versions` nil: every one put at `newestPut`.
    private func merging(_ changes: RowIDs, versions: [Int64?]?, newestPut: Int64?) -> Listing {
        var out = Listing()
        out.bytes.reserveCapacity(bytes.count + changes.count * 50)
        var removedNewest = false
        var delta = 0  // rows added less rows deleted
        func versionAt(_ next: Int) -> Int64? { versions.map { $0[next] } ?? newestPut }
        bytes.withUnsafeBufferPointer { old in
            changes.bytes.withUnsafeBufferPointer { changed in
                // Unchanged rows are copied a run at a time; only the lengths are read to walk them.
                var at = 0, run = 0, next = 0
                func flush(to end: Int) {
                    if end > run { out.bytes.append(contentsOf: UnsafeBufferPointer(rebasing: old[run..<end])) }
                }
                func changeID(_ next: Int) -> UnsafeBufferPointer<UInt8> {
                    UnsafeBufferPointer(rebasing: changed[changes.start(of: next)..<changes.ends[next]])
                }
                func emit(_ next: Int) {
                    if let version = versionAt(next) { out.append(id: UnsafeRawBufferPointer(changeID(next)), version: version) }
                }
                while at < old.count, next < changes.count {
                    let n = Int(old[at]) | Int(old[at + 1]) << 8 | Int(old[at + 2]) << 16 | Int(old[at + 3]) << 24
                    let id = UnsafeBufferPointer(rebasing: old[(at + 4)..<(at + 4 + n)])
                    let order = Self.compare(changeID(next), id)
                    if order < 0 {  // a new row before this one
                        flush(to: at)
                        run = at
                        if versionAt(next) != nil { delta += 1 }
                        emit(next)
                        next += 1
                        continue
                    }
                    if order == 0 {  // this row rewritten or deleted
                        flush(to: at)
                        let rowVersion = old[(at + 4 + n)..<(at + 12 + n)].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                        if versionAt(next) == nil {
                            delta -= 1
                            if Int64(bitPattern: rowVersion) == newest { removedNewest = true }
                        }
                        emit(next)
                        next += 1
                        run = at + 12 + n
                    }
                    at += 12 + n
                }
                flush(to: old.count)
                while next < changes.count {
                    if versionAt(next) != nil { delta += 1 }
                    emit(next)
                    next += 1
                }
            }
        }
        out.count = count + delta
        out.newest = newestPut.map { max(newest, $0) } ?? (removedNewest ? Self.newestVersion(in: out.bytes) : newest)
        return out
    }

    /// The changes in the file's id order (SQLite's byte order); a put wins
    /// over a delete of the same id. (Puts alone already in that order, as
    /// a write hands them over, take `applying(sortedPut:)` instead.)
    static func inFileOrder(put: [String], delete: [String], version: Int64) -> [(id: String, version: Int64?)] {
        var changes: [String: Int64?] = [:]
        for id in delete { changes[id] = .some(nil) }
        for id in put { changes[id] = .some(version) }
        return changes.map { (id: $0.key, version: $0.value) }.sorted { $0.id.utf8.lexicographicallyPrecedes($1.id.utf8) }
    }

    /// Byte order, shorter first on a common prefix: SQLite's BINARY collation.
    private static func compare(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
        let common = min(a.count, b.count)
        if common > 0, let x = a.baseAddress, let y = b.baseAddress {
            let order = memcmp(x, y, common)
            if order != 0 { return Int(order) }
        }
        return a.count - b.count
    }

    private static func walk(_ bytes: [UInt8], _ body: (Int64) -> Void) {
        bytes.withUnsafeBufferPointer { b in
            var at = 0
            while at < b.count {
                let n = Int(b[at]) | Int(b[at + 1]) << 8 | Int(b[at + 2]) << 16 | Int(b[at + 3]) << 24
                body(Int64(bitPattern: b[(at + 4 + n)..<(at + 12 + n)].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }))
                at += 12 + n
            }
        }
    }

    private static func newestVersion(in bytes: [UInt8]) -> Int64 {
        var newest: Int64 = 0
        walk(bytes) { newest = max(newest, $0) }
        return newest
    }

    /// The rows whose version differs between two listings, in one merge
    /// walk over the bytes (both are in the file's id order, SQLite's
    /// byte order): strings are made only for the ids that changed.
    func difference(from old: Listing) -> (added: [String], changed: [String], removed: [String]) {
        var added: [String] = [], changed: [String] = [], removed: [String] = []
        bytes.withUnsafeBufferPointer { new in
            old.bytes.withUnsafeBufferPointer { before in
                func row(_ b: UnsafeBufferPointer<UInt8>, _ at: Int) -> (id: UnsafeBufferPointer<UInt8>, version: UInt64, next: Int) {
                    let n = Int(b[at]) | Int(b[at + 1]) << 8 | Int(b[at + 2]) << 16 | Int(b[at + 3]) << 24
                    let id = UnsafeBufferPointer(rebasing: b[(at + 4)..<(at + 4 + n)])
                    let version = b[(at + 4 + n)..<(at + 12 + n)].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                    return (id, version, at + 12 + n)
                }
                func text(_ id: UnsafeBufferPointer<UInt8>) -> String { String(decoding: id, as: UTF8.self) }
                var a = 0, b = 0
                while a < before.count || b < new.count {
                    if b >= new.count {
                        let r = row(before, a); removed.append(text(r.id)); a = r.next
                    } else if a >= before.count {
                        let r = row(new, b); added.append(text(r.id)); b = r.next
                    } else {
                        let x = row(before, a), y = row(new, b)
                        if x.id.elementsEqual(y.id) {
                            if x.version != y.version { changed.append(text(y.id)) }
                            a = x.next; b = y.next
                        } else if x.id.lexicographicallyPrecedes(y.id) {
                            removed.append(text(x.id)); a = x.next
                        } else {
                            added.append(text(y.id)); b = y.next
                        }
                    }
                }
            }
        }
        return (added, changed, removed)
    }
}

/// The sealed index: the vault-wide change counter, the number of rows and
/// a digest of the listing. Every write raises the counter and gives the
/// rows it writes the new counter as their version.
struct SealedIndex: Equatable {
    var counter: Int64
    var count: Int
    var digest: [UInt8]

    static let magic = Array("bulwark-index-3".utf8)

    init(counter: Int64, listing: Listing) {
        self.counter = counter
        self.count = listing.count
        self.digest = listing.digest
    }

    var plaintext: [UInt8] {
        var out = SealedIndex.magic
        for value in [counter, Int64(count)] {
            for shift in stride(from: 56, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: value >> Int64(shift))) }
        }
        return out + digest
    }

    init?(plaintext: [UInt8]) {
        let m = SealedIndex.magic.count
        guard plaintext.count == m + 16 + 32, Array(plaintext[0..<m]) == SealedIndex.magic else { return nil }
        func number(_ at: Int) -> Int64 { plaintext[at..<(at + 8)].reduce(Int64(0)) { $0 << 8 | Int64($1) } }
        counter = number(m)
        count = Int(number(m + 8))
        digest = Array(plaintext[(m + 16)...])
    }

    /// The index a vault's meta table holds, opened with its key; nil when
    /// it is missing, altered, or sealed under another key.
    static func read(from database: SQLiteDatabase, key: [UInt8], aadPrefix: [UInt8], aead: AEAD = AEAD()) -> SealedIndex? {
        guard let blob = try? database.query("SELECT value FROM meta WHERE key = 'index'").first?.first?.blob else { return nil }
        return open(blob, key: key, aadPrefix: aadPrefix, aead: aead)
    }

    static func open(_ blob: [UInt8], key: [UInt8], aadPrefix: [UInt8], aead: AEAD) -> SealedIndex? {
        guard let plain = try? aead.open(blob, key: key, associatedData: aad(aadPrefix)) else { return nil }
        return SealedIndex(plaintext: plain)
    }

    static func aad(_ aadPrefix: [UInt8]) -> [UInt8] { aadPrefix + Array("|index|v3".utf8) }

    /// Why a listing does not match this index, or nil when it does.
    func mismatch(_ listing: Listing) -> String? {
        if listing.newest > counter { return "an entry is newer than the vault's index (change \(listing.newest) > \(counter))" }
        if listing.count != count {
            return "the vault holds \(listing.count) entr\(listing.count == 1 ? "y" : "ies") but its sealed index lists \(count): entries were added or removed outside bulwark"
        }
        if listing.digest != digest { return "the entries do not match their sealed index: an entry was rolled back or replaced" }
        return nil
    }
}

extension Vault {
    var indexAAD: [UInt8] { SealedIndex.aad(aadPrefix) }

    /// The associated data of an entry's box: the vault, the row and its version.
    static func entryAAD(prefix: [UInt8], id: String, version: Int64) -> [UInt8] {
        prefix + Array(id.utf8) + Array("|entry|\(version)".utf8)
    }

    func writeIndex(listing: Listing, counter: Int64) throws {
        let sealed = aead.seal(SealedIndex(counter: counter, listing: listing).plaintext, key: key, associatedData: indexAAD)
        try db().query("INSERT OR REPLACE INTO meta(key, value) VALUES ('index', ?)", [.blob(sealed)])
        indexBlob = sealed
    }

    func readIndexBlob() throws -> [UInt8] {
        guard let blob = try db().query("SELECT value FROM meta WHERE key = 'index'").first?.first?.blob else {
            throw VaultError.damaged("the sealed index is missing")
        }
        return blob
    }

    /// Opens the sealed index; a box this key cannot open means damage,
    /// unless another process re-keyed the vault meanwhile.
    func openIndex(_ blob: [UInt8]) throws -> SealedIndex {
        guard let index = SealedIndex.open(blob, key: key, aadPrefix: aadPrefix, aead: aead) else {
            if try currentWrappedKey() != wrappedKey { throw VaultError.keyChanged }
            throw VaultError.damaged("the sealed index does not open (it was altered)")
        }
        return index
    }

    /// Checks a listing read from the file against the file's index, and
    /// returns the index.
    func verifiedIndex(_ listing: Listing, blob: [UInt8]) throws -> SealedIndex {
        let index = try openIndex(blob)
        if let problem = index.mismatch(listing) { throw VaultError.damaged(problem) }
        return index
    }
}

extension String {
    /// The UTF-8 bytes in place where the string holds them so (a native
    /// string does), else copied: ids are compared by their bytes, as SQLite
    /// orders them, without an array made for each of 100,000.
    func withUTF8Bytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if let result = utf8.withContiguousStorageIfAvailable(body) { return result }
        return Array(utf8).withUnsafeBufferPointer(body)
    }
}
