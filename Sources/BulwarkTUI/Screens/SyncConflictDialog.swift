import BulwarkCore
import Foundation

/// "Bank changed on this machine and on laptop": what the merge kept, the
/// fields the two sides disagree on (passwords never shown), and the choice.
enum SyncConflictDialog {
    static func render(_ state: AppState, into buffer: inout Buffer) {
        guard let conflict = state.sync.conflicts.first else { return }
        let rows = conflict.mine.map { ConflictDialog.differences(mine: $0, theirs: conflict.theirs) } ?? []
        let height = 9 + max(rows.count, 1)
        let more = state.sync.conflicts.count > 1 ? " (1 of \(state.sync.conflicts.count))" : ""
        let inner = Modal.render(into: &buffer, within: buffer.area, width: min(buffer.width - 4, 76), height: height,
                                 title: Line("\(conflict.title) changed here and on \(conflict.from)\(more)", Theme.warning))
        let intro = "Both machines changed the same fields before they synced. Nothing is lost: \(conflict.kept)."
        Paragraph(intro).render(into: &buffer, area: Rect(x: inner.x, y: inner.y, width: inner.width, height: 4))
        let labelled = rows.map { row in
            (field: row.field, theirs: row.theirs.replacingOccurrences(of: "(theirs)", with: "(\(conflict.from))"),
             mine: row.mine.replacingOccurrences(of: "(yours)", with: "(here)"))
        }
        ConflictDialog.renderDifferences(labelled, headings: (conflict.from, "This machine"), from: inner.y + 5, in: inner, into: &buffer)
        Footer.render(into: &buffer, area: Rect(x: inner.x, y: inner.maxY - 1, width: inner.width, height: 1),
                      hints: Keymaps.syncConflict(state).footerHints, keyStyle: Theme.key)
    }
}
