import BulwarkTUI
import Foundation
import Glibc

/// event → keymap → action → reduce → effect; render → diff → draw.
public enum RunLoop {
    /// Runs the app until it quits; returns the exit status. The terminal
    /// is restored before this returns, whatever happened.
    public static func run(store: Store, terminal: CursesTerminal) -> Int32 {
        defer { terminal.close() }
        var size = terminal.size
        store.send(.resize(width: size.width, height: size.height))
        terminal.draw(AppView.render(store.state, colors: terminal.colors))
        var copiedID = store.state.clipboard?.id
        var clearAt: Date?
        while store.exitCode == nil {
            // Clipboard writes the reducer asked for, and their clearing 30 s later.
            if let request = store.state.clipboard, request.id != copiedID {
                copiedID = request.id
                if terminal.canCopy {
                    terminal.copyToClipboard(request.text)
                    clearAt = Date().addingTimeInterval(30)
                } else {
                    store.send(.setStatus("This terminal cannot take a copy (no OSC 52 clipboard); nothing was copied."))
                }
            }
            if let deadline = clearAt, Date() >= deadline {
                terminal.copyToClipboard("")
                clearAt = nil
            }
            if let signal = terminal.takeSignal() {
                if signal == SIGINT {
                    store.send(.interrupt)
                } else {
                    return 128 + signal
                }
            }
            let busy = store.inbox.inFlight > 0 || store.state.upgradeWorking || store.state.busy
            var changed = store.processInbox()
            if let event = terminal.nextEvent(timeoutMilliseconds: busy ? 80 : 1000) {
                switch event {
                case .resize:
                    size = terminal.size
                    terminal.invalidate()
                    store.send(.resize(width: size.width, height: size.height))
                case .key(let key):
                    store.send(.key(key))
                }
                changed = true
            } else if terminal.inputHungUp {
                // The terminal is gone and no SIGHUP came: stop rather than spin.
                return 128 + SIGHUP
            } else {
                // A tick each second (the code countdown), faster while a service works.
                store.send(.tick(Date()))
                changed = true
            }
            if changed && store.exitCode == nil {
                terminal.draw(AppView.render(store.state, colors: terminal.colors))
            }
        }
        return store.exitCode ?? 0
    }
}
