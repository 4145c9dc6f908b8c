import BulwarkCore
import Foundation

/// "Alpha changed in another bulwark": the fields that differ, theirs
/// beside yours (passwords never shown, only whether they differ), and the
/// three ways to settle it.
enum ConflictDialog {
    static func render(_ state: AppState, into buffer: inout Buffer) {
        guard let conflict = state.conflict else { return }
        let mine = conflict.mine
        let rows = differences(mine: mine, theirs: conflict.theirs)
        let height = 8 + max(rows.count, 1)
        let inner = Modal.render(into: &buffer, within: buffer.area, width: min(buffer.width - 4, 76), height: height,
                                 title: Line("\(mine.title) \(conflict.theirs == nil ? "was deleted" : "changed") in another bulwark", Theme.warning))
        let intro = conflict.theirs == nil
            ? "Another bulwark deleted this entry while you edited it. Nothing is lost until you choose."
            : "Another bulwark saved this entry while you edited it. Nothing is lost: a password not kept goes into the history, any other value into a field marked as yours or theirs."
        Paragraph(intro).render(into: &buffer, area: Rect(x: inner.x, y: inner.y, width: inner.width, height: 3))
        renderDifferences(rows, headings: ("Theirs", "Yours"), from: inner.y + 4, in: inner, into: &buffer)
        Footer.render(into: &buffer, area: Rect(x: inner.x, y: inner.maxY - 1, width: inner.width, height: 1),
                      hints: Keymaps.conflict(state).footerHints, keyStyle: Theme.key)
    }

    /// The two versions side by side under their headings, from row `top`.
    static func renderDifferences(_ rows: [(field: String, theirs: String, mine: String)], headings: (theirs: String, mine: String),
                                  from top: Int, in inner: Rect, into buffer: inout Buffer) {
        let column = max(10, (inner.width - 12) / 2)
        var y = top
        buffer.put(DisplayWidth.truncate(headings.theirs, to: column), x: inner.x + 11, y: y, style: Theme.heading, clip: inner)
        buffer.put(headings.mine, x: inner.x + 12 + column, y: y, style: Theme.heading, clip: inner)
        y += 1
        if rows.isEmpty {
            buffer.put("The same fields: only the time of the change differs.", x: inner.x, y: y, style: Theme.dim, clip: inner)
        }
        for row in rows {
            buffer.put(DisplayWidth.pad(row.field, to: 10), x: inner.x, y: y, style: Theme.label, clip: inner)
            buffer.put(DisplayWidth.truncate(row.theirs, to: column), x: inner.x + 11, y: y, clip: inner)
            buffer.put(DisplayWidth.truncate(row.mine, to: column), x: inner.x + 12 + column, y: y, clip: inner)
            y += 1
        }
    }

    /// The fields the two versions disagree on, as the dialog shows them.
    static func differences(mine: Entry, theirs: Entry?) -> [(field: String, theirs: String, mine: String)] {
        guard let theirs else { return [("Entry", "(deleted)", "edited")] }
        var rows: [(String, String, String)] = []
        func compare(_ field: String, _ a: String, _ b: String) { if a != b { rows.append((field, a.isEmpty ? "(empty)" : a, b.isEmpty ? "(empty)" : b)) } }
        compare("Title", theirs.title, mine.title)
        compare("Website", theirs.urls.joined(separator: " "), mine.urls.joined(separator: " "))
        compare("Username", theirs.username, mine.username)
        if theirs.password != mine.password { rows.append(("Password", "•••••• (theirs)", "•••••• (yours)")) }
        compare("Notes", theirs.notes.replacingOccurrences(of: "\n", with: " "), mine.notes.replacingOccurrences(of: "\n", with: " "))
        compare("Tags", theirs.tags.joined(separator: ", "), mine.tags.joined(separator: ", "))
        return rows
    }
}
