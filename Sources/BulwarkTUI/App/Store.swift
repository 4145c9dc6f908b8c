import Foundation
import Synchronization

/// Actions that finished effects hand back to the run loop, from any thread.
public final class ActionInbox: Sendable {
    private let queue = Mutex<[AppAction]>([])
    private let pending = Mutex<Int>(0)
    private let onFinish = Mutex<(@Sendable () -> Void)?>(nil)

    public init() {}

    /// Called (on the effect's thread) each time an effect finishes: the
    /// run loop wakes from its wait for keys, so the result is drawn at once.
    public func whenFinished(_ wake: @escaping @Sendable () -> Void) { onFinish.withLock { $0 = wake } }

    func begin() { pending.withLock { $0 += 1 } }

    /// An action from outside the app (the SSH agent's question), from any
    /// thread: queued as a finished effect's would be, and the loop woken.
    public func post(_ action: AppAction) {
        queue.withLock { $0.append(action) }
        onFinish.withLock { $0 }?()
    }

    func finish(_ action: AppAction?) {
        if let action { queue.withLock { $0.append(action) } }
        // The wake before the count drops: whoever waits for no effect in flight
        // (a test's settle) drains only after it, so the woken loop finds the action in.
        onFinish.withLock { $0 }?()
        pending.withLock { $0 -= 1 }
    }

    public func drain() -> [AppAction] { queue.withLock { q in defer { q = [] }; return q } }
    /// How many actions wait to be drained.
    public var drainCount: Int { queue.withLock { $0.count } }
    public var inFlight: Int { pending.withLock { $0 } }
}

/// Holds the state, reduces actions and runs their effects. One Store per
/// app; the run loop (or a test) owns it on one thread.
public final class Store {
    public private(set) var state: AppState
    public let environment: AppEnvironment
    public let inbox = ActionInbox()
    /// Set when an effect asked to quit; the run loop exits with it.
    public private(set) var exitCode: Int32?
    /// Copies effects asked for, oldest first, until the run loop takes them.
    public private(set) var copies: [ClipboardRequest] = []

    /// The copies asked for since the last call (the run loop performs them).
    public func takeCopies() -> [ClipboardRequest] {
        defer { copies = [] }
        return copies
    }

    /// The actions finished effects handed back, oldest first, kept only
    /// when asked (tests assert what came back, as TCA's TestStore does).
    public private(set) var received: [AppAction] = []
    let keepsReceived: Bool

    public init(state: AppState, environment: AppEnvironment = .live, keepsReceived: Bool = false) {
        self.state = state
        self.environment = environment
        self.keepsReceived = keepsReceived
    }

    /// The actions received since the last call.
    public func takeReceived() -> [AppAction] {
        defer { received = [] }
        return received
    }

    public func send(_ action: AppAction) {
        run(Reducer.reduce(into: &state, action: action))
    }

    /// Draws the state and keeps what the frame's lists drew (their
    /// windows) in the state: the one place a frame writes back.
    public func frame(colors: Bool = true, glyphs: GlyphSupport = .unicode) -> Buffer {
        let frame = AppView.render(state, colors: colors, glyphs: glyphs)
        state.adopt(frame.listWindows)
        return frame
    }

    /// Feeds the results of finished effects back in. Returns whether any came.
    @discardableResult
    public func processInbox() -> Bool {
        let actions = inbox.drain()
        if keepsReceived { received += actions }
        for action in actions { send(action) }
        return !actions.isEmpty
    }

    /// Waits until every effect has finished and its action was reduced
    /// (for tests and scripted runs).
    public func settle() async {
        while inbox.inFlight > 0 || processInbox() {
            try? await Task.sleep(nanoseconds: 1_000_000)
        }
    }

    private func run(_ effect: Effect) {
        switch effect {
        case .none: break
        case .quit(let code): exitCode = exitCode ?? code
        case .copy(let request): copies.append(request)
        case .batch(let effects): effects.forEach(run)
        case .run(let operation):
            let inbox = inbox, environment = environment
            inbox.begin()
            // Not detached: a test's task-locals (its identity, for an issue a client records) go with the work.
            Task { inbox.finish(await operation(environment)) }
        }
    }
}
