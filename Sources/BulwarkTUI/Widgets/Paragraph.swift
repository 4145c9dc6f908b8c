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
            if line.width <= width {
                out.append(line)
                continue
            }
            if line.spans.count == 1 {
                let style = line.spans[0].style
                for piece in TextWrap.wrap(line.plainText, width: width) { out.append(Line(piece, style)) }
                continue
            }
            out += Self.wrapStyled(line, width: width)
        }
        return out
    }

    /// A line of several styles wrapped as its plain text wraps, each
    /// character keeping its style: a row's characters are the source's in
    /// order, less the spaces the wrap dropped at a break.
    static func wrapStyled(_ line: Line, width: Int) -> [Line] {
        let source = line.spans.flatMap { span in span.text.map { (character: $0, style: span.style) } }
        var position = 0
        return TextWrap.wrap(line.plainText, width: width).map { row in
            var spans: [Span] = []
            for character in row {
                while position < source.count && source[position].character != character && source[position].character == " " { position += 1 }
                let style = position < source.count ? source[position].style : .plain
                position += 1
                if let last = spans.last, last.style == style {
                    spans[spans.count - 1] = Span(last.text + String(character), style)
                } else {
                    spans.append(Span(String(character), style))
                }
            }
            return Line(spans)
        }
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
