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
