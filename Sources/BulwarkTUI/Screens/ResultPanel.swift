import BulwarkCore

/// The upgrade's result, until dismissed, and an entry's old passwords.
enum ResultPanel {
    static let labelWidth = 9

    static func render(_ state: AppState, into buffer: inout Buffer) {
        guard let result = state.result else { return }
        let width = min(buffer.width - 4, 76)
        let textWidth = max(1, width - 4 - labelWidth)
        // Wrapped when the window has the rows; else one row a line, cut,
        // so that what the service did and what the vault holds stay in view.
        func rows(wrapping: Bool) -> [(label: String, line: Line)] {
            var rows: [(label: String, line: Line)] = []
            func section(_ label: String, _ texts: [String], _ style: Style = .plain) {
                for (index, text) in texts.enumerated() {
                    let pieces = wrapping ? TextWrap.wrap(text, width: textWidth) : [DisplayWidth.truncate(text, to: textWidth)]
                    for (part, piece) in pieces.enumerated() {
                        rows.append((index == 0 && part == 0 ? label : "", Line(piece, index == 0 && style != .plain ? style : .plain)))
                    }
                }
            }
            // The severity in the colour the list and the detail give it (a medium one plain, a low one dim).
            let severity = result.beforeSeverity.map(Theme.severityStyle) ?? .plain
            if result.ending == .upgraded {
                section("Before", result.before, severity)
                section("After", result.after, Theme.success)
            } else {
                section("Findings", result.before == ["No findings"] ? result.before : result.before + ["(unchanged)"], severity)
            }
            section("Service", [result.service])
            section("Vault", result.vault, result.ending == .upgraded ? .plain : Theme.heading)
            return rows
        }
        let room = max(0, buffer.height - 2 - 5)
        let wrapped = rows(wrapping: true)
        let rows = wrapped.count <= room ? wrapped : rows(wrapping: false)
        // A blank row above the rows and one above the keys.
        let height = min(buffer.height - 2, rows.count + 5)
        let mark = result.ending == .upgraded ? Span("✓ ", Theme.success) : Span("✗ ", result.ending == .failed ? Theme.danger : Theme.warning)
        let inner = Modal.render(into: &buffer, within: buffer.area, width: width, height: height,
                                 title: Line([mark, Span(result.heading, Theme.title)]))
        let visible = max(0, inner.height - 3)
        for (index, row) in rows.prefix(visible).enumerated() {
            let y = inner.y + 1 + index
            buffer.put(row.label, x: inner.x, y: y, style: Theme.label, clip: inner)
            // The last row that fits says more was cut.
            let cut = index == visible - 1 && rows.count > visible
            (cut ? Line(DisplayWidth.truncate(row.line.plainText + "…", to: textWidth)) : row.line)
                .render(into: &buffer, x: inner.x + labelWidth, y: y, clip: inner)
        }
        Footer.render(into: &buffer, area: Rect(x: inner.x, y: inner.maxY - 1, width: inner.width, height: 1),
                      hints: Keymaps.result(state).footerHints, keyStyle: Theme.key, pinned: 1)
    }

    static func renderHistory(_ state: AppState, into buffer: inout Buffer) {
        guard let browser = state.history, let entry = state.entry(id: browser.entryID) else { return }
        let history = entry.history
        let width = min(buffer.width - 4, 76)
        let height = min(buffer.height - 2, history.count + 4)
        let inner = Modal.render(into: &buffer, within: buffer.area, width: width, height: height,
                                 title: Line("Old passwords of \(entry.title)", Theme.title),
                                 rightTitle: Line("\(history.count)", Theme.dim))
        let listArea = Rect(x: inner.x, y: inner.y + 1, width: inner.width, height: max(0, inner.height - 2))
        let secretWidth = min(28, max(8, inner.width / 3))
        ListView(count: history.count, row: { index in
                     let item = history[index]
                     let secret = browser.revealed == index ? item.password : String(repeating: "•", count: 10)
                     let reasonWidth = max(0, inner.width - 12 - secretWidth - 2)
                     return Line([
                         Span(EntryDetail.day(item.changedAt) + "  ", Theme.dim),
                         Span(DisplayWidth.pad(DisplayWidth.truncate(DisplayWidth.pad(secret, to: secretWidth), to: secretWidth), to: secretWidth) + "  ",
                              browser.revealed == index ? .plain : Theme.dim),
                         Span(DisplayWidth.truncate(item.reason, to: reasonWidth)),
                     ])
                 },
                 scroll: browser.list, selectionStyle: Theme.selection, emptyText: "No old passwords.", id: .history)
            .render(into: &buffer, area: listArea)
        Footer.render(into: &buffer, area: Rect(x: inner.x, y: inner.maxY - 1, width: inner.width, height: 1),
                      hints: Keymaps.history(state).footerHints, keyStyle: Theme.key, pinned: 2)
    }
}
