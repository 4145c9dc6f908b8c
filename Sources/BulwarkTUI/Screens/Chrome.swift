/// The frame every main screen shares: an outer border whose top edge holds
/// the title and the lock state, a body, a status row and a footer of keys.
///
///     ┌ bulwark ─ Vault ────────────── unlocked · 12 items ┐
///     │ body                                               │
///     ├────────────────────────────────────────────────────┤
///     │ status                                             │
///     │ ↑↓ move  ? help  q quit                            │
///     └────────────────────────────────────────────────────┘
public struct Chrome {
    public let outer: Rect
    public let body: Rect
    public let separatorRow: Int
    public let statusRow: Rect
    public let footerRow: Rect

    public init(_ area: Rect) {
        outer = area
        let inner = Block.inner(area)
        footerRow = Rect(x: inner.x + 1, y: inner.maxY - 1, width: inner.width - 2, height: 1)
        statusRow = Rect(x: inner.x + 1, y: inner.maxY - 2, width: inner.width - 2, height: 1)
        separatorRow = inner.maxY - 3
        body = Rect(x: inner.x, y: inner.y, width: inner.width, height: inner.height - 3)
    }

    public func render(into buffer: inout Buffer, title: String, rightTitle: String,
                       status: Line?, hints: [(key: String, label: String)]) {
        Block(title: Line([Span("bulwark", Theme.title), Span(" ─ " + title, Theme.heading)]),
              rightTitle: Line(rightTitle), borderStyle: Theme.border).render(into: &buffer, area: outer)
        buffer.put("├" + String(repeating: "─", count: max(0, outer.width - 2)) + "┤",
                   x: outer.x, y: separatorRow, style: Theme.border)
        // A status longer than the row ends in "…": the person sees there was more.
        if let status { status.truncated(to: statusRow.width).render(into: &buffer, x: statusRow.x, y: statusRow.y, clip: statusRow) }
        // Help, quit and the way between the vault and the recommendations
        // are never dropped; lesser hints go first when the row is short.
        let pinned = hints.reversed().prefix { $0.key == "?" || $0.key == "q" || $0.key == "Tab" }.count
        Footer.render(into: &buffer, area: footerRow, hints: hints, keyStyle: Theme.key, pinned: pinned)
    }

    /// Splits the body into two panes with a vertical rule that joins the
    /// top border (┬) and the status separator (┴).
    public func splitPanes(into buffer: inout Buffer, leftPercent: Int) -> (left: Rect, right: Rect) {
        let columns = Layout.split(body, .horizontal, [.percent(leftPercent), .fixed(1), .fill])
        let rule = columns[1]
        if rule.width == 1 {
            for y in body.y..<body.maxY { buffer.put("│", x: rule.x, y: y, style: Theme.border) }
            buffer.put("┬", x: rule.x, y: outer.y, style: Theme.border)
            buffer.put("┴", x: rule.x, y: separatorRow, style: Theme.border)
        }
        return (columns[0].inset(horizontal: 1, vertical: 0), columns[2].inset(horizontal: 1, vertical: 0))
    }
}
