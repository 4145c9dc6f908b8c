import BulwarkCore

/// `f` in the vault: every category and every tag the vault uses, each
/// with how many entries it shows, chosen with the arrows and Enter (the
/// filter it replaces cycled through fourteen states one way).
public struct FilterPicker: Sendable, Equatable {
    public struct Option: Sendable, Equatable {
        public let label: String
        public let category: AccountCategory?
        public let tag: String?
        public let count: Int
    }

    public let options: [Option]
    public var list = ListScroll()

    /// Every account, the categories in use, then the tags, with their counts;
    /// the current filter selected.
    init(entries: some Collection<Entry>, current: VaultFilter) {
        var categories: [AccountCategory: Int] = [:], tags: [String: Int] = [:]
        for entry in entries {
            categories[entry.category, default: 0] += 1
            for tag in Set(entry.tags) { tags[tag, default: 0] += 1 }
        }
        options = [Option(label: "Every account", category: nil, tag: nil, count: entries.count)]
            + AccountCategory.allCases.compactMap { category in
                categories[category].map { Option(label: category.label, category: category, tag: nil, count: $0) }
            }
            + tags.keys.sorted { $0.localizedStandardCompare($1) == .orderedAscending }.map { Option(label: "#" + $0, category: nil, tag: $0, count: tags[$0]!) }
        let selected = options.firstIndex { $0.category == current.category && $0.tag == current.tag } ?? 0
        list.select(selected, count: options.count)
    }

    public var chosen: Option? { options.indices.contains(list.selected) ? options[list.selected] : nil }
}
