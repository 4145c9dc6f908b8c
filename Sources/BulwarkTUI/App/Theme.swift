import BulwarkCore

/// Named styles, so screens say what a thing is and the theme says how it
/// looks. Meaning never rests on colour alone: every coloured thing also
/// carries a word or a symbol, and NO_COLOR drops colours in one place.
public enum Theme {
    public static let border = Style(foreground: .blue)
    public static let title = Style(foreground: .cyan, bold: true)
    public static let heading = Style(bold: true)
    public static let dim = Style(dim: true)
    public static let key = Style(foreground: .cyan, bold: true)
    public static let selection = Style(reverse: true)
    public static let label = Style(foreground: .cyan)
    public static let status = Style(foreground: .yellow)
    public static let warning = Style(foreground: .yellow, bold: true)
    public static let danger = Style(foreground: .red, bold: true)
    public static let success = Style(foreground: .green, bold: true)
}

extension Theme {
    /// Severity, readable without colour: a symbol and a word.
    public static func severityStyle(_ severity: Severity) -> Style {
        switch severity {
        case .critical: danger
        case .high: warning
        case .medium: .plain
        case .low: dim
        }
    }

    /// On a recommendation that one key fixes (an upgrade is offered).
    public static let fixableMark = "↑"

    public static func severityMark(_ severity: Severity) -> String {
        switch severity {
        case .critical: "‼ CRIT"
        case .high: "! HIGH"
        case .medium: "• MED "
        case .low: "· LOW "
        }
    }

    public static func severitySymbol(_ severity: Severity?) -> String {
        switch severity {
        case .critical?: "‼"
        case .high?: "!"
        case .medium?: "•"
        case .low?: "·"
        case nil: " "
        }
    }
}
