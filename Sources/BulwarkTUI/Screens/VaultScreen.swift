import BulwarkCore

/// The vault: the list of entries on the left, the selected entry on the right.
enum VaultScreen {
    static let leftPercent = 45

    static func render(_ state: AppState, chrome: Chrome, into buffer: inout Buffer) {
        let (left, right) = chrome.splitPanes(into: &buffer, leftPercent: leftPercent)
        renderList(state, area: left, into: &buffer)
        renderDetail(state.selectedEntry, area: right, into: &buffer)
    }

    /// Rows cut to `width` cells with an ellipsis; the last column stays
    /// free for the scrollbar so a long list does not cut rows differently.
    static func listRow(_ entry: EntrySummary, width: Int) -> Line {
        let usable = max(0, width - 1)
        let titleWidth = min(22, max(8, usable * 11 / 20))
        return Line([
            Span(DisplayWidth.pad(entry.title, to: titleWidth) + " "),
            Span(DisplayWidth.truncate(entry.username, to: max(0, usable - titleWidth - 1)), Theme.dim),
        ])
    }

    static func renderList(_ state: AppState, area: Rect, into buffer: inout Buffer) {
        let entries = state.entries
        ListView(count: entries.count, row: { listRow(entries[$0], width: area.width) }, scroll: state.list,
                 selectionStyle: Theme.selection, emptyText: "No entries yet.")
            .render(into: &buffer, area: area)
    }

    static func renderDetail(_ entry: EntrySummary?, area: Rect, into buffer: inout Buffer) {
        guard let entry, !area.isEmpty else { return }
        buffer.put(DisplayWidth.truncate(entry.title, to: area.width), x: area.x, y: area.y, style: Theme.heading, clip: area)
        let fields: [(String, String)] = [
            ("Username", entry.username),
            ("Website", entry.site),
            ("Category", entry.category.label),
            ("Tags", entry.tags.isEmpty ? "—" : entry.tags.joined(separator: ", ")),
        ]
        for (index, field) in fields.enumerated() {
            let y = area.y + 2 + index
            buffer.put(DisplayWidth.pad(field.0, to: 10), x: area.x, y: y, style: Theme.label, clip: area)
            buffer.put(field.1, x: area.x + 10, y: y, clip: area)
        }
    }
}
