import BulwarkTUI
import Foundation

/// Carries out the app's copy requests and takes each secret back: through
/// the desktop's clipboard tool when there is one (its earlier text put
/// back), else with OSC 52 (a blank over it). Says which was used, and
/// says so plainly when a copy cannot arrive (the Linux console, tmux set
/// to drop programs' copies).
final class ClipboardKeeper {
    private let terminal: CursesTerminal
    private let system: SystemClipboard?
    /// Why OSC 52 cannot arrive here, found once; nil when it may.
    private let oscBlocked: String?
    /// tmux drops programs' copies but passes wrapped ones to the terminal outside it.
    private let throughTmux: Bool
    private var held: (secret: String, previous: String?, via: SystemClipboard?)?
    private(set) var clearAt: Date?

    init(terminal: CursesTerminal, system: SystemClipboard? = SystemClipboard.find(),
         environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.terminal = terminal
        self.system = system
        let route = system != nil ? (blocked: nil, passthrough: false) : Self.oscRoute(terminal: terminal, environment: environment)
        oscBlocked = route.blocked
        throughTmux = route.passthrough
    }

    /// Copies; returns the status line to show.
    func copy(_ request: ClipboardRequest) -> String {
        takeBack()  // one secret at a time
        let seconds = Reducer.duration(request.clearAfter)
        if let system {
            let previous = system.read()
            if system.write(request.text) {
                held = (request.text, previous, system)
                clearAt = Date().addingTimeInterval(request.clearAfter)
                return "Copied \(request.subject) with \(system.name) (what it replaced comes back in \(seconds), on lock, on quit)."
            }
        }
        if let oscBlocked { return "\(oscBlocked) Nothing was copied." }
        terminal.copyToClipboard(request.text, tmuxPassthrough: throughTmux)
        held = (request.text, nil, nil)
        clearAt = Date().addingTimeInterval(request.clearAfter)
        // OSC 52 is a request: the terminal may refuse it without a word, so this says what was sent, not that it arrived.
        return "Sent \(request.subject) to the terminal's clipboard (OSC 52\(throughTmux ? ", through tmux's passthrough" : "")); a blank replaces it after \(seconds), on lock and on quit."
    }

    /// Takes the secret off the clipboard, if one is on it; the status to show.
    @discardableResult
    func takeBack() -> String? {
        guard let current = held else { return nil }
        held = nil
        clearAt = nil
        guard let via = current.via else {
            terminal.clearClipboard(tmuxPassthrough: throughTmux)
            return "The clipboard was cleared."
        }
        switch via.takeBack(current.secret, previous: current.previous) {
        case .restored: return "The clipboard was cleared: it has its earlier text back."
        case .emptied: return "The clipboard was cleared."
        case .leftAlone: return "The clipboard holds something else now; it was left as it is."
        }
    }

    /// The Linux console and dumb terminals have no OSC 52; tmux passes a
    /// program's copy on with `set-clipboard on`, or wrapped with `allow-passthrough on`.
    static func oscRoute(terminal: CursesTerminal, environment: [String: String]) -> (blocked: String?, passthrough: Bool) {
        guard terminal.canCopy else { return ("This terminal has no clipboard bulwark can reach (no OSC 52, no wl-copy, xclip or xsel).", false) }
        guard !(environment["TMUX"] ?? "").isEmpty, let value = tmuxOption("set-clipboard"), value != "on" else { return (nil, false) }
        if let passthrough = tmuxOption("allow-passthrough", scope: "-Apv"), passthrough == "on" || passthrough == "all" { return (nil, true) }
        return ("tmux passes no program's copy on (its set-clipboard is \(value)); `tmux set -s set-clipboard on` lets them through.", false)
    }

    /// `scope`: the server's (`-sv`) or the pane's with what it inherits (`-Apv`).
    private static func tmuxOption(_ name: String, scope: String = "-sv") -> String? {
        guard let output = SystemClipboard.run(["tmux", "show-options", scope, name], input: nil) else { return nil }
        return String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
