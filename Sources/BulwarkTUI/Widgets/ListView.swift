/// A scrollable list with one selected row and a scrollbar when the rows do
/// not fit. The scroll offset is state the caller keeps (`ListScroll`): the
/// list draws from it, moved only as far as the selection needs, and
/// records the window it drew in the buffer for the state to keep.
public struct ListScroll: Sendable, Hashable {
    public var selected: Int
    public var offset: Int

    public init(selected: Int = 0, offset: Int = 0) {
        self.selected = selected
        self.offset = offset
    }

    /// Moves the selection by `delta`, clamped to `count` rows.
    public mutating func move(by delta: Int, count: Int) {
        guard count > 0 else { selected = 0; offset = 0; return }
        selected = min(max(0, selected + delta), count - 1)
    }

    public mutating func select(_ index: Int, count: Int) {
        selected = count > 0 ? min(max(0, index), count - 1) : 0
    }

    /// The offset that keeps the selection visible in `height` rows, moving
    /// the window as little as possible.
    public func visibleOffset(height: Int, count: Int) -> Int {
        guard height > 0, count > height else { return 0 }
        var top = min(offset, count - height)
        if selected < top { top = selected }
        if selected >= top + height { top = selected - height + 1 }
        return max(0, top)
    }
}

/// Rows are asked for by index and only for the visible window, so a list
/// of 100k entries costs what a screenful costs.
public struct ListView {
    public var count: Int
    public var row: (Int) -> Line
    public var scroll: ListScroll
    public var selectionStyle: Style
    public var focused: Bool
    public var emptyText: String
    /// Which list the rows are: for clicks, and for the window it records.
    public var id: ListID?

    public init(rows: [Line], scroll: ListScroll, selectionStyle: Style = Style(reverse: true),
                focused: Bool = true, emptyText: String = "Nothing here.") {
        self.init(count: rows.count, row: { rows[$0] }, scroll: scroll, selectionStyle: selectionStyle,
                  focused: focused, emptyText: emptyText)
    }

    public init(count: Int, row: @escaping (Int) -> Line, scroll: ListScroll, selectionStyle: Style = Style(reverse: true),
                focused: Bool = true, emptyText: String = "Nothing here.", id: ListID? = nil) {
        self.id = id
        self.count = count
        self.row = row
        self.scroll = scroll
        self.selectionStyle = selectionStyle
        self.focused = focused
        self.emptyText = emptyText
    }

    /// Draws the rows; returns the offset used, for the caller to keep.
    @discardableResult
    public func render(into buffer: inout Buffer, area: Rect) -> Int {
        guard !area.isEmpty else { return 0 }
        if count == 0 {
            if let id { buffer.listWindows[id] = ListWindow(offset: 0, rows: area.height) }
            buffer.put(DisplayWidth.truncate(emptyText, to: area.width), x: area.x, y: area.y, style: Style(dim: true), clip: area)
            return 0
        }
        let needsBar = count > area.height && area.width > 2
        let content = Rect(x: area.x, y: area.y, width: area.width - (needsBar ? 1 : 0), height: area.height)
        let offset = scroll.visibleOffset(height: area.height, count: count)
        if let id { buffer.listWindows[id] = ListWindow(offset: offset, rows: area.height) }
        for visible in 0..<min(area.height, count - offset) {
            let index = offset + visible
            let y = area.y + visible
            row(index).render(into: &buffer, x: content.x, y: y, clip: content)
            if let id { buffer.addHotspot(Rect(x: content.x, y: y, width: content.width, height: 1), .row(id, index)) }
            if index == scroll.selected {
                let style = focused ? selectionStyle : Style(bold: true)
                buffer.applyStyle(style, to: Rect(x: content.x, y: y, width: content.width, height: 1))
            }
        }
        if needsBar {
            Scrollbar.render(into: &buffer, area: Rect(x: area.maxX - 1, y: area.y, width: 1, height: area.height),
                             total: count, visible: area.height, offset: offset)
        }
        return offset
    }
}

/// A vertical scrollbar: a dim track and a thumb sized to the visible share.
public enum Scrollbar {
    public static func render(into buffer: inout Buffer, area: Rect, total: Int, visible: Int, offset: Int) {
        guard area.height > 0, total > visible else { return }
        let track = area.height
        let thumb = max(1, track * visible / total)
        let maxOffset = total - visible
        let start = maxOffset == 0 ? 0 : (track - thumb) * offset / maxOffset
        for row in 0..<track {
            let inThumb = row >= start && row < start + thumb
            buffer.put(inThumb ? "┃" : "│", x: area.x, y: area.y + row, style: inThumb ? .plain : Style(dim: true))
        }
    }
}
