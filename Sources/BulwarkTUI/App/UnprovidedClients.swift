import BulwarkCore
import BulwarkUpgrades
import Foundation

/// Every client, none of them provided: each call reports its name (a
/// test records it as a failure) and answers with nothing: an empty
/// snapshot, a refusal, an error. A test provides the clients its flow
/// should reach; reaching any other is a bug in the flow or in the test.
public struct UnprovidedClients: Sendable {
    public struct Unprovided: Error, CustomStringConvertible {
        public let client: String
        public var description: String { "\(client) was reached, but the test did not provide it." }
    }

    let report: @Sendable (String) -> Void

    public init(report: @escaping @Sendable (String) -> Void) { self.report = report }

    private func reached(_ name: String) -> SessionSnapshot {
        report(Unprovided(client: name).description)
        return SessionSnapshot()
    }

    private func step(_ name: String) -> UpgradeStep { (.failed(reason: "\(name) is not provided."), reached(name)) }
    private func web(_ name: String) -> WebStep { (.cancelled, reached(name)) }
    private func fail(_ name: String) -> Unprovided {
        _ = reached(name)
        return Unprovided(client: name)
    }
}

extension UnprovidedClients: VaultClient {
    public func keyDerivationParameters(creating: Bool) -> ScryptParameters? { _ = reached("VaultClient.keyDerivationParameters"); return nil }
    public func unlock(masterPassword: String) throws -> SessionSnapshot { throw fail("VaultClient.unlock") }
    public func create(masterPassword: String, parameters: ScryptParameters) throws -> SessionSnapshot { throw fail("VaultClient.create") }
    public func analyseNextBatch() -> SessionSnapshot { reached("VaultClient.analyseNextBatch") }
    public func lockVault() { _ = reached("VaultClient.lockVault") }
    public func snapshot() -> SessionSnapshot { reached("VaultClient.snapshot") }
    public func saveEdit(_ entry: Entry, basedOn base: Int64?) throws -> (SessionSnapshot, alsoUpdated: [String]) { throw fail("VaultClient.saveEdit") }
    public func delete(id: String, basedOn base: Int64?) throws -> SessionSnapshot { throw fail("VaultClient.delete") }
    public func setHidden(id: String, _ hidden: Bool, until: Date?) throws -> SessionSnapshot { throw fail("VaultClient.setHidden") }
    public func saveAttachment(entryID: String, name: String, to path: String) throws -> String { throw fail("VaultClient.saveAttachment") }
    public func attachFile(entryID: String, path: String) throws -> (SessionSnapshot, String) { throw fail("VaultClient.attachFile") }
    public func removeAttachment(entryID: String, name: String) throws -> (SessionSnapshot, String) { throw fail("VaultClient.removeAttachment") }
    public func openAttachment(entryID: String, name: String) throws -> String { throw fail("VaultClient.openAttachment") }
    public func completePath(_ partial: String) -> String { _ = reached("VaultClient.completePath"); return partial }
    public func restoreEntry(_ entry: Entry) throws -> (SessionSnapshot, lostFiles: [String]) { throw fail("VaultClient.restoreEntry") }
    public func generate(_ choice: GeneratorChoice, forSite site: String) -> GeneratedSample? { _ = reached("VaultClient.generate"); return nil }
    public func current(id: String) -> Entry? { _ = reached("VaultClient.current"); return nil }
    public func pollExternalChanges() -> AppSession.PollResult { _ = reached("VaultClient.pollExternalChanges"); return .unchanged }
    public func resolveConflict(mine: Entry, choice: ConflictChoice) throws -> (SessionSnapshot, String) { throw fail("VaultClient.resolveConflict") }
}

extension UnprovidedClients: UpgradeClient {
    public func startUpgrade(_ request: UpgradeRequest) -> UpgradeStep { step("UpgradeClient.startUpgrade") }
    public func submitCode(_ code: String) -> UpgradeStep { step("UpgradeClient.submitCode") }
    public func resendCode() -> UpgradeStep { step("UpgradeClient.resendCode") }
    public func chooseEmail(hide: Bool) -> UpgradeStep { step("UpgradeClient.chooseEmail") }
    public func continueWithApple() -> UpgradeStep { step("UpgradeClient.continueWithApple") }
    public func cancelUpgrade() -> UpgradeStep { step("UpgradeClient.cancelUpgrade") }
    public func savePasskey() -> UpgradeStep { step("UpgradeClient.savePasskey") }
    public func useVaultPasskey() -> UpgradeStep { step("UpgradeClient.useVaultPasskey") }
    public func useSecurityKey(_ name: String) -> UpgradeStep { step("UpgradeClient.useSecurityKey") }
    public func securityKeys() -> [String] { _ = reached("UpgradeClient.securityKeys"); return [] }
    public func requestCancel() { _ = reached("UpgradeClient.requestCancel") }
    public func relayPreview(forEntry id: String) -> String? { _ = reached("UpgradeClient.relayPreview"); return nil }
}

extension UnprovidedClients: SignInClient {
    public func signIn(id: String) -> AppSession.SignInResult { _ = reached("SignInClient.signIn"); return .refused("not provided") }
    public func webSignInAlert(forEntry id: String) -> WebAuthenticationSession.Step? { _ = reached("SignInClient.webSignInAlert"); return nil }
    public func webContinue(forEntry id: String, ephemeral: Bool) -> WebStep { web("SignInClient.webContinue") }
    public func webAutoFillAccount(domain: String) -> String? { _ = reached("SignInClient.webAutoFillAccount"); return nil }
    public func webAutoFill() -> WebStep { web("SignInClient.webAutoFill") }
    public func webSubmitLogin(email: String, password: String) -> WebStep { web("SignInClient.webSubmitLogin") }
    public func webCodeFromVault() -> String? { _ = reached("SignInClient.webCodeFromVault"); return nil }
    public func webSubmitCode(_ code: String) -> WebStep { web("SignInClient.webSubmitCode") }
    public func webConsent(allow: Bool) -> WebStep { web("SignInClient.webConsent") }
    public func webCancel() -> WebStep { web("SignInClient.webCancel") }
}

extension UnprovidedClients: AppleIDClient {
    public func signUpSheet(serviceID: String) -> (sheet: SignInWithAppleSheet, relay: String?)? { _ = reached("AppleIDClient.signUpSheet"); return nil }
    public func signUpWithApple(serviceID: String, hideEmail: Bool) -> AppSession.SignUpResult {
        _ = reached("AppleIDClient.signUpWithApple")
        return .refused("not provided")
    }
    public func sendAppleIDEvent(_ event: String, entryTitle: String) -> String { _ = reached("AppleIDClient.sendAppleIDEvent"); return "" }
    public func transferApp(service: String, toTeam team: String) -> String { _ = reached("AppleIDClient.transferApp"); return "" }
}

extension UnprovidedClients: SyncClient {
    public func syncNow() -> AppSession.SyncResult { _ = reached("SyncClient.syncNow"); return .notLinked }
    public func settleSyncConflict(_ entryID: String, choice: ConflictChoice) -> (SessionSnapshot?, String, [SyncConflictView]) {
        (reached("SyncClient.settleSyncConflict"), "", [])
    }
    public func followRekey(masterPassword: String) -> AppSession.RekeyResult { _ = reached("SyncClient.followRekey"); return .failed("not provided") }
}
