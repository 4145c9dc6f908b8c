import BulwarkTUI
import Foundation
import Glibc

/// event → keymap → action → reduce → effect; render → diff → draw.
public enum RunLoop {
    /// How a demo's autoplay ended the loop.
    public enum AutoplayEnd: Equatable {
        case finished, failed(String), restart
        /// The presenter stopped it (q).
        case stopped
        /// In the tour: the next chapter (+1) or the previous (-1), asked for with → or ←.
        case chapter(Int)
    }

    /// What the loop does when a scenario has played to its end.
    public enum AutoplayFinish: Equatable, Sendable {
        /// Ends the loop at once (`--exit`, and each chapter of the tour).
        case exit
        /// Keeps the last frame, saying so, until a key (the default).
        case holdUntilKey
        /// Gives the session to the presenter (`--stay`).
        case keepSession
    }

    /// The caption on the last frame while it is held.
    public static let heldCaption = "The end · any key leaves"

    /// Runs the app until it quits; returns the exit status. The terminal
    /// is restored before this returns, whatever happened. With `autoplay`,
    /// a scenario drives the keys (the keyboard is the presenter's) and the
    /// loop ends as `finish` says; `recorder` gets every frame.
    public static func run(store: Store, terminal: CursesTerminal, autoplay: Autoplay? = nil, finish: AutoplayFinish = .exit,
                           recorder: AsciicastRecorder? = nil, autoplayEnd: ((AutoplayEnd) -> Void)? = nil,
                           afterFirstFrame: (() -> Bool)? = nil) -> Int32 {
        let clipboard = ClipboardKeeper(terminal: terminal)
        defer {
            // A secret still on the clipboard is taken back on the way out.
            clipboard.takeBack()
            terminal.close()
        }
        var autoplay = autoplay
        var leaveOnKey = false
        // A finished effect ends the wait for keys: its result is drawn at once.
        store.inbox.whenFinished(terminal.wake)
        var size = terminal.size
        store.send(.resize(width: size.width, height: size.height))
        if let autoplay { store.send(.setPresenter(autoplay.presenter)) }
        // The frame on screen: clicks land on what it drew.
        var shown: Buffer?
        var clock = TickClock(start: Date())
        func draw() {
            let frame = store.frame(colors: terminal.colors, glyphs: terminal.glyphs)
            shown = frame
            terminal.draw(frame)
            recorder?.record(frame)
        }
        draw()
        // A caller measuring start-up may stop here.
        if afterFirstFrame?() == true { return 0 }
        while store.exitCode == nil {
            // Clipboard writes the reducer asked for, and taking them back later, on
            // lock and on quit; what they say is drawn now, not at the next tick.
            var clipboardSaid = false
            for request in store.takeCopies() {
                store.send(.setStatus(clipboard.copy(request)))
                store.send(.clipboardHeld(until: clipboard.clearAt))
                clipboardSaid = true
            }
            if let deadline = clipboard.clearAt, Date() >= deadline || !store.state.unlocked, let said = clipboard.takeBack() {
                store.send(.setStatus(said))
                store.send(.clipboardHeld(until: nil))
                clipboardSaid = true
            }
            if let signal = terminal.takeSignal() {
                if signal == SIGINT {
                    store.send(.interrupt)
                } else {
                    return 128 + signal
                }
            }
            let busy = store.inbox.inFlight > 0 || store.state.upgradeWorking || store.state.busy || autoplay != nil
            var changed = store.processInbox() || clipboardSaid
            if let player = autoplay {
                changed = player.advance(store: store, now: Date(), screen: { store.frame().textDump() }) || changed
                if player.restartRequested {
                    autoplayEnd?(.restart)
                    return 0
                }
                if let step = player.chapterRequested {
                    autoplayEnd?(.chapter(step))
                    return 0
                }
                if let failure = player.failure {
                    autoplayEnd?(.failed(failure))
                    return 1
                }
                if player.finished && (store.inbox.inFlight == 0 || player.stopRequested) {
                    autoplayEnd?(player.stopRequested ? .stopped : .finished)
                    store.send(.setCaption(nil))
                    store.send(.setPresenter(nil))
                    if finish == .exit || (finish == .holdUntilKey && player.stopRequested) { draw(); return 0 }
                    if finish == .holdUntilKey {
                        store.send(.setCaption(heldCaption))
                        leaveOnKey = true
                    }
                    autoplay = nil
                    changed = true
                }
            }
            // What finished effects changed is drawn now, not after the next
            // key or the next idle tick (up to a second later); an effect
            // that quits ends the loop now.
            if store.exitCode != nil { break }
            if changed {
                draw()
                changed = false
            }
            if var event = terminal.nextEvent(timeoutMilliseconds: clock.waitMilliseconds(now: Date(), busy: busy)) {
                // A click on a button is its key; on a row, or the wheel, an action (not during autoplay).
                if case .mouse(let mouse) = event, let frame = shown {
                    switch MouseRouter.route(mouse, on: frame) {
                    case .key(let key)?: event = .key(key)
                    case .action(let action)? where autoplay == nil: store.send(action)
                    default: break
                    }
                }
                switch event {
                case .mouse: break
                case .resize:
                    size = terminal.size
                    terminal.invalidate()
                    store.send(.resize(width: size.width, height: size.height))
                case .key where leaveOnKey:
                    return 0
                case .key(let key):
                    // During autoplay the keyboard belongs to the presenter (and Ctrl-C).
                    if let player = autoplay, key != .ctrl("c") {
                        _ = player.presenterKey(key)
                        store.send(.setPresenter(player.finished ? nil : player.presenter))
                    } else {
                        store.send(.key(key))
                    }
                }
                changed = true
            } else if terminal.inputHungUp {
                // The terminal is gone and no SIGHUP came: stop rather than spin.
                return 128 + SIGHUP
            } else if clock.takeTick(now: Date(), busy: busy) {
                // A tick each second (the code countdown), faster while something works;
                // a finished effect's wake is not one (its action is taken at the top of the loop).
                store.send(.tick(Date()))
                changed = true
            }
            if changed && store.exitCode == nil { draw() }
        }
        return store.exitCode ?? 0
    }
}
