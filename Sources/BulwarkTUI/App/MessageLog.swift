import Foundation

/// Every message the status row showed this session, with its time: the
/// row holds one and cuts a long one, the log keeps them whole (`M`). It
/// goes with the lock, like everything else the vault's text reached.
public struct LogLine: Sendable, Equatable {
    public let at: Date
    public let text: String
    /// A banner's outcome (✓ or ✗); nil for a plain status.
    public let ok: Bool?
}

/// The log dialog's actions.
public enum LogAction: Sendable, Equatable {
    case open
    /// Lines up (older, positive) or down (newer); `Int.max / 2` to the far end.
    case scroll(Int)
}

extension AppState {
    /// The most the log keeps: the oldest go first.
    static let logLimit = 500

    mutating func logged(_ text: String, ok: Bool?) {
        guard !text.isEmpty, log.last?.text != text else { return }
        log.append(LogLine(at: now, text: text, ok: ok))
        if log.count > Self.logLimit { log.removeFirst(log.count - Self.logLimit) }
    }
}

enum LogReducer {
    static func reduce(_ action: LogAction, _ state: inout AppState) -> Effect {
        switch action {
        case .open:
            state.overlay = .log(scrolledUp: 0)
        case .scroll(let lines):
            guard case .log(let up)? = state.overlay else { return .none }
            // Kept within the log's lines (the view shows at most all of them).
            state.overlay = .log(scrolledUp: min(max(0, up + lines), max(0, LogView.lineCount(state) - 1)))
        }
        return .none
    }
}
