import BulwarkCore

/// The command palette: the filter typed, then each action with its key,
/// dimmed with the reason when it is off.
enum PaletteView {
    static func render(_ state: AppState, into buffer: inout Buffer) {
        guard let palette = state.palette else { return }
        let found = PaletteReducer.matches(state)
        let width = min(buffer.width - 4, 76)
        let height = min(buffer.height - 2, max(1, found.count) + 5)
        let inner = Modal.render(into: &buffer, within: buffer.area, width: width, height: height,
                                 title: Line("Actions", Theme.title), rightTitle: Line("\(found.count)", Theme.dim))
        buffer.put(":", x: inner.x, y: inner.y, style: Theme.key, clip: inner)
        palette.field.render(into: &buffer, area: Rect(x: inner.x + 2, y: inner.y, width: max(0, inner.width - 2), height: 1), focused: true,
                             style: Style(underline: true))
        let listArea = Rect(x: inner.x, y: inner.y + 2, width: inner.width, height: max(0, inner.height - 3))
        ListView(count: found.count, row: { index in
                     let binding = found[index]
                     let keyWidth = 10
                     let text = binding.disabledReason.map { "\(binding.help) — \($0)" } ?? binding.help
                     return Line([Span(DisplayWidth.pad(DisplayWidth.truncate(binding.keyLabel, to: keyWidth - 1), to: keyWidth),
                                       binding.disabledReason == nil ? Theme.key : Theme.dim),
                                  Span(DisplayWidth.truncate(text, to: max(0, inner.width - keyWidth - 1)), binding.disabledReason == nil ? .plain : Theme.dim)])  // a column for the scroll bar
                 },
                 scroll: palette.list, selectionStyle: Theme.selection, emptyText: "No action matches.", id: .palette)
            .render(into: &buffer, area: listArea)
        Footer.render(into: &buffer, area: Rect(x: inner.x, y: inner.maxY - 1, width: inner.width, height: 1),
                      hints: Keymaps.palette(state).footerHints, keyStyle: Theme.key, pinned: 1)
    }
}
