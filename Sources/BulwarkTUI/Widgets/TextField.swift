/// A single-line text field: the text, a cursor, optional masking, and the
/// editing keys people expect from a shell line (readline's subset).
public struct TextField: Sendable, Hashable {
    public private(set) var characters: [Character]
    public private(set) var cursor: Int
    public var masked: Bool
    public var placeholder: String
    /// The whole text is selected (a search reopened on its last query):
    /// typing replaces it, a deleting key clears it, moving keeps it.
    public var selectedAll = false

    public init(_ text: String = "", masked: Bool = false, placeholder: String = "") {
        characters = Array(text)
        cursor = characters.count
        self.masked = masked
        self.placeholder = placeholder
    }

    public var text: String { String(characters) }
    public var isEmpty: Bool { characters.isEmpty }

    /// Applies an editing key. Returns false for keys a field does not use
    /// (Enter, Esc, Tab, arrows up/down...), which the screen then handles.
    @discardableResult
    public mutating func handle(_ key: Key) -> Bool {
        if selectedAll {
            switch key {
            case .char(let c) where !c.unicodeScalars.contains(where: DisplayWidth.isControl):
                // Typing replaces the selection: cleared here, inserted below.
                characters.removeAll()
                cursor = 0
                selectedAll = false
            case .backspace, .ctrl("h"), .delete, .ctrl("d"), .ctrl("u"), .ctrl("k"), .ctrl("w"):
                characters.removeAll()
                cursor = 0
                selectedAll = false
                return true
            case .left, .right, .home, .end, .ctrl("a"), .ctrl("e"), .ctrl("b"), .ctrl("f"):
                selectedAll = false
            default:
                break
            }
        }
        switch key {
        case .char(let c):
            guard !c.unicodeScalars.contains(where: DisplayWidth.isControl) else { return false }
            characters.insert(c, at: cursor)
            cursor += 1
        case .backspace, .ctrl("h"):
            guard cursor > 0 else { return true }
            characters.remove(at: cursor - 1)
            cursor -= 1
        case .delete, .ctrl("d"):
            if cursor < characters.count { characters.remove(at: cursor) }
        case .left, .ctrl("b"): cursor = max(0, cursor - 1)
        case .right, .ctrl("f"): cursor = min(characters.count, cursor + 1)
        case .home, .ctrl("a"): cursor = 0
        case .end, .ctrl("e"): cursor = characters.count
        case .ctrl("u"):
            characters.removeFirst(cursor)
            cursor = 0
        case .ctrl("k"):
            characters.removeLast(characters.count - cursor)
        case .ctrl("w"):
            var start = cursor
            while start > 0 && characters[start - 1] == " " { start -= 1 }
            while start > 0 && characters[start - 1] != " " { start -= 1 }
            characters.removeSubrange(start..<cursor)
            cursor = start
        default:
            return false
        }
        return true
    }

    /// Wipes the text. Swift strings cannot be zeroed in place; dropping the
    /// array is the most this type can do (the README says so).
    public mutating func clear() {
        characters.removeAll(keepingCapacity: false)
        cursor = 0
    }

    /// Draws the field on one row. The view scrolls so the cursor stays in
    /// sight; masked text shows one `•` per character; the cursor is a
    /// reversed cell when `focused`.
    public func render(into buffer: inout Buffer, area: Rect, focused: Bool, style: Style = .plain) {
        guard !area.isEmpty else { return }
        let row = Rect(x: area.x, y: area.y, width: area.width, height: 1)
        buffer.fill(row, style: style)
        if characters.isEmpty && !placeholder.isEmpty && !focused {
            buffer.put(DisplayWidth.truncate(placeholder, to: row.width), x: row.x, y: row.y,
                       style: style.patched(with: Style(dim: true)), clip: row)
            return
        }
        let shown: [Character] = masked ? Array(repeating: "•", count: characters.count) : characters
        let widths = shown.map(DisplayWidth.of)
        // Scroll so that the cursor cell is visible, leaving one cell for it at the end.
        var start = 0
        var used = widths[0..<cursor].reduce(0, +)
        while used >= row.width && start < cursor {
            used -= widths[start]
            start += 1
        }
        var x = row.x
        let textStyle = selectedAll && focused ? style.patched(with: Style(reverse: true)) : style
        for index in start..<shown.count {
            if x + widths[index] > row.maxX { break }
            x += buffer.put(String(shown[index]), x: x, y: row.y, style: textStyle, clip: row)
        }
        if focused {
            let cursorX = row.x + used
            let under = cursor < shown.count ? String(shown[cursor]) : " "
            if cursorX < row.maxX {
                buffer.put(under, x: cursorX, y: row.y, style: style.patched(with: Style(reverse: true)), clip: row)
            }
        }
    }
}
