import BulwarkCore
import Foundation

/// The message log: every message of the session, whole (wrapped), each
/// with its time and outcome, the newest at the bottom.
enum LogView {
    /// As tall as its lines need (a line of room above the footer), up to the window's height.
    static func area(_ state: AppState) -> (width: Int, height: Int) {
        (width(state), max(5, min(state.height - 4, max(1, lineCount(state)) + 4)))
    }

    static func width(_ state: AppState) -> Int { min(state.width - 4, 100) }

    /// The log as the dialog's lines at its width: "HH:MM:SS ✓ text", continued under the text.
    static func lines(_ state: AppState) -> [Line] {
        let inner = max(10, width(state) - 4)
        var out: [Line] = []
        for line in state.log {
            let time = CalendarDay.time(line.at)
            let mark = line.ok.map { $0 ? "✓ " : "✗ " } ?? "  "
            let markStyle = line.ok.map { $0 ? Theme.success : Theme.danger } ?? Theme.dim
            let indent = DisplayWidth.of(time) + 1 + 2
            let wrapped = TextWrap.wrap(line.text, width: max(1, inner - indent))
            for (index, text) in wrapped.enumerated() {
                out.append(index == 0 ? Line([Span(time + " ", Theme.dim), Span(mark, markStyle), Span(text)])
                                      : Line([Span(String(repeating: " ", count: indent)), Span(text)]))
            }
        }
        return out
    }

    static func lineCount(_ state: AppState) -> Int { lines(state).count }

    static func render(_ state: AppState, into buffer: inout Buffer) {
        guard case .log(let up)? = state.overlay else { return }
        let (width, height) = area(state)
        let inner = Modal.render(into: &buffer, within: buffer.area, width: width, height: height,
                                 title: Line("Messages of this session", Theme.title), rightTitle: Line("\(state.log.count)", Theme.dim))
        let all = lines(state)
        let rows = max(0, inner.height - 2)
        if all.isEmpty {
            buffer.put("Nothing has been said yet.", x: inner.x, y: inner.y + 1, style: Theme.dim, clip: inner)
        }
        // The window ends `up` lines above the newest.
        let end = max(0, all.count - min(up, max(0, all.count - rows)))
        let start = max(0, end - rows)
        for (offset, line) in all[start..<end].enumerated() {
            line.render(into: &buffer, x: inner.x, y: inner.y + offset, clip: inner)
        }
        if start > 0 { buffer.put("↑ older", x: inner.maxX - 7, y: inner.y, style: Theme.dim, clip: inner) }
        Footer.render(into: &buffer, area: Rect(x: inner.x, y: inner.maxY - 1, width: inner.width, height: 1),
                      hints: Keymaps.log(state).footerHints, keyStyle: Theme.key, pinned: 2)
    }
}
