/// A run of text in one style.
public struct Span: Sendable, Hashable {
    public var text: String
    public var style: Style

    public init(_ text: String, _ style: Style = .plain) {
        self.text = text
        self.style = style
    }

    public var width: Int { DisplayWidth.of(text) }
}

/// One line of styled spans.
public struct Line: Sendable, Hashable, ExpressibleByStringLiteral {
    public var spans: [Span]

    public init(_ spans: [Span]) { self.spans = spans }
    public init(_ text: String, _ style: Style = .plain) { spans = [Span(text, style)] }
    public init(stringLiteral value: String) { spans = [Span(value)] }

    public var width: Int { spans.reduce(0) { $0 + $1.width } }
    public var plainText: String { spans.map(\.text).joined() }

    /// The line cut to `width` cells with an ellipsis when it is wider, so
    /// that a cut line says it was cut (in the style of the span cut).
    public func truncated(to width: Int) -> Line {
        guard self.width > width else { return self }
        guard width > 0 else { return Line([]) }
        var kept: [Span] = [], left = width - 1
        for span in spans {
            if span.width <= left {
                kept.append(span)
                left -= span.width
                continue
            }
            kept.append(Span(DisplayWidth.truncate(span.text, to: left, ellipsis: false) + "…", span.style))
            break
        }
        return Line(kept)
    }

    /// Draws the line at (x, y), clipped to `clip`; returns the columns used.
    @discardableResult
    public func render(into buffer: inout Buffer, x: Int, y: Int, clip: Rect) -> Int {
        var column = x
        for span in spans {
            column += buffer.put(span.text, x: column, y: y, style: span.style, clip: clip)
        }
        return column - x
    }
}

public enum TextWrap {
    /// Word-wraps `text` to `width` cells. Explicit newlines start new lines;
    /// a word longer than the width is broken across lines.
    public static func wrap(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var current = ""
            var currentWidth = 0
            for word in paragraph.split(separator: " ", omittingEmptySubsequences: true) {
                var piece = String(word)
                var pieceWidth = DisplayWidth.of(piece)
                if currentWidth > 0 && currentWidth + 1 + pieceWidth <= width {
                    current += " " + piece
                    currentWidth += 1 + pieceWidth
                    continue
                }
                if currentWidth > 0 {
                    lines.append(current)
                    current = ""
                    currentWidth = 0
                }
                while pieceWidth > width {
                    let head = DisplayWidth.truncate(piece, to: width, ellipsis: false)
                    if head.isEmpty { break }  // a grapheme wider than the line
                    lines.append(head)
                    piece = String(piece.dropFirst(head.count))
                    pieceWidth = DisplayWidth.of(piece)
                }
                current = piece
                currentWidth = pieceWidth
            }
            lines.append(current)
        }
        return lines
    }
}
