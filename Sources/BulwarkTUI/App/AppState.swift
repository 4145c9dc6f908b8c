import BulwarkCore

/// Which main view is showing.
public enum Screen: String, Sendable, Hashable {
    case vault
}

/// A dialog that takes the keys until it is answered.
public enum Overlay: Sendable, Hashable {
    case help
    case confirmQuit
}

/// Everything the screen shows is derived from this value; `render` is a
/// pure function of it and the terminal size.
public struct AppState: Sendable {
    public var width: Int
    public var height: Int
    public var screen: Screen = .vault
    public var overlay: Overlay?
    public var entries: [EntrySummary]
    public var list = ListScroll()
    /// A one-line message in the status row (never a secret).
    public var status: String?
    /// Set while an upgrade talks to a service: quitting then asks first.
    public var upgradeInFlight = false
    /// The lock state as the status line shows it.
    public var lockLabel: String

    public init(width: Int = 80, height: Int = 24, entries: [EntrySummary] = [], lockLabel: String = "unlocked") {
        self.width = width
        self.height = height
        self.entries = entries
        self.lockLabel = lockLabel
    }

    public var selectedEntry: EntrySummary? {
        entries.indices.contains(list.selected) ? entries[list.selected] : nil
    }

    /// The smallest window the app draws into; below it, a notice.
    public static let minimumWidth = 60
    public static let minimumHeight = 16
    public var isTooSmall: Bool { width < Self.minimumWidth || height < Self.minimumHeight }

    /// True when a text field owns the keyboard, so `q` types a letter.
    public var textFieldFocused: Bool { false }
}
