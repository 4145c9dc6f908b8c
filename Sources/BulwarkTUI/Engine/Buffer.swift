import BulwarkCore
/// One terminal cell. A wide grapheme occupies its cell and a continuation
/// cell to its right (`isContinuation`), which holds no text of its own.
public struct Cell: Sendable, Hashable {
    public var grapheme: String
    public var width: Int
    public var style: Style

    public init(_ grapheme: String = " ", width: Int = 1, style: Style = .plain) {
        self.grapheme = grapheme
        self.width = width
        self.style = style
    }

    public static let blank = Cell()
    static func continuation(_ style: Style) -> Cell { Cell("", width: 0, style: style) }

    public var isContinuation: Bool { width == 0 }
}

/// A grid of cells: everything the UI draws lands here first. Only the
/// terminal backend turns a Buffer into escape codes; tests compare dumps.
public struct Buffer: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public private(set) var cells: [Cell]
    /// Where clicks land (see `Hotspot`); not part of what is drawn.
    public internal(set) var hotspots: [Hotspot] = []
    /// Each list's window as drawn: the rows it showed and from where. The
    /// store writes them back into the state after a frame (as ratatui's
    /// `StatefulWidget` writes a list's offset back), so scrolling moves only
    /// as far as it must and a page is what the person saw.
    public internal(set) var listWindows: [ListID: ListWindow] = [:]

    /// Two frames are equal when they show the same cells.
    public static func == (a: Buffer, b: Buffer) -> Bool { a.width == b.width && a.height == b.height && a.cells == b.cells }

    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        cells = Array(repeating: .blank, count: self.width * self.height)
    }

    public var area: Rect { Rect(x: 0, y: 0, width: width, height: height) }

    public subscript(x: Int, y: Int) -> Cell {
        get { contains(x, y) ? cells[y * width + x] : .blank }
    }

    public func contains(_ x: Int, _ y: Int) -> Bool {
        x >= 0 && y >= 0 && x < width && y < height
    }

    /// Writes text from (x, y), clipped to `clip` (and the buffer). Control
    /// characters are dropped, zero-width clusters are skipped, and a wide
    /// grapheme that would straddle the clip edge is replaced by a space.
    /// Returns the number of columns advanced.
    @discardableResult
    public mutating func put(_ text: String, x: Int, y: Int, style: Style = .plain, clip: Rect? = nil) -> Int {
        let bounds = (clip ?? area).intersection(area)
        guard y >= bounds.y && y < bounds.maxY else { return 0 }
        var column = x
        // Controls, bidi controls and invisible characters are drawn as
        // visible escapes (`\e`, `<U+202E>`), never sent and never dropped.
        for character in TerminalText.visible(text) {
            let w = DisplayWidth.of(character)
            if w == 0 { continue }
            if column >= bounds.maxX { break }
            if column >= bounds.x {
                if column + w > bounds.maxX {
                    setCell(column, y, Cell(" ", style: style))
                } else {
                    setCell(column, y, Cell(String(character), width: w, style: style))
                    if w == 2 { setCell(column + 1, y, .continuation(style)) }
                }
            } else if column + w > bounds.x {
                // Left half clipped away: show the visible half as a space.
                setCell(bounds.x, y, Cell(" ", style: style))
            }
            column += w
        }
        return column - x
    }

    /// Sets one cell, repairing any wide grapheme it cuts in half.
    public mutating func setCell(_ x: Int, _ y: Int, _ cell: Cell) {
        guard contains(x, y) else { return }
        let index = y * width + x
        let old = cells[index]
        if old.isContinuation, x > 0, cells[index - 1].width == 2, !cell.isContinuation {
            cells[index - 1] = Cell(" ", style: cells[index - 1].style)
        }
        if old.width == 2, x + 1 < width, cell.width != 2 {
            cells[index + 1] = Cell(" ", style: old.style)
        }
        cells[index] = cell
    }

    /// Fills a rectangle with a character (a space by default) in a style.
    public mutating func fill(_ rect: Rect, with grapheme: String = " ", style: Style = .plain) {
        let r = rect.intersection(area)
        guard !r.isEmpty else { return }
        for y in r.y..<r.maxY {
            for x in r.x..<r.maxX { setCell(x, y, Cell(grapheme, style: style)) }
        }
    }

    /// Layers a style over every cell of a rectangle (used for selection bars).
    public mutating func applyStyle(_ style: Style, to rect: Rect) {
        let r = rect.intersection(area)
        guard !r.isEmpty else { return }
        for y in r.y..<r.maxY {
            for x in r.x..<r.maxX { cells[y * width + x].style = cells[y * width + x].style.patched(with: style) }
        }
    }

    /// Drops colours everywhere, keeping bold, dim, underline and reverse.
    public mutating func stripColors() {
        for index in cells.indices { cells[index].style = cells[index].style.monochrome }
    }

    // MARK: Dumps for tests and goldens

    /// The screen as text, one line per row, trailing spaces trimmed.
    public func textDump() -> String {
        (0..<height).map { rowText($0) }.joined(separator: "\n") + "\n"
    }

    public func rowText(_ y: Int) -> String {
        var line = ""
        for x in 0..<width where !self[x, y].isContinuation { line += self[x, y].grapheme }
        while line.hasSuffix(" ") { line.removeLast() }
        return line
    }

    /// Runs of non-plain style, one per line: `row col-col: style`.
    public func styleDump() -> String {
        var lines: [String] = []
        for y in 0..<height {
            var x = 0
            while x < width {
                let style = self[x, y].style
                var end = x
                while end + 1 < width && self[end + 1, y].style == style { end += 1 }
                if !style.isPlain { lines.append("\(y) \(x)-\(end): \(style.summary)") }
                x = end + 1
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The cells that differ from `previous` (all of them when sizes differ):
    /// what the backend redraws after a frame.
    public func changes(since previous: Buffer?) -> [(x: Int, y: Int, cell: Cell)] {
        var out: [(x: Int, y: Int, cell: Cell)] = []
        let full = previous == nil || previous!.width != width || previous!.height != height
        for y in 0..<height {
            for x in 0..<width {
                let cell = cells[y * width + x]
                if cell.isContinuation { continue }
                if full || previous!.cells[y * width + x] != cell
                    || (cell.width == 2 && x + 1 < width && previous!.cells[y * width + x + 1] != cells[y * width + x + 1]) {
                    out.append((x, y, cell))
                }
            }
        }
        return out
    }
}
