import BulwarkCore
import BulwarkUpgrades
import Foundation

// What the reducers' effects may ask of the world, as small clients (the
// way TCA's dependencies are): each a protocol whose live value is the
// app's session and whose test value a test writes, or leaves out, in
// which case reaching it fails the test (`UnprovidedClients`).

public typealias UpgradeStep = (state: UpgradeState, snapshot: SessionSnapshot)
public typealias WebStep = (step: WebAuthenticationSession.Step, snapshot: SessionSnapshot)

/// The vault: unlocking, the app's own writes, and the other writers' changes.
public protocol VaultClient: Sendable {
    /// What an idle app does: the vault's log folded into its file, the
    /// backup the next change will want made ahead, the index a password
    /// change looks in made (`AppSession.tidyWhileIdle`).
    func tidyWhileIdle()
    func keyDerivationParameters(creating: Bool) -> ScryptParameters?
    func unlock(masterPassword: String) throws -> SessionSnapshot
    func create(masterPassword: String, parameters: ScryptParameters) throws -> SessionSnapshot
    /// A large vault's analysis, one batch per call.
    func analyseNextBatch() -> SessionSnapshot
    func lockVault()
    func snapshot() -> SessionSnapshot
    func saveEdit(_ entry: Entry, basedOn base: Int64?) throws -> (SessionSnapshot, alsoUpdated: [String])
    func delete(id: String, basedOn base: Int64?) throws -> SessionSnapshot
    func setHidden(id: String, _ hidden: Bool, until: Date?) throws -> SessionSnapshot
    /// A sample of the generator's choice, made for the site's rules (quirks, then manifests).
    func generate(_ choice: GeneratorChoice, forSite site: String) -> GeneratedSample?
    func current(id: String) -> Entry?
    func pollExternalChanges() -> AppSession.PollResult
    func resolveConflict(mine: Entry, choice: ConflictChoice) throws -> (SessionSnapshot, String)
    /// An entry's file written to a path (whole, never over a file); what to say.
    func saveAttachment(entryID: String, name: String, to path: String) throws -> String
    /// A file sealed into an entry; the snapshot, and what to say.
    func attachFile(entryID: String, path: String) throws -> (SessionSnapshot, String)
    /// A file taken from an entry; the snapshot, and what to say.
    func removeAttachment(entryID: String, name: String) throws -> (SessionSnapshot, String)
    /// An entry's file handed to the desktop's opener; what to say.
    func openAttachment(entryID: String, name: String) throws -> String
    /// Tab in a path field.
    func completePath(_ partial: String) -> String
    /// An entry put back as it was (an undo): over what is there now, or anew
    /// when it was deleted; the names of its files whose bytes are gone (left off).
    func restoreEntry(_ entry: Entry) throws -> (SessionSnapshot, lostFiles: [String])
}

/// An upgrade at a service, step by step.
public protocol UpgradeClient: Sendable {
    func startUpgrade(_ request: UpgradeRequest) -> UpgradeStep
    func submitCode(_ code: String) -> UpgradeStep
    func resendCode() -> UpgradeStep
    func chooseEmail(hide: Bool) -> UpgradeStep
    func continueWithApple() -> UpgradeStep
    func cancelUpgrade() -> UpgradeStep
    func savePasskey() -> UpgradeStep
    func useVaultPasskey() -> UpgradeStep
    func useSecurityKey(_ name: String) -> UpgradeStep
    func securityKeys() -> [String]
    /// Asks the step under way to stop (Esc while the service works).
    func requestCancel()
    func relayPreview(forEntry id: String) -> String?
}

/// Signing in at a service, directly or through an identity provider's page.
public protocol SignInClient: Sendable {
    func signIn(id: String) -> AppSession.SignInResult
    func webSignInAlert(forEntry id: String) -> WebAuthenticationSession.Step?
    func webContinue(forEntry id: String, ephemeral: Bool) -> WebStep
    func webAutoFillAccount(domain: String) -> String?
    func webAutoFill() -> WebStep
    /// The login form as typed (an account the vault does not hold).
    func webSubmitLogin(email: String, password: String) -> WebStep
    func webCodeFromVault() -> String?
    func webSubmitCode(_ code: String) -> WebStep
    func webConsent(allow: Bool) -> WebStep
    func webCancel() -> WebStep
}

/// Sign in with Apple outside an upgrade, and the demos' Apple ID events.
public protocol AppleIDClient: Sendable {
    func signUpSheet(serviceID: String) -> (sheet: SignInWithAppleSheet, relay: String?)?
    func signUpWithApple(serviceID: String, hideEmail: Bool) -> AppSession.SignUpResult
    func sendAppleIDEvent(_ event: String, entryTitle: String) -> String
    func transferApp(service: String, toTeam team: String) -> String
}

/// Sync with the other machines.
public protocol SyncClient: Sendable {
    func syncNow() -> AppSession.SyncResult
    func settleSyncConflict(_ entryID: String, choice: ConflictChoice) -> (SessionSnapshot?, String, [SyncConflictView])
    func followRekey(masterPassword: String) -> AppSession.RekeyResult
}

/// The SSH agent's questions (`SSHApprovalListener`): the person's answer sent back.
public protocol SSHApprovalClient: Sendable {
    func answer(_ id: UInt64, _ answer: SSHApprovalAnswer)
}

extension VaultClient {
    /// Nothing for a client without a vault file.
    public func tidyWhileIdle() {}

    func setHidden(id: String, _ hidden: Bool) throws -> SessionSnapshot {
        try setHidden(id: id, hidden, until: nil)
    }

    func create(masterPassword: String) throws -> SessionSnapshot {
        try create(masterPassword: masterPassword, parameters: .standard)
    }
}

/// The live value of every client: the session that holds the vault and the services.
extension AppSession: VaultClient, UpgradeClient, SignInClient, AppleIDClient, SyncClient {}
