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
        let column = max(10, (inner.width - 12) / 2)
        var y = inner.y + 5
        buffer.put(DisplayWidth.truncate(conflict.from, to: column), x: inner.x + 11, y: y, style: Theme.heading, clip: inner)
        buffer.put("This machine", x: inner.x + 12 + column, y: y, style: Theme.heading, clip: inner)
        y += 1
        if rows.isEmpty {
            buffer.put("The same fields: only the time of the change differs.", x: inner.x, y: y, style: Theme.dim, clip: inner)
        }
        for row in rows {
            buffer.put(DisplayWidth.pad(row.field, to: 10), x: inner.x, y: y, style: Theme.label, clip: inner)
            buffer.put(DisplayWidth.truncate(row.theirs.replacingOccurrences(of: "(theirs)", with: "(\(conflict.from))"), to: column),
                       x: inner.x + 11, y: y, clip: inner)
            buffer.put(DisplayWidth.truncate(row.mine.replacingOccurrences(of: "(yours)", with: "(here)"), to: column),
                       x: inner.x + 12 + column, y: y, clip: inner)
            y += 1
        }
        Footer.render(into: &buffer, area: Rect(x: inner.x, y: inner.maxY - 1, width: inner.width, height: 1),
                      hints: Keymaps.syncConflict(state).footerHints, keyStyle: Theme.key)
    }
}
