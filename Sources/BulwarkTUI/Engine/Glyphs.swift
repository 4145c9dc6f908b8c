/// What the terminal can show beyond ASCII. Screens draw in Unicode; a
/// frame is narrowed to what the terminal shows in one pass at the end
/// (like NO_COLOR's), so no screen has two spellings of a symbol.
public enum GlyphSupport: String, Sendable, CaseIterable {
    /// Everything: box drawing, arrows, bullets, emoji, braille.
    case unicode
    /// The Linux console: its fonts have straight box lines, arrows and
    /// bullets, but no emoji, braille, check marks or rounded corners.
    case console
    /// A locale whose character set is not UTF-8: ASCII only.
    case ascii

    /// `override`: the `symbols` config key or `BULWARK_SYMBOLS`, when set to a level's name.
    public static func detect(term: String?, codeset: String?, override: String? = nil) -> GlyphSupport {
        if let override, let chosen = GlyphSupport(rawValue: override.lowercased()) { return chosen }
        let normalized = (codeset ?? "").uppercased().replacingOccurrences(of: "-", with: "")
        if normalized != "UTF8" { return .ascii }
        return term == "linux" ? .console : .unicode
    }

    /// The same grapheme in what this level shows, of the same width; nil
    /// keeps it as it is.
    public func replacement(for grapheme: String, width: Int) -> String? {
        guard self != .unicode, let scalar = grapheme.unicodeScalars.first, !(grapheme.unicodeScalars.count == 1 && scalar.isASCII) else { return nil }
        if let symbol = Self.symbols[grapheme] { return symbol }
        if (0x2800...0x28FF).contains(scalar.value) { return Self.spinner[Int(scalar.value) % Self.spinner.count] }
        if width == 2 { return self == .ascii ? "??" : "  " }
        guard self == .ascii else { return Self.roundCorners[grapheme] }
        if let line = Self.boxLines[grapheme] { return line }
        return "?"
    }

    /// Symbols the screens use, with ASCII stand-ins that keep them apart:
    /// the four severities stay four marks.
    static let symbols: [String: String] = [
        "‼": "X", "•": "*", "·": ".", "↑": "^", "↓": "v", "←": "<", "→": ">",
        "✓": "+", "✔": "+", "✗": "x", "✘": "x", "…": "~", "▶": ">", "▸": ">", "—": "-", "–": "-",
        "█": "#", "▉": "#", "▊": "#", "▋": "=", "▌": "=", "▍": "=", "▎": "-", "▏": "-",
        "🔒": "  ", "🔓": "  ",
    ]
    static let spinner = ["|", "/", "-", "\\"]
    static let roundCorners: [String: String] = ["╭": "┌", "╮": "┐", "╰": "└", "╯": "┘"]
    static let boxLines: [String: String] = [
        "─": "-", "━": "-", "═": "=", "│": "|", "┃": "#", "║": "|",
        "┌": "+", "┐": "+", "└": "+", "┘": "+", "╭": "+", "╮": "+", "╰": "+", "╯": "+",
        "├": "+", "┤": "+", "┬": "+", "┴": "+", "┼": "+",
    ]
}

extension Buffer {
    /// Every cell in what `support` shows (see `GlyphSupport`).
    public mutating func restrictGlyphs(to support: GlyphSupport) {
        guard support != .unicode else { return }
        for y in 0..<height {
            for x in 0..<width {
                let cell = self[x, y]
                // "↑↓ move" narrowed would read "^v", which looks like Ctrl-V: the
                // pair is the keys that move the same way, k and j.
                if cell.grapheme == "↑", x + 1 < width, self[x + 1, y].grapheme == "↓" {
                    setCell(x, y, Cell("k", style: cell.style))
                    setCell(x + 1, y, Cell("j", style: self[x + 1, y].style))
                    continue
                }
                guard !cell.isContinuation, let text = support.replacement(for: cell.grapheme, width: cell.width) else { continue }
                // A wide grapheme's stand-in is two narrow ones over its two cells.
                for (offset, character) in text.enumerated() {
                    setCell(x + offset, y, Cell(String(character), style: cell.style))
                }
            }
        }
    }
}
