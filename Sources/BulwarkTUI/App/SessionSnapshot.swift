import BulwarkCore
import BulwarkUpgrades
import Foundation

/// What the app shows of the session: the entries, the analysis, the
/// services. A value the screen holds while the session makes the next
/// one, so it is built of chunked lists and sharded maps: a change to one
/// entry (`replace`) copies a chunk and a shard, never the vault.
public struct SessionSnapshot: Sendable, Equatable {
    /// The entries in the vault's order (title without regard to case, then id).
    public var entries: ChunkedArray<Entry> {
        get { storedEntries }
        set {
            storedEntries = newValue
            reindex()
        }
    }
    private var storedEntries = ChunkedArray<Entry>()
    /// Each entry by id with its row version (the vault's table, shared
    /// until either changes a shard), and by its title its place in the
    /// order, by a binary search.
    private var rows = VaultRows()
    /// Entries given in another order (tests do) are found by a map instead.
    private var unorderedPositions: [String: Int]?
    /// The entries' search text, made by the first search and kept up to date.
    public private(set) var searchText = SearchText()

    /// Each entry's row version: an edit starts from it, so a row another
    /// process changed meanwhile is a conflict, not an overwrite.
    public var versions: RowVersions { rows.versions }
    public var report = RecommendationsReport(recommendations: [], hidden: [])
    /// What decides the upgrades offered and the change-password URLs; the
    /// screens ask it about one entry at a time (see `AppState.offer`).
    public var requirements = SiteRequirements()
    public var catalog = ServiceCatalog(manifests: [])
    public var messages: [MessagesInbox.Message] = []
    /// Accounts found breached since the last unlock (set by unlocking only).
    public var newlyBreached: [String] = []
    /// Set by unlocking only: the vault is older than this machine last saw.
    public var rollback: Vault.Rollback?
    /// Set by unlocking only: what changed for Sign in with Apple accounts
    /// since the last unlock (a revoked authorization, a deleted one, the relay's forwarding).
    public var accountNotices: [String] = []
    /// Set by unlocking only: the vault is linked to a sync remote (the app syncs by itself).
    public var syncLinked = false
    /// How far the analysis of a large vault has got while it runs behind
    /// the screens (nil: done, the report is whole).
    public var analysis: AnalysisProgress?

    public struct AnalysisProgress: Sendable, Equatable {
        public let done: Int
        public let total: Int
    }

    public init() {}

    /// The site requirements are the session's, fixed while it lasts: not compared.
    public static func == (a: SessionSnapshot, b: SessionSnapshot) -> Bool {
        a.entries == b.entries && a.versions == b.versions && a.report == b.report && a.messages == b.messages
            && a.newlyBreached == b.newlyBreached && a.rollback == b.rollback && a.catalog.manifests == b.catalog.manifests
            && a.accountNotices == b.accountNotices && a.analysis == b.analysis && a.syncLinked == b.syncLinked
    }

    public func entry(id: String) -> Entry? {
        if let unorderedPositions { return unorderedPositions[id].map { storedEntries[$0] } }
        return rows.entry(id: id)
    }

    /// Where an entry is in `entries`.
    public func index(ofEntry id: String) -> Int? {
        if let unorderedPositions { return unorderedPositions[id] }
        guard let title = rows.entry(id: id)?.title else { return nil }
        let index = insertionIndex(title: title, id: id)
        return index < storedEntries.count && storedEntries[index].id == id ? index : nil
    }

    private func insertionIndex(title: String, id: String) -> Int {
        let key = (key: TitleOrder.key(title), id: id)
        return storedEntries.firstIndex(notBelow: { TitleOrder.precedes((TitleOrder.key($0.title), $0.id), key) })
    }

    /// Puts an entry's new version (nil: deleted) in place of the old, in
    /// the vault's order, with its search text.
    public mutating func replace(entry id: String, with new: Entry?) {
        guard unorderedPositions == nil else {
            var all = Array(storedEntries)
            all.removeAll { $0.id == id }
            if let new { all.append(new) }
            entries = ChunkedArray(all)
            return
        }
        let text = searchText.copy()
        if let old = index(ofEntry: id) {
            storedEntries.remove(at: old)
            text.remove(at: old)
        }
        rows[id] = new.map { VaultRow(entry: $0, version: rows[id]?.version ?? 0) }
        if let new {
            let at = insertionIndex(title: new.title, id: new.id)
            storedEntries.insert(new, at: at)
            text.insert(new, at: at)
        }
        searchText = text
    }

    /// Entries in the vault's order (the session's, read from the vault),
    /// with the vault's rows by id: nothing to check or index.
    mutating func setEntries(_ entries: ChunkedArray<Entry>, rows: VaultRows) {
        storedEntries = entries
        self.rows = rows
        unorderedPositions = nil
        searchText = SearchText()
    }

    /// The vault's rows, once the entries changed have been replaced: the
    /// same entries `replace` put in, with their new row versions (it
    /// keeps an entry's old one), and shared instead of patched.
    mutating func setRows(_ rows: VaultRows) { self.rows = rows }

    private mutating func reindex() {
        let old = rows
        rows = VaultRows()
        var ordered = true
        var previous: (key: [UInt8], id: String)?
        for entry in storedEntries {
            rows[entry.id] = VaultRow(entry: entry, version: old[entry.id]?.version ?? 0)
            let key = (key: TitleOrder.key(entry.title), id: entry.id)
            if let last = previous, !TitleOrder.precedes(last, key) { ordered = false }
            previous = key
        }
        unorderedPositions = ordered ? nil
            : Dictionary(storedEntries.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        searchText = SearchText()
    }
}
