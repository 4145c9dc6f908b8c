import Foundation

/// What the app may ask of the outside world: the clock and the clients
/// (see Clients.swift). A client left nil is not attached (a screen-only
/// run): effects that need it do nothing.
public struct AppEnvironment: Sendable {
    public var now: @Sendable () -> Date
    public var vault: (any VaultClient)?
    public var upgrades: (any UpgradeClient)?
    public var signIn: (any SignInClient)?
    public var appleID: (any AppleIDClient)?
    public var sync: (any SyncClient)?
    /// Where the answers to the SSH agent's questions go (nil: the app takes none).
    public var approvals: (any SSHApprovalClient)?

    public init(now: @escaping @Sendable () -> Date = { Date() }, vault: (any VaultClient)? = nil, upgrades: (any UpgradeClient)? = nil,
                signIn: (any SignInClient)? = nil, appleID: (any AppleIDClient)? = nil, sync: (any SyncClient)? = nil,
                approvals: (any SSHApprovalClient)? = nil) {
        self.now = now
        self.vault = vault
        self.upgrades = upgrades
        self.signIn = signIn
        self.appleID = appleID
        self.sync = sync
        self.approvals = approvals
    }

    /// The live environment: every client is the session.
    public init(now: @escaping @Sendable () -> Date = { Date() }, session: AppSession?) {
        self.init(now: now, vault: session, upgrades: session, signIn: session, appleID: session, sync: session)
    }

    /// For tests: every client reports that it was reached (a test sets
    /// the ones it provides), as TCA's unimplemented dependencies do.
    public static func unprovided(now: @escaping @Sendable () -> Date, report: @escaping @Sendable (String) -> Void) -> AppEnvironment {
        let none = UnprovidedClients(report: report)
        return AppEnvironment(now: now, vault: none, upgrades: none, signIn: none, appleID: none, sync: none)
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
