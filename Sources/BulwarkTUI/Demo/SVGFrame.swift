import BulwarkCore
import Foundation

/// A screen as an SVG picture, drawn from the Buffer itself (no terminal
/// emulator, screenshot or font guessing in between): the cell grid on a
/// monospace font stack, each run of text pinned to its cells
/// (`textLength`), the theme's colours and attributes, box-drawing and
/// block characters drawn as paths so they join whatever the font, wide
/// characters over two cells, and the caption under the screen. The same
/// buffer gives the same bytes. Every cell's text can be read back
/// (`text(of:)`), which the tests compare with the text goldens.
public enum SVGFrame {
    static let cellWidth = 10, cellHeight = 20, pad = 12, captionLine = 22

    /// The palette of the pictures: a dark terminal (foreground, background, then the eight colours).
    static let foreground = "#d0d3d4", background = "#1b1e22"
    static let palette = ["#3a3f45", "#e06c75", "#98c379", "#e5c07b", "#61afef", "#c678dd", "#56b6c2", "#dcdfe4"]

    /// The CSS classes of text styles, numbered in the order they are first used.
    struct StyleSheet {
        private var classes: [String: Int] = [:]
        private(set) var order: [String] = []

        mutating func name(_ css: String) -> String {
            if let index = classes[css] { return "s\(index)" }
            classes[css] = order.count
            order.append(css)
            return "s\(order.count - 1)"
        }
    }

    public static func render(_ buffer: Buffer, caption: String? = nil) -> String {
        var sheet = StyleSheet()
        let body = frame(buffer, caption: caption, sheet: &sheet)
        return document(buffer, captionLines: caption.map { wrap($0, columns: max(20, buffer.width)).count } ?? 0, sheet: sheet, body: body)
    }

    /// One scenario as one animated picture (for a README or a chat): each
    /// frame shown for `seconds` in turn, looping (SMIL, which browsers and
    /// image viewers play with no script).
    public static func animate(_ frames: [(buffer: Buffer, caption: String?)], seconds: Int = 3) -> String {
        guard let first = frames.first?.buffer else { return "" }
        var sheet = StyleSheet()
        var body = ""
        let total = frames.count * seconds
        for (index, frame) in frames.enumerated() {
            let start = Double(index) / Double(frames.count), end = Double(index + 1) / Double(frames.count)
            let (values, times) = index == 0 ? ("visible;hidden", "0;\(key(end))")
                : ("hidden;visible;hidden", "0;\(key(start));\(key(end))")
            body += #"<g visibility="\#(index == 0 ? "visible" : "hidden")" data-frame="\#(index)">"# + "\n"
            body += #"<animate attributeName="visibility" calcMode="discrete" dur="\#(total)s" repeatCount="indefinite" values="\#(values)" keyTimes="\#(times)"/>"# + "\n"
            body += self.frame(frame.buffer, caption: frame.caption, sheet: &sheet) + "</g>\n"
        }
        let lines = frames.map { $0.caption.map { wrap($0, columns: max(20, first.width)).count } ?? 0 }.max() ?? 0
        return document(first, captionLines: lines, sheet: sheet, body: body)
    }

    /// A key time with four decimals, the last one exactly 1.
    static func key(_ value: Double) -> String { value >= 1 ? "1" : String(format: "%.4f", value) }

    /// The root element, the style sheet and the background around `body`.
    static func document(_ buffer: Buffer, captionLines: Int, sheet: StyleSheet, body: String) -> String {
        let width = buffer.width * cellWidth + 2 * pad
        let height = buffer.height * cellHeight + 2 * pad + (captionLines == 0 ? 0 : captionLines * captionLine + pad / 2)
        var svg = #"<svg xmlns="http://www.w3.org/2000/svg" xml:space="preserve" width="\#(width)" height="\#(height)" viewBox="0 0 \#(width) \#(height)" data-columns="\#(buffer.width)" data-rows="\#(buffer.height)">"# + "\n"
        svg += "<style>\n"
        svg += #"text{font-family:"DejaVu Sans Mono","Menlo","Consolas","Liberation Mono",monospace;font-size:16px;white-space:pre}"# + "\n"
        svg += ".caption{fill:#f5f6f7;font-family:system-ui,-apple-system,\"Segoe UI\",sans-serif;font-size:17px}\n"
        for (index, css) in sheet.order.enumerated() { svg += ".s\(index){\(css)}\n" }
        svg += "</style>\n"
        svg += #"<rect width="\#(width)" height="\#(height)" fill="\#(background)" rx="8"/>"# + "\n"
        return svg + body + "</svg>\n"
    }

    /// One screen's backgrounds, glyphs, text and caption.
    static func frame(_ buffer: Buffer, caption: String?, sheet: inout StyleSheet) -> String {
        let captionLines = caption.map { wrap($0, columns: max(20, buffer.width)) } ?? []
        var body = ""
        for y in 0..<buffer.height {
            let top = pad + y * cellHeight
            // Backgrounds first, as runs of one colour.
            var x = 0
            while x < buffer.width {
                let fill = colours(buffer[x, y].style).background
                var end = x + 1
                while end < buffer.width, colours(buffer[end, y].style).background == fill { end += 1 }
                if let fill { body += #"<rect x="\#(pad + x * cellWidth)" y="\#(top)" width="\#((end - x) * cellWidth)" height="\#(cellHeight)" fill="\#(fill)"/>"# + "\n" }
                x = end
            }
            // Then the glyphs: box and block characters as paths, text in runs of one style.
            x = 0
            while x < buffer.width {
                let cell = buffer[x, y]
                if cell.width == 0 { x += 1; continue }
                let (fg, _) = colours(cell.style)
                if let shape = BoxGlyphs.path(cell.grapheme, x: pad + x * cellWidth, y: top, width: cellWidth, height: cellHeight) {
                    let paint = shape.stroked ? #"fill="none" stroke="\#(fg)" stroke-width="1.4""# : #"fill="\#(fg)""#
                    let opacity = shape.opacity.map { #" fill-opacity="\#($0)""# } ?? ""
                    body += #"<path data-r="\#(y)" data-c="\#(x)" data-g="\#(escape(cell.grapheme))" d="\#(shape.d)" \#(paint)\#(opacity)/>"# + "\n"
                    x += 1
                    continue
                }
                if cell.grapheme == " " && !cell.style.underline { x += 1; continue }
                var text = cell.grapheme, end = x + cell.width
                if cell.width == 1 {
                    while end < buffer.width, buffer[end, y].width == 1, buffer[end, y].style == cell.style,
                          BoxGlyphs.path(buffer[end, y].grapheme, x: 0, y: 0, width: 1, height: 1) == nil {
                        text += buffer[end, y].grapheme
                        end += 1
                    }
                    while text.hasSuffix(" ") && !cell.style.underline { text.removeLast(); end -= 1 }
                }
                let css = textCSS(cell.style, fg)
                body += #"<text class="\#(sheet.name(css))" data-r="\#(y)" data-c="\#(x)" data-w="\#(cell.width)" x="\#(pad + x * cellWidth)" y="\#(top + 15)" textLength="\#((end - x) * cellWidth)" lengthAdjust="spacingAndGlyphs">\#(escape(text))</text>"# + "\n"
                x = end
            }
        }
        for (index, line) in captionLines.enumerated() {
            body += #"<text class="caption" x="\#(pad)" y="\#(pad + buffer.height * cellHeight + pad / 2 + (index + 1) * captionLine - 5)">\#(escape(line))</text>"# + "\n"
        }
        return body
    }

    /// The screen's text read back from an SVG `render` wrote: one line per
    /// row, trailing spaces dropped, as `Buffer.textDump()` gives it.
    public static func text(of svg: String) -> String? {
        guard let columns = attribute("data-columns", in: svg).flatMap(Int.init), let rows = attribute("data-rows", in: svg).flatMap(Int.init) else { return nil }
        var grid = Array(repeating: Array(repeating: " ", count: columns), count: rows)
        for line in svg.split(separator: "\n") where line.contains("data-r=") {
            guard let row = attribute("data-r", in: line).flatMap(Int.init), let column = attribute("data-c", in: line).flatMap(Int.init),
                  grid.indices.contains(row) else { return nil }
            if line.hasPrefix("<path") {
                guard let glyph = attribute("data-g", in: line), grid[row].indices.contains(column) else { return nil }
                grid[row][column] = unescape(glyph)
            } else if let open = line.firstIndex(of: ">"), let close = line.range(of: "</text>", options: .backwards) {
                let wide = attribute("data-w", in: line) == "2"
                let text = unescape(String(line[line.index(after: open)..<close.lowerBound]))
                var at = column
                for character in text {
                    guard grid[row].indices.contains(at) else { return nil }
                    grid[row][at] = String(character)
                    if wide, at + 1 < columns { grid[row][at + 1] = "" }
                    at += wide ? 2 : 1
                }
            }
        }
        return grid.map { cells in
            var line = cells.joined()
            while line.hasSuffix(" ") { line.removeLast() }
            return line
        }.joined(separator: "\n") + "\n"
    }

    /// Each frame's text, read back from an SVG `animate` wrote.
    public static func texts(ofAnimated svg: String) -> [String]? {
        guard let rootEnd = svg.range(of: ">\n") else { return nil }
        let root = String(svg[..<rootEnd.upperBound])
        let chunks = svg.components(separatedBy: "<g visibility=").dropFirst()
        let texts = chunks.compactMap { text(of: root + $0) }
        return texts.count == chunks.count ? texts : nil
    }

    // MARK: Parts

    /// Foreground and background after `reverse`; nil background is the terminal's.
    static func colours(_ style: Style) -> (foreground: String, background: String?) {
        var fg = style.foreground.map { palette[$0.rawValue] } ?? foreground
        var bg = style.background.map { palette[$0.rawValue] }
        if style.reverse { (fg, bg) = (bg ?? background, fg) }
        return (fg, bg)
    }

    static func textCSS(_ style: Style, _ fg: String) -> String {
        var css = "fill:\(fg)"
        if style.bold { css += ";font-weight:bold" }
        if style.dim { css += ";opacity:0.6" }
        if style.underline { css += ";text-decoration:underline" }
        return css
    }

    static func escape(_ text: String) -> String { XMLText.escaped(text) }

    static func unescape(_ text: String) -> String {
        text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&amp;", with: "&")
    }

    static func attribute<S: StringProtocol>(_ name: String, in text: S) -> String? {
        guard let start = text.range(of: " \(name)=\"") else { return nil }
        let rest = text[start.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { return nil }
        return String(rest[..<end])
    }

    /// The caption in lines of at most `columns` characters, broken at spaces.
    static func wrap(_ text: String, columns: Int) -> [String] {
        var lines: [String] = [], line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty, line.count + 1 + word.count > columns { lines.append(line); line = "" }
            line += (line.isEmpty ? "" : " ") + word
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}
