import BulwarkTUI
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
        while store.exitCode == nil {
            if let signal = terminal.takeSignal() {
                if signal == SIGINT {
                    store.send(.interrupt)
                } else {
                    return 128 + signal
                }
            }
            let busy = store.inbox.inFlight > 0 || store.state.upgradeInFlight
            var changed = store.processInbox()
            if let event = terminal.nextEvent(timeoutMilliseconds: busy ? 50 : 200) {
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
            } else if busy {
                store.send(.tick)
                changed = true
            }
            if changed && store.exitCode == nil {
                terminal.draw(AppView.render(store.state, colors: terminal.colors))
            }
        }
        return store.exitCode ?? 0
    }
}
