/// The dialogs drawn over a screen.
enum Overlays {
    /// The `?` overlay: every binding of the keymap it was opened over (a
    /// dialog's, or the screen's), with disabled ones dimmed and their reason given.
    static func renderHelp(_ state: AppState, into buffer: inout Buffer) {
        let keymap = Keymaps.beneathHelp(state)
        let keyColumn = min(12, max(8, keymap.bindings.map { DisplayWidth.of($0.keyLabel) }.max() ?? 0) + 2)
        let width = min(buffer.width - 4, 100)
        // Each binding's help wrapped under itself (never cut), in one
        // column when the rows fit the window, else in two.
        let rowsAvailable = max(1, buffer.height - 7)
        // Why a key is off, unless even two columns cannot hold that: then
        // only "(off)" (pressing the key says why in the status line).
        func texts(_ binding: KeyBinding<AppAction>, why: Bool) -> String {
            binding.help + (binding.disabledReason.map { why ? " (off: \($0))" : " (off)" } ?? "")
        }
        func blocks(columnWidth: Int, why: Bool = true) -> [[String]] {
            keymap.bindings.map { TextWrap.wrap(texts($0, why: why), width: max(1, columnWidth - keyColumn)) }
        }
        func rows(_ laid: [[String]], columns: Int) -> Int { (laid.reduce(0) { $0 + $1.count } + columns - 1) / columns }
        var columns = 1
        var laid = blocks(columnWidth: width - 4)
        if rows(laid, columns: 1) > rowsAvailable {
            columns = 2
            laid = blocks(columnWidth: (width - 4) / 2 - 2)
            if rows(laid, columns: 2) > rowsAvailable { laid = blocks(columnWidth: (width - 4) / 2 - 2, why: false) }
        }
        // Whole blocks per column: the first column takes blocks until it holds half the rows.
        let total = laid.reduce(0) { $0 + $1.count }
        var split = laid.count, running = 0
        if columns == 2 {
            for (index, block) in laid.enumerated() {
                if running + block.count > (total + 1) / 2 { split = index; break }
                running += block.count
            }
        }
        let firstRows = laid.prefix(split).reduce(0) { $0 + $1.count }, secondRows = total - firstRows
        let height = min(buffer.height - 2, max(firstRows, secondRows) + 5)
        let inner = Modal.render(into: &buffer, within: buffer.area, width: width, height: height,
                                 title: Line("Keys: " + keymap.title, Theme.title),
                                 rightTitle: Line("Esc close", Theme.dim), style: .plain)
        let body = Rect(x: inner.x, y: inner.y + 1, width: inner.width, height: inner.height - 3)
        // The marks the lists use, explained once.
        Line([Span("Marks  ", Theme.label), Span("‼", Theme.severityStyle(.critical)), Span(" critical  "), Span("!", Theme.severityStyle(.high)),
              Span(" high  "), Span("•", Theme.severityStyle(.medium)), Span(" medium  "), Span("·", Theme.severityStyle(.low)), Span(" low  "),
              Span(Theme.fixableMark, Theme.key), Span(" one key fixes it")])
            .render(into: &buffer, x: inner.x, y: inner.maxY - 1, clip: inner)
        let columnWidth = body.width / columns
        var row = 0
        for (index, binding) in keymap.bindings.enumerated() {
            if index == split { row = 0 }
            let column = index < split ? 0 : 1
            let off = binding.disabledReason != nil
            let x = body.x + column * columnWidth, cellWidth = columnWidth - (column + 1 < columns ? 2 : 0)
            for (line, text) in laid[index].enumerated() {
                guard row < body.height else { break }
                let cell = Rect(x: x, y: body.y + row, width: cellWidth, height: 1)
                // The last row that fits says when more was left out.
                let cut = row == body.height - 1 && (line + 1 < laid[index].count || index + 1 < (column == 0 ? split : laid.count))
                Line([Span(DisplayWidth.pad(line == 0 ? binding.keyLabel : "", to: keyColumn), off ? Theme.dim : Theme.key),
                      Span(cut ? DisplayWidth.truncate(text + " …", to: max(0, cellWidth - keyColumn)) : text, off ? Theme.dim : .plain)])
                    .render(into: &buffer, x: cell.x, y: cell.y, clip: cell)
                row += 1
            }
        }
    }

    static func renderConfirmQuit(into buffer: inout Buffer) {
        let width = min(buffer.width - 4, 56)
        let inner = Modal.render(into: &buffer, within: buffer.area, width: width, height: 7,
                                 title: Line("Quit bulwark?", Theme.warning))
        Paragraph("An upgrade is still talking to its service. If you quit now, bulwark settles it with the service on the next start.")
            .render(into: &buffer, area: Rect(x: inner.x, y: inner.y, width: inner.width, height: 3))
        Footer.render(into: &buffer, area: Rect(x: inner.x, y: inner.maxY - 1, width: inner.width, height: 1),
                      hints: Keymaps.confirmQuit(.init()).footerHints, keyStyle: Theme.key)
    }

    /// Drawn instead of everything when the window is below the minimum.
    static func renderTooSmall(_ state: AppState, into buffer: inout Buffer) {
        let lines = [
            "Please enlarge the window",
            "bulwark needs \(AppState.minimumWidth)x\(AppState.minimumHeight);",
            "this one is \(state.width)x\(state.height).",
            "q quits",
        ]
        let top = max(0, (state.height - lines.count) / 2)
        for (index, text) in lines.enumerated() {
            let cut = DisplayWidth.truncate(text, to: state.width)
            let x = max(0, (state.width - DisplayWidth.of(cut)) / 2)
            buffer.put(cut, x: x, y: top + index, style: index == 0 ? Theme.warning : .plain)
        }
    }
}
