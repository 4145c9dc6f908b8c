/// Everything that can happen to the app: keys, resizes, ticks, and the
/// results of effects. Keys are mapped to the other cases through keymaps.
public enum AppAction: Sendable, Hashable {
    case key(Key)
    case resize(width: Int, height: Int)
    case tick
    case moveSelection(Int)
    case selectFirst
    case selectLast
    case page(Int)
    case showHelp
    case closeOverlay
    case requestQuit          // q: quits unless something needs confirming
    case interrupt            // Ctrl-C: quits, asking first if an upgrade is in flight
    case confirmQuit(Bool)
    case setStatus(String?)
}
