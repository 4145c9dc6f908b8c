import BulwarkCore

/// The Files dialog: the entry's files by name, size and type; below the
/// list, the path being typed or the question before opening or removing one.
enum FilesView {
    static func render(_ state: AppState, into buffer: inout Buffer) {
        guard let browser = state.files, let entry = state.entry(id: browser.entryID) else { return }
        let files = entry.attachments
        let asking = browser.prompt != nil || browser.asking
        let width = min(buffer.width - 4, 76)
        let height = min(buffer.height - 2, max(1, files.count) + 4 + (asking ? 3 : 0))
        let inner = Modal.render(into: &buffer, within: buffer.area, width: width, height: height,
                                 title: Line("Files of \(entry.title)", Theme.title), rightTitle: Line("\(files.count)", Theme.dim))
        let listArea = Rect(x: inner.x, y: inner.y + 1, width: inner.width, height: max(0, inner.height - 2 - (asking ? 3 : 0)))
        let sizeWidth = 10
        ListView(count: files.count, row: { index in
                     let file = files[index]
                     let typeWidth = min(24, max(0, inner.width / 3))
                     let nameWidth = max(0, inner.width - sizeWidth - typeWidth - 4)
                     return Line([
                         Span(DisplayWidth.pad(DisplayWidth.truncate(file.name, to: nameWidth), to: nameWidth) + "  "),
                         Span(DisplayWidth.pad(ByteSize.text(file.size), to: sizeWidth) + "  ", Theme.dim),
                         Span(DisplayWidth.truncate(file.mediaType, to: typeWidth), Theme.dim),
                     ])
                 },
                 scroll: browser.list, selectionStyle: asking ? Theme.dim : Theme.selection,
                 emptyText: "No files yet: a attaches one.", id: .files)
            .render(into: &buffer, area: listArea)
        let y = inner.maxY - 4
        if let name = browser.confirmOpen {
            Paragraph("Open \(name) with the desktop's opener? A copy is written to a folder only you can read, removed when the vault locks.")
                .render(into: &buffer, area: Rect(x: inner.x, y: y, width: inner.width, height: 2))
        } else if let name = browser.confirmRemove {
            Paragraph("Remove \(name) from \(entry.title)? " + (browser.removeKeepsBytes ? "Another entry holds the same file; it keeps it."
                                                                     : "Its bytes leave the vault; z cannot bring them back (a backup can)."))
                .render(into: &buffer, area: Rect(x: inner.x, y: y, width: inner.width, height: 2))
        } else if let prompt = browser.prompt {
            let label: String
            switch prompt {
            case .save: label = "Save to"
            case .attach: label = "Attach"
            }
            buffer.put(label, x: inner.x, y: y + 1, style: Theme.label, clip: inner)
            let x = inner.x + 9, fieldWidth = max(0, inner.width - 11)
            buffer.put("[", x: x - 1, y: y + 1, style: Theme.dim, clip: inner)
            browser.field.render(into: &buffer, area: Rect(x: x, y: y + 1, width: fieldWidth, height: 1), focused: true, style: Style(underline: true))
            buffer.put("]", x: x + fieldWidth, y: y + 1, style: Theme.dim, clip: inner)
        }
        Footer.render(into: &buffer, area: Rect(x: inner.x, y: inner.maxY - 1, width: inner.width, height: 1),
                      hints: Keymaps.files(state).footerHints, keyStyle: Theme.key, pinned: 2)
    }
}
