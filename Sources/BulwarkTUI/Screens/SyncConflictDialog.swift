import BulwarkCore
import Foundation

/// "Bank changed on this machine and on laptop": what the merge kept, the
/// fields the two sides disagree on (passwords never shown), and the choice.
enum SyncConflictDialog {
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
