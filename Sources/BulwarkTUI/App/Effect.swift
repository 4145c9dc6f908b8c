import Foundation

/// What the app may ask the outside world for. Dependencies are injected so
/// tests run the same effects against a fixed clock and mock services.
public struct AppEnvironment: Sendable {
    public var now: @Sendable () -> Date
    /// The vault, analysis and services; nil in screen-only tests.
    public var session: AppSession?

    public init(now: @escaping @Sendable () -> Date = { Date() }, session: AppSession? = nil) {
        self.now = now
        self.session = session
    }

    public static let live = AppEnvironment()
}

/// The result of reducing an action: nothing, a quit, a copy to the
/// clipboard, or async work whose result comes back as another action.
public enum Effect: Sendable {
    case none
    case quit(exitCode: Int32)
    /// Text for the clipboard: the run loop performs it (as it performs a
    /// quit) and takes it back later; the state never holds the text.
    case copy(ClipboardRequest)
    case run(@Sendable (AppEnvironment) async -> AppAction?)
    indirect case batch([Effect])

    public var isNone: Bool {
        if case .none = self { return true }
        return false
    }
}
