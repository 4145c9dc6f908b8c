/// An entry as the vault holds it: with the version of its row in the
/// file, as last read or written.
public struct VaultRow: Sendable, TableKeyed {
    public let entry: Entry
    /// The row's version; 0 for an entry of a format-1 or 2 file not yet
    /// converted (those have no versions; written ones start at 1).
    public let version: Int64

    public init(entry: Entry, version: Int64) {
        self.entry = entry
        self.version = version
    }

    public var tableKey: String { entry.id }
}

/// The vault's entries by id with their row versions, in one table: the
/// vault finds entries through it, a write checks versions in it, and the
/// app's snapshot shares it (a change copies one shard). Two maps, one of
/// entries and one of versions keyed by a copy of the id, were 7.5 MB at
/// 100,000 entries; this is 3 MB.
public typealias VaultRows = ShardedTable<VaultRow>

extension ShardedTable where Element == VaultRow {
    /// The entries of a file with no row versions (formats 1 and 2).
    init(unversioned entries: [Entry]) {
        self.init(entries.lazy.map { VaultRow(entry: $0, version: 0) })
    }

    public func entry(id: String) -> Entry? { self[id]?.entry }

    /// The version an edit of this entry starts from; nil when the vault
    /// holds no such entry, or its file has no row versions.
    public func version(of id: String) -> Int64? {
        guard let row = self[id], row.version != 0 else { return nil }
        return row.version
    }
}

/// The row versions of a table of rows, as an edit asks for them.
public struct RowVersions: Sendable, Equatable {
    let rows: VaultRows

    public subscript(id: String) -> Int64? { rows.version(of: id) }

    public static func == (a: RowVersions, b: RowVersions) -> Bool {
        a.rows.count == b.rows.count && a.rows.elements.allSatisfy { b.rows[$0.entry.id]?.version == $0.version }
    }
}

extension ShardedTable where Element == VaultRow {
    public var versions: RowVersions { RowVersions(rows: self) }
}
