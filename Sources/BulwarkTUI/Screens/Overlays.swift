/// The dialogs drawn over a screen.
enum Overlays {
    /// The `?` overlay: every binding of the keymap it was opened over (a
    /// dialog's, or the screen's), with disabled ones dimmed and their reason given.
    static func renderHelp(_ state: AppState, into buffer: inout Buffer) {
        let keymap = Keymaps.beneathHelp(state)
        let keyColumn = min(12, max(8, keymap.bindings.map { DisplayWidth.of($0.keyLabel) }.max() ?? 0) + 2)
        let width = min(buffer.width - 4, 100)
        // One column when it fits the window's height, else two.
        let rowsAvailable = max(1, buffer.height - 7)
        let columns = keymap.bindings.count > rowsAvailable ? 2 : 1
        let rows = (keymap.bindings.count + columns - 1) / columns
        let height = min(buffer.height - 2, rows + 5)
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
        for (index, binding) in keymap.bindings.enumerated() {
            let column = index / rows, row = index % rows
            guard row < body.height else { continue }
            let off = binding.disabledReason != nil
            let help = binding.help + (binding.disabledReason.map { " (off: \($0))" } ?? "")
            let cell = Rect(x: body.x + column * columnWidth, y: body.y + row, width: columnWidth - (column + 1 < columns ? 2 : 0), height: 1)
            Line([Span(DisplayWidth.pad(binding.keyLabel, to: keyColumn), off ? Theme.dim : Theme.key),
                  Span(DisplayWidth.truncate(help, to: max(0, cell.width - keyColumn)), off ? Theme.dim : .plain)])
                .render(into: &buffer, x: cell.x, y: cell.y, clip: cell)
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
