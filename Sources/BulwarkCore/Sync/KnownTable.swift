import Foundation

/// What this machine knew of each entry at the last sync
/// (`SyncState.Known`), kept by the bucket of the entry's repository file,
/// as the manifest is: a sync that touches one bucket reads, and writes
/// back, that one. At 100,000 entries the whole table was most of a
/// one-change sync's time (decoded, merged and written whole each time).
public struct KnownTable: Sendable, Equatable {
    public typealias Known = SyncState.Known

    /// bucket → entry id → what was known, for the buckets read.
    private var open: [String: [String: Known]] = [:]
    /// Where the buckets not read yet are (nil: a table made in memory).
    private var source: KnownFile.Reader?
    /// The buckets written since the table was read, for the next save.
    private(set) var changed: Set<String> = []
    /// Made whole in memory (a clone, a re-key, an older state): it replaces every bucket on disk.
    private(set) var whole = false
    /// The entry id's repository file (set by the sync from the vault key).
    var fileOf: @Sendable (String) -> String

    init(fileOf: @escaping @Sendable (String) -> String = { _ in "" }) { self.fileOf = fileOf }

    init(_ all: [String: Known], fileOf: @escaping @Sendable (String) -> String) {
        self.fileOf = fileOf
        for (id, known) in all { open[SyncRepository.bucket(of: known.file), default: [:]][id] = known }
        changed = Set(open.keys)
        whole = true
    }

    init(reading source: KnownFile.Reader, fileOf: @escaping @Sendable (String) -> String) {
        self.source = source
        self.fileOf = fileOf
    }

    func bucket(of id: String) -> String { SyncRepository.bucket(of: fileOf(id)) }

    /// Every bucket the table holds, read or not.
    var bucketNames: Set<String> { Set(open.keys).union(source?.buckets ?? []) }

    /// A bucket's entries by id, read from the file the first time.
    mutating func entries(inBucket name: String) throws -> [String: Known] {
        if let entries = open[name] { return entries }
        let entries = try source?.read(name) ?? [:]
        open[name] = entries
        return entries
    }

    mutating func known(_ id: String) throws -> Known? { try entries(inBucket: bucket(of: id))[id] }

    /// Sets (or with nil, forgets) what is known of an entry; its bucket is the entry's file's.
    mutating func set(_ id: String, _ known: Known?) throws {
        let name = known.map { SyncRepository.bucket(of: $0.file) } ?? bucket(of: id)
        _ = try entries(inBucket: name)
        open[name, default: [:]][id] = known
        changed.insert(name)
    }

    /// Every entry (every bucket read): for the walks that need them all
    /// (status, a restore's merge, a re-key).
    mutating func all() throws -> [String: Known] {
        var all: [String: Known] = [:]
        for name in bucketNames { all.merge(try entries(inBucket: name)) { _, new in new } }
        return all
    }

    /// Every entry, without keeping what it read (nil when a bucket does not read).
    func allEntries() -> [String: Known]? {
        var all: [String: Known] = [:]
        for name in bucketNames {
            guard let entries = open[name] ?? (try? source?.read(name)) ?? (source == nil ? [:] : nil) else { return nil }
            all.merge(entries) { _, new in new }
        }
        return all
    }

    /// What is known of some entries, by id (the ones a sync decides).
    mutating func subset(_ ids: some Sequence<String>) throws -> [String: Known] {
        var found: [String: Known] = [:]
        for id in ids { if let known = try known(id) { found[id] = known } }
        return found
    }

    /// The buckets to save: each changed one's table, encoded (empty ones are dropped).
    func changedTables() -> [(bucket: String, plain: [UInt8]?)] {
        changed.sorted().map { name in
            let entries = open[name] ?? [:]
            return (name, entries.isEmpty ? nil : KnownFile.encode(entries, bucket: name))
        }
    }

    /// After a save: what is on disk now is what the table holds.
    mutating func saved(to reader: KnownFile.Reader) {
        source = reader
        changed = []
        whole = false
    }

    public static func == (a: KnownTable, b: KnownTable) -> Bool { a.allEntries() == b.allEntries() }
}
