/// Word-wrapped text. Lines that do not fit the area's height are cut, and
/// the last visible line shows `…` when text was cut off.
public struct Paragraph: Sendable {
    public var lines: [Line]
    public var wrap: Bool

    public init(_ text: String, style: Style = .plain, wrap: Bool = true) {
        lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { Line(String($0), style) }
        self.wrap = wrap
    }

    public init(lines: [Line], wrap: Bool = true) {
        self.lines = lines
        self.wrap = wrap
    }

    /// The rows this paragraph takes at a given width.
    public func layout(width: Int) -> [Line] {
        guard wrap else { return lines }
        var out: [Line] = []
        for line in lines {
            if line.width <= width || line.spans.count != 1 {
                out.append(line)
                continue
            }
            let style = line.spans[0].style
            for piece in TextWrap.wrap(line.plainText, width: width) { out.append(Line(piece, style)) }
        }
        return out
    }

    /// Draws from the top of `area`; returns the number of rows drawn.
    @discardableResult
    public func render(into buffer: inout Buffer, area: Rect) -> Int {
        guard !area.isEmpty else { return 0 }
        let rows = layout(width: area.width)
        for (index, row) in rows.prefix(area.height).enumerated() {
            if index == area.height - 1 && rows.count > area.height {
                buffer.put(DisplayWidth.truncate(row.plainText + " …", to: area.width), x: area.x, y: area.y + index,
                           style: row.spans.first?.style ?? .plain, clip: area)
            } else {
                row.render(into: &buffer, x: area.x, y: area.y + index, clip: area)
            }
        }
        return min(rows.count, area.height)
    }
}
