/// A dialog drawn over whatever is below it: the rows it spans are
/// cleared from the frame's left border to its right (so no pane's words
/// are left cut in half beside it), then it is bordered and titled.
/// Returns the inner area for the caller's content.
public enum Modal {
    @discardableResult
    public static func render(into buffer: inout Buffer, within screen: Rect, width: Int, height: Int,
                              title: Line, rightTitle: Line? = nil, border: Block.Border = .rounded,
                              style: Style = .plain) -> Rect {
        let area = screen.centered(width: width, height: height)
        // The app's frame keeps its own border columns; everything between them on these rows goes.
        let band = Rect(x: screen.x + 1, y: area.y, width: max(0, screen.width - 2), height: area.height)
        buffer.fill(band.width > area.width ? band : area, style: .plain)
        buffer.fill(area, style: style)
        buffer.addHotspot(band.width > area.width ? band : area, .blocker)
        Block(title: title, rightTitle: rightTitle, border: border, borderStyle: style).render(into: &buffer, area: area)
        return Block.inner(area).inset(horizontal: 1, vertical: 0)
    }
}

/// One line of key hints: `key label` pairs. When the line is too narrow,
/// hints are dropped from the middle: the last `pinned` ones (help, quit)
/// always stay, so a person can always find the keys and the way out;
/// `↑↓ move` (which everyone knows) goes before the actions the screen
/// exists for; a hint too wide for what is left is passed over for the
/// shorter ones after it; what stays keeps the table's order.
public enum Footer {
    public static func render(into buffer: inout Buffer, area: Rect, hints: [(key: String, label: String)],
                              keyStyle: Style = Style(bold: true), labelStyle: Style = .plain, pinned: Int = 0) {
        guard !area.isEmpty else { return }
        func width(_ hint: (key: String, label: String)) -> Int { DisplayWidth.of(hint.key) + 1 + DisplayWidth.of(hint.label) }
        let tail = Array(hints.suffix(min(pinned, hints.count)))
        var budget = area.width - tail.reduce(0) { $0 + width($1) + 2 }
        let middle = Array(hints.dropLast(tail.count))
        let ranked = middle.indices.filter { middle[$0].key != "↑↓" } + middle.indices.filter { middle[$0].key == "↑↓" }
        var chosen = Set<Int>()
        for index in ranked {
            let needed = width(middle[index]) + 2
            if needed > budget { continue }
            chosen.insert(index)
            budget -= needed
        }
        let kept = middle.indices.filter(chosen.contains).map { middle[$0] }
        var x = area.x
        for (index, hint) in (kept + tail).enumerated() {
            let gap = index == 0 ? 0 : 2
            if x + gap + width(hint) > area.maxX { break }
            x += gap
            let start = x
            x += buffer.put(hint.key, x: x, y: area.y, style: keyStyle, clip: area)
            x += buffer.put(" " + hint.label, x: x, y: area.y, style: labelStyle, clip: area)
            // A hint is a button: clicking it presses its key ("↑↓" names two, and is none).
            if let key = Key(name: hint.key) { buffer.addHotspot(Rect(x: start, y: area.y, width: x - start, height: 1), .key(key)) }
        }
    }
}

public struct Spinner: Sendable, Hashable {
    public static let frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
    public let id: Int
    public private(set) var frame = 0

    public init(id: Int) { self.id = id }

    /// Advances when the tick is ours; returns whether it was.
    @discardableResult
    public mutating func tick(id tickID: Int) -> Bool {
        guard tickID == id else { return false }
        frame = (frame + 1) % Spinner.frames.count
        return true
    }

    public var glyph: String { Spinner.frames[frame] }
}

/// A horizontal bar filled to `ratio` (0...1), in eighths of a cell.
public enum ProgressBar {
    static let partials = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"]

    public static func text(ratio: Double, width: Int) -> String {
        guard width > 0 else { return "" }
        let clamped = ratio.isNaN ? 0 : min(max(ratio, 0), 1)
        let eighths = Int((clamped * Double(width * 8)).rounded(.down))
        let full = eighths / 8
        var bar = String(repeating: "█", count: full)
        if full < width { bar += partials[eighths % 8] }
        let used = full + (eighths % 8 > 0 && full < width ? 1 : 0)
        return bar + String(repeating: " ", count: width - used)
    }

    public static func render(into buffer: inout Buffer, area: Rect, ratio: Double, style: Style = .plain) {
        guard !area.isEmpty else { return }
        buffer.put(text(ratio: ratio, width: area.width), x: area.x, y: area.y, style: style, clip: area)
    }
}
