/// A bordered box with a title on the left and an optional one on the right.
public struct Block: Sendable {
    public enum Border: Sendable { case square, rounded }

    public var title: Line?
    public var rightTitle: Line?
    public var border: Border
    public var borderStyle: Style

    public init(title: Line? = nil, rightTitle: Line? = nil, border: Border = .square, borderStyle: Style = .plain) {
        self.title = title
        self.rightTitle = rightTitle
        self.border = border
        self.borderStyle = borderStyle
    }

    /// The area inside the border.
    public static func inner(_ area: Rect) -> Rect { area.inset(by: 1) }

    public func render(into buffer: inout Buffer, area: Rect) {
        guard area.width >= 2 && area.height >= 2 else { return }
        let (tl, tr, bl, br) = border == .rounded ? ("╭", "╮", "╰", "╯") : ("┌", "┐", "└", "┘")
        let horizontal = String(repeating: "─", count: area.width - 2)
        buffer.put(tl + horizontal + tr, x: area.x, y: area.y, style: borderStyle)
        buffer.put(bl + horizontal + br, x: area.x, y: area.maxY - 1, style: borderStyle)
        for y in (area.y + 1)..<(area.maxY - 1) {
            buffer.put("│", x: area.x, y: y, style: borderStyle)
            buffer.put("│", x: area.maxX - 1, y: y, style: borderStyle)
        }
        // Titles sit in the top border with a space either side: "┌ Title ─…".
        let titleClip = Rect(x: area.x + 1, y: area.y, width: area.width - 2, height: 1)
        var used = 0
        if let title, area.width > 4 {
            used = Block.drawTitle(title, into: &buffer, x: area.x + 1, y: area.y, maxWidth: area.width - 4, clip: titleClip)
        }
        if let rightTitle {
            let room = area.width - 4 - used - (used > 0 ? 1 : 0)
            if room >= 3 {
                let width = min(rightTitle.width, room - 2)
                let x = area.maxX - 1 - width - 2
                Block.drawTitle(rightTitle, into: &buffer, x: x, y: area.y, maxWidth: width, clip: titleClip)
            }
        }
    }

    @discardableResult
    static func drawTitle(_ title: Line, into buffer: inout Buffer, x: Int, y: Int, maxWidth: Int, clip: Rect) -> Int {
        guard maxWidth > 0 else { return 0 }
        buffer.put(" ", x: x, y: y, clip: clip)
        let inner = Rect(x: x + 1, y: y, width: maxWidth, height: 1).intersection(clip)
        var spans = title.spans
        if title.width > maxWidth {
            spans = [Span(DisplayWidth.truncate(title.plainText, to: maxWidth), title.spans.first?.style ?? .plain)]
        }
        let written = Line(spans).render(into: &buffer, x: x + 1, y: y, clip: inner)
        buffer.put(" ", x: x + 1 + written, y: y, clip: clip)
        return written + 2
    }
}
