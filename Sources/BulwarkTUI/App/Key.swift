/// A key press, decoded by the backend. Screens and keymaps speak only this.
public enum Key: Sendable, Hashable, CustomStringConvertible {
    case char(Character)
    case ctrl(Character)     // lower-case letter: .ctrl("c") is Ctrl-C
    case enter, escape, tab, backTab, backspace, delete
    case up, down, left, right, home, end, pageUp, pageDown
    case function(Int)

    /// How the key is written in footers and the help overlay.
    public var description: String {
        switch self {
        case .char(" "): "Space"
        case .char(let c): String(c)
        case .ctrl(let c): "Ctrl-" + String(c).uppercased()
        case .enter: "Enter"
        case .escape: "Esc"
        case .tab: "Tab"
        case .backTab: "Shift-Tab"
        case .backspace: "Backspace"
        case .delete: "Del"
        case .up: "↑"
        case .down: "↓"
        case .left: "←"
        case .right: "→"
        case .home: "Home"
        case .end: "End"
        case .pageUp: "PgUp"
        case .pageDown: "PgDn"
        case .function(let n): "F\(n)"
        }
    }

    /// Parses the names used in scenario scripts and tests: `j`, `Enter`,
    /// `Esc`, `Ctrl-C`, `Up`, `F1`, `Space`...
    public init?(name: String) {
        let table: [String: Key] = [
            "enter": .enter, "esc": .escape, "escape": .escape, "tab": .tab, "shift-tab": .backTab,
            "backspace": .backspace, "bs": .backspace, "delete": .delete, "del": .delete,
            "up": .up, "down": .down, "left": .left, "right": .right, "home": .home, "end": .end,
            "pageup": .pageUp, "pgup": .pageUp, "pagedown": .pageDown, "pgdn": .pageDown, "space": .char(" "),
        ]
        if let key = table[name.lowercased()] { self = key; return }
        if name.count == 1, let c = name.first { self = .char(c); return }
        let lower = name.lowercased()
        if lower.hasPrefix("ctrl-"), lower.count == 6, let c = lower.last { self = .ctrl(c); return }
        if lower.hasPrefix("f"), let n = Int(lower.dropFirst()), (1...24).contains(n) { self = .function(n); return }
        return nil
    }
}
