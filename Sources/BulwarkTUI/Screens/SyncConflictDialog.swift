import BulwarkCore
import Foundation

/// "Bank changed on this machine and on laptop": what the merge kept, the
/// fields the two sides disagree on (passwords never shown), and the choice;
/// and the dialog that asks for a master password another machine set.
enum SyncConflictDialog {
    static func renderRekey(_ state: AppState, into buffer: inout Buffer) {
        guard let field = state.rekey?.field else { return }
        let width = min(buffer.width - 4, 64)
        let intro = Paragraph("The master password was changed on another machine. Type the new one: this vault will open with it, "
                              + "here as there. The old one opens only copies made before.")
        let introLines = min(4, intro.layout(width: width - 4).count)
        let inner = Modal.render(into: &buffer, within: buffer.area, width: width, height: introLines + 7,
                                 title: Line("New master password", Theme.warning))
        intro.render(into: &buffer, area: Rect(x: inner.x, y: inner.y, width: inner.width, height: introLines))
        let y = inner.y + introLines + 1, fieldWidth = max(0, inner.width - 12)
        buffer.put("Password", x: inner.x, y: y, style: Theme.label, clip: inner)
        buffer.put("[", x: inner.x + 9, y: y, style: Theme.dim, clip: inner)
        field.render(into: &buffer, area: Rect(x: inner.x + 10, y: y, width: fieldWidth, height: 1), focused: !state.busy,
                     style: Style(underline: true))
        buffer.put("]", x: inner.x + 10 + fieldWidth, y: y, style: Theme.dim, clip: inner)
        if let error = state.rekey?.error {
            buffer.put(DisplayWidth.truncate("✗ " + error, to: inner.width), x: inner.x, y: y + 2, style: Theme.danger, clip: inner)
        } else if state.busy {
            buffer.put("Opening the vault with it…", x: inner.x, y: y + 2, style: Theme.dim, clip: inner)
        }
        Footer.render(into: &buffer, area: Rect(x: inner.x, y: inner.maxY - 1, width: inner.width, height: 1),
                      hints: Keymaps.syncRekey(state).footerHints, keyStyle: Theme.key)
    }

    static func render(_ state: AppState, into buffer: inout Buffer) {
        guard let conflict = state.sync.conflicts.first else { return }
        let rows = conflict.mine.map { ConflictDialog.differences(mine: $0, theirs: conflict.theirs) } ?? []
        let width = min(buffer.width - 4, 76)
        let intro = Paragraph("Both machines changed the same fields before they synced. Nothing is lost: \(conflict.kept).")
        // As tall as its words: the intro (at most four lines), a blank line, the table, the keys.
        let introLines = min(4, intro.layout(width: width - 4).count)
        let more = state.sync.conflicts.count > 1 ? " (1 of \(state.sync.conflicts.count))" : ""
        let inner = Modal.render(into: &buffer, within: buffer.area, width: width, height: introLines + 5 + max(rows.count, 1),
                                 title: Line("\(conflict.title) changed here and on \(conflict.from)\(more)", Theme.warning))
        intro.render(into: &buffer, area: Rect(x: inner.x, y: inner.y, width: inner.width, height: introLines))
        let labelled = rows.map { row in
            (field: row.field, theirs: row.theirs.replacingOccurrences(of: "(theirs)", with: "(\(conflict.from))"),
             mine: row.mine.replacingOccurrences(of: "(yours)", with: "(here)"))
        }
        ConflictDialog.renderDifferences(labelled, headings: (conflict.from, "This machine"), from: inner.y + introLines + 1, in: inner,
                                         into: &buffer)
        Footer.render(into: &buffer, area: Rect(x: inner.x, y: inner.maxY - 1, width: inner.width, height: 1),
                      hints: Keymaps.syncConflict(state).footerHints, keyStyle: Theme.key)
    }
}
