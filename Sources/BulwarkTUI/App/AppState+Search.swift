import BulwarkCore

/// One search's result, kept while the query grows: rubbing a character
/// out goes back to the step before, and a character typed searches among
/// the last step's matches, not the vault.
struct SearchStep {
    let filter: VaultFilter
    let text: SearchText
    /// The matches by rank (words in the title, words anywhere, letters in order), each ascending…
    let ranks: [[Int]]
    /// …and those with every word (in the title or anywhere), ascending:
    /// the only entries where a longer query can find its words.
    let wordMatches: [Int]
}

extension AppState {
    /// Selects an entry in the vault list when the filter shows it.
    mutating func showInList(_ id: String) {
        if let index = visible.firstIndex(where: { snapshot.entries[$0].id == id }) { list.select(index, count: visible.count) }
    }

    /// The vault screen with every entry listed (no search, no filter) and `id` selected.
    mutating func showInVault(_ id: String) {
        screen = .vault
        search = nil
        filter = VaultFilter()
        refilter()
        showInList(id)
    }

    /// Recomputes `visible` from the filter: a fuzzy search over title,
    /// username and site, ranked (every word in the title first, then every
    /// word anywhere, then the query's letters in order), a category, an order.
    public mutating func refilter() {
        defer { list.select(min(list.selected, max(0, visible.count - 1)), count: visible.count) }
        let entries = snapshot.entries
        let prefixed = SearchPrefixes(filter.query)
        // A bare "user:" being typed is not a word to search for.
        let query = prefixed.rest
        let words = query.split(separator: " ").map { Array($0.utf8) }
        let letters = Array(query.utf8.filter { $0 != 0x20 })
        let text = snapshot.searchText
        searchTrail.removeAll { $0.text !== text || $0.filter.category != filter.category || $0.filter.tag != filter.tag }
        // `title:`, `user:`, `url:` and `tag:` words narrow first; the rest is searched among what is left.
        if !prefixed.isEmpty {
            let narrowed = (filter.category == nil && filter.tag == nil ? Array(entries.indices) : filteredEntries()).filter { prefixed.admits(entries[$0]) }
            let rest = prefixed.rest.split(separator: " ").map { Array($0.utf8) }
            guard !rest.isEmpty else {
                visible = ordered(narrowed)
                return
            }
            var ranks = text.matches(words: rest, letters: nil, among: narrowed, entries: entries)
            if ranks[0].isEmpty && ranks[1].isEmpty {
                ranks[2] = text.matches(words: [], letters: Array(prefixed.rest.utf8.filter { $0 != 0x20 }), among: narrowed, entries: entries)[2]
            }
            visible = ordered(ranks: ranks)
            return
        }
        // Everything, in the vault's order: no search at all.
        if words.isEmpty && filter.category == nil && filter.tag == nil {
            searchTrail = []
            visible = ordered(Array(entries.indices))
            return
        }
        // The same query as a step before (a character rubbed out).
        if let known = searchTrail.lastIndex(where: { $0.filter.query == filter.query }) {
            searchTrail.removeSubrange((known + 1)...)
            let step = searchTrail[known]
            visible = ordered(ranks: step.ranks)
            return
        }
        // Whatever has the words of a longer query had those of the
        // shorter one (each old word is inside a new one).
        searchTrail.removeAll { !filter.query.hasPrefix($0.filter.query) }
        let filtered = filter.category == nil && filter.tag == nil ? nil : filteredEntries()
        let candidates = searchTrail.last?.wordMatches ?? filtered
        guard !words.isEmpty else {
            visible = ordered(candidates ?? [])
            return
        }
        var ranks = text.matches(words: words, letters: nil, among: candidates, entries: entries)
        // The query's letters scattered in order are a last resort: only
        // when no entry has the words themselves ("bank" is not "Bookshop").
        if ranks[0].isEmpty && ranks[1].isEmpty {
            ranks[2] = text.matches(words: [], letters: letters, among: filtered, entries: entries)[2]
        }
        visible = ordered(ranks: ranks)
        searchTrail.append(SearchStep(filter: filter, text: text, ranks: ranks, wordMatches: Self.merged([ranks[0], ranks[1]])))
        if searchTrail.count > 64 { searchTrail.removeFirst() }
    }

    /// The entries of the chosen category and tag, ascending.
    private func filteredEntries() -> [Int] {
        var kept: [Int] = []
        snapshot.entries.forEachChunk { start, chunk in
            for (offset, entry) in chunk.enumerated() {
                if let category = filter.category, entry.category != category { continue }
                if let tag = filter.tag, !entry.tags.contains(tag) { continue }
                kept.append(start + offset)
            }
        }
        return kept
    }

    /// Ranked matches, the best first whatever the order: each rank in the
    /// filter's order (searching "mail" sorted by site still puts Mail first).
    private func ordered(ranks: [[Int]]) -> [Int] {
        filter.order == .title ? ranks.flatMap { $0 } : ranks.flatMap { ordered($0) }
    }

    /// Entries (ascending) in the filter's order: by title, by site, or by the password's age.
    private func ordered(_ ascending: [Int]) -> [Int] {
        let entries = snapshot.entries
        switch filter.order {
        case .title: return ascending
        case .site:
            let sites = ascending.map { entries[$0].site }
            return ascending.indices.sorted { (sites[$0], ascending[$0]) < (sites[$1], ascending[$1]) }.map { ascending[$0] }
        case .changed:
            let dates = ascending.map { entries[$0].passwordChanged }
            return ascending.indices.sorted { (dates[$0], ascending[$0]) < (dates[$1], ascending[$1]) }.map { ascending[$0] }
        }
    }

    /// Ascending lists merged into one.
    static func merged(_ lists: [[Int]]) -> [Int] {
        lists.filter { !$0.isEmpty }.reduce([]) { merged, list in
            guard !merged.isEmpty else { return list }
            var out: [Int] = []
            out.reserveCapacity(merged.count + list.count)
            var a = 0, b = 0
            while a < merged.count || b < list.count {
                if b >= list.count || (a < merged.count && merged[a] < list[b]) { out.append(merged[a]); a += 1 } else { out.append(list[b]); b += 1 }
            }
            return out
        }
    }
}
