/// The eight ANSI colours every terminal has. Anything fancier degrades badly
/// over ssh and tmux, and the product must read without colour anyway.
public enum Color: Int, Sendable, Hashable, CaseIterable {
    case black = 0, red, green, yellow, blue, magenta, cyan, white

    public var name: String {
        switch self {
        case .black: "black"
        case .red: "red"
        case .green: "green"
        case .yellow: "yellow"
        case .blue: "blue"
        case .magenta: "magenta"
        case .cyan: "cyan"
        case .white: "white"
        }
    }
}

/// How a cell looks. `nil` colours mean the terminal's own default.
public struct Style: Sendable, Hashable {
    public var foreground: Color?
    public var background: Color?
    public var bold = false
    public var dim = false
    public var underline = false
    public var reverse = false

    public init(foreground: Color? = nil, background: Color? = nil, bold: Bool = false,
                dim: Bool = false, underline: Bool = false, reverse: Bool = false) {
        self.foreground = foreground
        self.background = background
        self.bold = bold
        self.dim = dim
        self.underline = underline
        self.reverse = reverse
    }

    public static let plain = Style()

    public var isPlain: Bool { self == .plain }

    /// Layers `other` over this style: set attributes win, unset colours keep ours.
    public func patched(with other: Style) -> Style {
        Style(foreground: other.foreground ?? foreground,
              background: other.background ?? background,
              bold: bold || other.bold, dim: dim || other.dim,
              underline: underline || other.underline, reverse: reverse || other.reverse)
    }

    /// The same attributes with colours dropped: what NO_COLOR shows.
    public var monochrome: Style {
        Style(bold: bold, dim: dim, underline: underline, reverse: reverse)
    }

    /// A short, stable description used in style-run dumps, e.g. `fg=red bold`.
    public var summary: String {
        var parts: [String] = []
        if let foreground { parts.append("fg=\(foreground.name)") }
        if let background { parts.append("bg=\(background.name)") }
        if bold { parts.append("bold") }
        if dim { parts.append("dim") }
        if underline { parts.append("underline") }
        if reverse { parts.append("reverse") }
        return parts.isEmpty ? "plain" : parts.joined(separator: " ")
    }
}
