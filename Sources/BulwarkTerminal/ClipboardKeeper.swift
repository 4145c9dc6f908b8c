import BulwarkTUI
import Foundation

/// Carries out the app's copy requests and takes each secret back: through
/// the desktop's clipboard tool when there is one (its earlier text put
/// back), else with OSC 52 (a blank over it). Says which was used, and
/// says so plainly when a copy cannot arrive (the Linux console, tmux set
/// to drop programs' copies). Inside tmux, through tmux's own buffers
/// (`TmuxClipboard`), so that nothing of the secret stays in one.
final class ClipboardKeeper {
    private let terminal: CursesTerminal
    private let system: SystemClipboard?
    private let environment: [String: String]
    private let tmux = TmuxClipboard()
    /// Where the held secret went, to take it back the same way.
    private enum Via {
        case system(SystemClipboard, previous: String?)
        case tmuxBuffer
        case osc52(passthrough: Bool)
    }
    private var held: (secret: String, via: Via)?
    private(set) var clearAt: Date?

    init(terminal: CursesTerminal, system: SystemClipboard? = SystemClipboard.find(),
         environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.terminal = terminal
        self.system = system
        self.environment = environment
    }

    /// Copies; returns the status line to show.
    func copy(_ request: ClipboardRequest) -> String {
        takeBack()  // one secret at a time
        let seconds = Reducer.duration(request.clearAfter)
        if let system {
            let previous = system.read()
            if system.write(request.text) {
                hold(request, via: .system(system, previous: previous))
                return "Copied \(request.subject) with \(system.name) (what it replaced comes back in \(seconds), on lock, on quit)."
            }
        }
        guard terminal.canCopy else { return "This terminal has no clipboard bulwark can reach (no OSC 52, no wl-copy, xclip or xsel). Nothing was copied." }
        // tmux's setting is asked at each copy: a change while the app runs counts.
        var passthrough = false
        switch TmuxClipboard.route(environment: environment) {
        case .buffers?:
            if tmux.copy(request.text) {
                hold(request, via: .tmuxBuffer)
                return "Copied \(request.subject) via tmux; deleted in \(seconds), on lock and on quit."
            }
        case .blocked(let value)?: return TmuxClipboard.blockedMessage(value)
        case .passthrough?: passthrough = true
        case nil: break
        }
        terminal.copyToClipboard(request.text, tmuxPassthrough: passthrough)
        hold(request, via: .osc52(passthrough: passthrough))
        // OSC 52 is a request: the terminal may refuse it without a word, so this says what was sent, not that it arrived.
        return "Sent \(request.subject) to the terminal's clipboard (OSC 52\(passthrough ? ", through tmux's passthrough" : "")); a blank replaces it after \(seconds), on lock and on quit."
    }

    private func hold(_ request: ClipboardRequest, via: Via) {
        held = (request.text, via)
        clearAt = Date().addingTimeInterval(request.clearAfter)
    }

    /// Takes the secret off the clipboard, if one is on it; the status to
    /// show, saying exactly what was cleared and what could not be.
    @discardableResult
    func takeBack() -> String? {
        guard let current = held else { return nil }
        held = nil
        clearAt = nil
        switch current.via {
        case .tmuxBuffer:
            return tmux.takeBack()
        case .osc52(let passthrough):
            terminal.clearClipboard(tmuxPassthrough: passthrough)
            return "The clipboard was cleared: a blank replaced the copy (OSC 52; a history the terminal keeps is beyond bulwark's reach)."
        case .system(let via, let previous):
            switch via.takeBack(current.secret, previous: previous) {
            case .restored: return "The clipboard was cleared: it has its earlier text back."
            case .emptied: return "The clipboard was cleared."
            case .leftAlone: return "The clipboard holds something else now; it was left as it is."
            }
        }
    }
}
