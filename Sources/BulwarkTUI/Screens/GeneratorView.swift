import BulwarkCore

/// The generator's sheet over the form: its choices, one a row (the focused
/// one reversed), then the sample, its bits and what the site's rules
/// changed, then the keys. At 60x16 every row of a password's choices fits
/// with a sample and one note.
enum GeneratorView {
    static let labelWidth = 19

    static func render(_ state: AppState, into buffer: inout Buffer) {
        guard let sheet = state.generatorSheet else { return }
        // Inside the form it fills (64 wide at most): 4 columns of the form show on each side.
        let width = min(buffer.width - 12, 56)
        let textWidth = max(1, width - 4)
        let sampleLines = sheet.sample.map { TextWrap.wrap($0.value, width: textWidth) } ?? ["…"]
        let about = sheet.sample.map { "\(String(format: "%.1f", $0.bits)) bits: \($0.summary)" } ?? "Nothing can be made for these choices and this site's rules."
        let aboutLines = TextWrap.wrap(about, width: textWidth)
        // Choices, a blank row, the sample, what it is, the notes (each whole, as many as fit), a blank row, the keys.
        let fixed = sheet.rows.count + 1 + sampleLines.count + aboutLines.count + 2
        let room = max(0, buffer.height - 2 - 2 - fixed)
        var notes: [String] = []
        for note in sheet.sample?.notes ?? [] {
            let lines = TextWrap.wrap("• " + note, width: textWidth)
            guard notes.count + lines.count <= room else { break }
            notes += lines
        }
        let height = min(buffer.height - 2, fixed + notes.count + 2)
        let title = sheet.site.isEmpty ? "Generate" : "Generate for " + Domain.normalize(sheet.site)
        let inner = Modal.render(into: &buffer, within: buffer.area, width: width, height: height,
                                 title: Line(DisplayWidth.truncate(title, to: max(1, width - 16)), Theme.title), rightTitle: Line("Esc cancel", Theme.dim))
        var y = inner.y
        for (index, row) in sheet.rows.enumerated() where y < inner.maxY - 1 {
            let focused = index == sheet.focus
            let label = DisplayWidth.pad(row.rawValue, to: labelWidth)
            let line = Line([Span(label, focused ? Theme.selection : Theme.label), Span(" "), Span(sheet.value(row), focused ? Theme.heading : .plain)])
            line.render(into: &buffer, x: inner.x, y: y, clip: inner)
            y += 1
        }
        y += 1
        for text in sampleLines where y < inner.maxY - 1 {
            buffer.put(text, x: inner.x, y: y, style: Theme.heading, clip: inner)
            y += 1
        }
        for text in aboutLines where y < inner.maxY - 1 {
            buffer.put(text, x: inner.x, y: y, style: sheet.sample == nil ? Theme.warning : Theme.dim, clip: inner)
            y += 1
        }
        for text in notes where y < inner.maxY - 1 {
            buffer.put(text, x: inner.x, y: y, style: Theme.warning, clip: inner)
            y += 1
        }
        Footer.render(into: &buffer, area: Rect(x: inner.x, y: inner.maxY - 1, width: inner.width, height: 1),
                      hints: Keymaps.generator(state).footerHints, keyStyle: Theme.key, pinned: 2)
    }
}
