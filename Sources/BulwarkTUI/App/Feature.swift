import BulwarkCore
import Foundation

/// What a feature's reducer may read of the app without owning it: the
/// vault as last seen, the clock, the entry the keys act on. A copy, so a
/// feature cannot change what is not its own (as TCA's `Scope` hands a
/// child reducer only its own state).
struct AppContext {
    let snapshot: SessionSnapshot
    let now: Date
    let currentEntry: Entry?
    let revealFor: TimeInterval
    let confirmServiceChanges: Bool
    /// The entry a sign-in prompt or a service's app screen is about, and that app's session.
    let focusEntryID: String?
    let appSession: String?

    init(_ state: AppState) {
        snapshot = state.snapshot
        now = state.now
        currentEntry = state.currentEntry
        revealFor = state.revealFor
        confirmServiceChanges = state.confirmServiceChanges
        focusEntryID = state.focusEntryID
        appSession = state.appSession
    }

    func entry(id: String?) -> Entry? { id.flatMap(snapshot.entry(id:)) }
}

/// What a feature asks of the app beside changing its own state: a line on
/// the status row, a banner, and an app-wide action to run next (TCA's
/// delegate actions), with the effect to perform.
struct FeatureOutcome {
    var effect: Effect = .none
    var status: String?
    var banner: Banner?
    var then: AppAction?

    static let none = FeatureOutcome()
    static func run(_ body: @escaping @Sendable (AppEnvironment) async -> AppAction?) -> FeatureOutcome { FeatureOutcome(effect: .run(body)) }
    static func status(_ text: String) -> FeatureOutcome { FeatureOutcome(status: text) }
    static func banner(_ banner: Banner) -> FeatureOutcome { FeatureOutcome(banner: banner) }
}

extension AppState {
    /// Runs a feature's reducer on its own state (at `path`), then does what
    /// it asked of the app.
    mutating func scope<Child, Action>(_ path: WritableKeyPath<AppState, Child>, _ action: Action,
                                       _ reduce: (Action, inout Child, AppContext) -> FeatureOutcome) -> Effect {
        let context = AppContext(self)
        var child = self[keyPath: path]
        let outcome = reduce(action, &child, context)
        self[keyPath: path] = child
        if let status = outcome.status { self.status = status }
        if let banner = outcome.banner { self.banner = banner }
        guard let next = outcome.then else { return outcome.effect }
        let more = Reducer.reduce(into: &self, action: next)
        return outcome.effect.isNone ? more : more.isNone ? outcome.effect : .batch([outcome.effect, more])
    }
}
