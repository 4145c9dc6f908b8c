import BulwarkCore
import Foundation

/// The host side of an upgrade: an explicit state machine that generates
/// the new password, stages it durably in the vault before the service
/// commits, drives the extension through the protocol (step-up, the Sign in
/// with Apple sheet, cancel), and settles or drops the staged change. One
/// request at a time; every call returns the state to draw next.
public final class UpgradeEngine {
    public let vault: Vault
    public let world: any ServiceDirectory
    public let appleID: AppleIDAccount
    public let requirements: SiteRequirements
    /// Which sites share one account's credentials: an upgrade changes every entry of the account.
    public let sharing: SharedCredentials

    public internal(set) var state: UpgradeState?
    public private(set) var request: UpgradeRequest?
    public internal(set) var manifest: ServiceManifest?
    var extensionInstance: AccountModificationExtension?
    var context = ModificationContext()
    /// Set from another thread when the person cancels while the service works.
    public let cancellation: HostCancellation
    var credential: ExistingCredential?
    private var proposed = ""

    /// `appleID`: whose Apple ID the Sign in with Apple sheet uses (else the one the directory knows).
    public init(vault: Vault, world: any ServiceDirectory, appleID: AppleIDAccount? = nil, quirks: QuirksDirectory? = nil,
                cancellation: HostCancellation = HostCancellation()) {
        self.vault = vault
        self.cancellation = cancellation
        self.world = world
        self.appleID = appleID ?? world.appleID
        requirements = SiteRequirements(quirks: quirks, services: world.catalog)
        sharing = world.catalog.sharing(quirks)
    }

    public var catalog: ServiceCatalog { world.catalog }

    // MARK: Starting

    /// Starts an upgrade and runs it until it ends or needs the person.
    @discardableResult
    public func start(_ request: UpgradeRequest) -> UpgradeState {
        self.request = request
        manifest = nil
        cancellation.clear()
        guard let entry = vault.entry(id: request.entryID) else { return finish(.failed(reason: "The entry no longer exists.")) }
        if request.origin == .inApp {
            // An app's own request: the account's password is not passed, only its session.
            guard let found = catalog.manifest(forHost: entry.site) else { return finish(.failed(reason: "bulwark has no upgrade for \(entry.site)")) }
            manifest = found
        } else {
            switch catalog.availability(request.kind, for: entry) {
            case .unavailable(let reason): return finish(.failed(reason: reason.sentenceCased + "."))
            case .offered(let found): manifest = found
            }
        }
        guard let manifest else { return finish(.failed(reason: UpgradeState.defaultFailure)) }
        do {
            let ext = try world.modificationExtension(for: manifest)
            extensionInstance = ext
            credential = request.origin == .inApp ? nil : entry.password.map { ExistingCredential(user: entry.username, password: $0) }
            let service = Self.serviceIdentifier(for: entry)
            var userInfo = request.userInfo ?? [:]
            if request.origin == .inApp { userInfo["user"] = entry.username }
            context = makeContext()
            let info = userInfo.isEmpty ? nil : userInfo
            switch request.kind {
            case .strongPassword:
                proposed = try generatePassword(for: entry.site)
                try stage(.strongPassword, entry, newPassword: proposed)
                ext.changePasswordWithoutUserInteraction(for: credential, newPassword: proposed, service: service, userInfo: info, context: context)
            case .signInWithApple:
                try stage(.signInWithApple, entry)
                ext.convertToSignInWithAppleWithoutUserInteraction(for: credential, service: service, userInfo: info, context: context)
            case .passkey:
                guard let passkeyExtension = ext as? PasskeyModificationExtension else {
                    return finish(.failed(reason: "\(manifest.name) does not accept passkeys."))
                }
                try stage(.passkey, entry)
                passkeyExtension.upgradeToPasskeyWithoutUserInteraction(for: credential, service: service, userInfo: info, context: context)
            }
            return handleReply(service: service, userInfo: userInfo)
        } catch {
            dropStaged()
            return finish(.failed(reason: "\(error)"))
        }
    }

    /// The change kept durably in the vault before the service is asked to make it.
    private func stage(_ kind: PendingChange.Kind, _ entry: Entry, newPassword: String? = nil) throws {
        let staged = PendingChange(kind: kind, newPassword: newPassword, startedAt: world.clock())
        _ = try vault.update(entry.id) { $0.pendingChange = staged }
        KillPoint.reach("staged")
        state = .authorising
    }

    private func makeContext() -> ModificationContext {
        ModificationContext(cancellation: cancellation) { [weak self] updated in
            // A service that sets its own password: keep it before it commits.
            guard let self, let entry = self.entry() else { return }
            try self.vault.update(entry.id) { $0.pendingChange?.newPassword = updated.password }
        }
    }

    private func generatePassword(for site: String) throws -> String {
        let text = requirements.passwordRules(for: site)?.rules ?? ""
        var generator = try PasswordGenerator(rules: try PasswordRules.parse(text))
        return generator.next()
    }

    /// The URL the credential was saved for, as Apple's host passes it; a domain when there is none.
    static func serviceIdentifier(for entry: Entry) -> ServiceIdentifier {
        entry.urls.first.map(ServiceIdentifier.init(url:)) ?? ServiceIdentifier(domain: entry.site)
    }

    func entry() -> Entry? { request.flatMap { r in vault.entry(id: r.entryID) } }

    // MARK: The person's actions

    /// A code typed, or filled from the vault or Messages.
    @discardableResult
    public func submitCode(_ code: String) -> UpgradeState {
        guard let ext = extensionInstance else { return state ?? .cancelled }
        return verify { ext.submitStepUpCode(code, context: $0) }
    }

    /// Hands the step-up screen's answer to the extension: the screen it
    /// shows next, or the request's reply.
    func verify(_ answer: (ModificationContext) -> StepUpScreen?) -> UpgradeState {
        guard case .stepUp(let screen) = state else { return state ?? .cancelled }
        cancellation.clear()
        state = .verifying(screen)
        context.reset()
        if let next = answer(context) {
            state = .stepUp(next)
            return state!
        }
        return handleReply(service: entry().map(Self.serviceIdentifier(for:)) ?? ServiceIdentifier(domain: ""), userInfo: request?.userInfo)
    }

    @discardableResult
    public func resendCode() -> UpgradeState {
        guard case .stepUp = state, let ext = extensionInstance else { return state ?? .cancelled }
        state = .stepUp(ext.resendStepUpCode())
        return state!
    }

    /// Share My Email or Hide My Email on the sheet.
    @discardableResult
    public func chooseEmail(hide: Bool) -> UpgradeState {
        guard case .sheet(var sheet) = state else { return state ?? .cancelled }
        sheet.hideEmail = hide
        state = .sheet(sheet)
        return state!
    }

    /// Continue on the sheet: the identity provider answers, the extension
    /// exchanges the credential with its backend.
    @discardableResult
    public func continueWithApple() -> UpgradeState {
        guard case .sheet(let sheet) = state, let ext = extensionInstance, let manifest,
              case .signInWithAppleRequested(let requestState, let nonce)? = pendingSheetRequest else { return state ?? .cancelled }
        cancellation.clear()
        state = .exchanging
        let result: Result<AppleIDCredential, ModificationError>
        if manifest.behaviour.networkLossAtSheet {
            result = .failure(.failed(reason: nil))
        } else {
            do {
                result = .success(try world.appleIDProvider().authorize(appleID: appleID.email, fullName: appleID.fullName, team: manifest.teamID,
                                                                       audience: manifest.appID, nonce: nonce, state: requestState,
                                                                       hideEmail: sheet.hideEmail, scopes: manifest.requestedAppleIDScopes))
            } catch {
                result = .failure(.failed(reason: nil))
            }
        }
        lastCredential = try? result.get()
        if let credential = lastCredential, let entry = entry() {
            // Kept sealed with the staged change before the service is told: a crash from here on
            // finishes with this credential on the next start (Reconciler), not with a second sheet.
            _ = try? vault.update(entry.id) { $0.pendingChange?.appleCredential = KeptAppleCredential(credential, nonce: nonce).text }
            KillPoint.reach("apple-credential-kept")
        }
        context.reset()
        ext.signInWithAppleFinished(result, context: context)
        return handleReply(service: entry().map(Self.serviceIdentifier(for:)) ?? ServiceIdentifier(domain: ""), userInfo: request?.userInfo)
    }

    private var pendingSheetRequest: ModificationContext.Reply?
    /// The relying party's creation options while the passkey sheet is up.
    var passkeyOptions: CreationOptions?
    private var lastCredential: AppleIDCredential?

    /// The host's Cancel while a step runs on another thread: the running
    /// step ends with `cancelled` unless the service had already committed.
    public func requestCancel() { cancellation.request() }

    /// The host's Cancel, from any interactive state.
    @discardableResult
    public func cancel() -> UpgradeState {
        guard let current = state, !current.isFinished else { return state ?? .cancelled }
        context.reset()
        extensionInstance?.cancelRequest(context: context)
        dropStaged()
        return finish(.cancelled)
    }

    // MARK: Replies

    func handleReply(service: ServiceIdentifier, userInfo: [String: String]?) -> UpgradeState {
        guard let reply = context.reply else { return state ?? .authorising }
        switch reply {
        case .passwordChanged(let updated):
            return settlePassword(updated.password)
        case .signInWithAppleRequested:
            pendingSheetRequest = reply
            return presentSheet()
        case .convertedToSignInWithApple:
            return settleSignInWithApple()
        case .passkeyRegistrationRequested(let options):
            return presentPasskeySheet(options: options)
        case .upgradedToPasskey:
            return settlePasskey()
        case .cancelled(.userInteractionRequired):
            guard let ext = extensionInstance, let kind = request?.kind else { return finish(.failed(reason: UpgradeState.defaultFailure)) }
            let screen: StepUpScreen
            switch kind {
            case .strongPassword:
                screen = ext.prepareInterfaceToChangePassword(for: credential, newPassword: proposed, service: service, userInfo: userInfo)
            case .signInWithApple:
                screen = ext.prepareInterfaceToConvertToSignInWithApple(for: credential, service: service, userInfo: userInfo)
            case .passkey:
                guard let passkeyExtension = ext as? PasskeyModificationExtension else { return finish(.failed(reason: UpgradeState.defaultFailure)) }
                screen = passkeyExtension.prepareInterfaceToUpgradeToPasskey(for: credential, service: service, userInfo: userInfo)
            }
            state = .stepUp(screen)
            return state!
        case .cancelled(.userCanceled):
            dropStaged()
            return finish(.cancelled)
        case .cancelled(.failed(let reason)):
            dropStaged()
            return finish(.failed(reason: reason ?? UpgradeState.defaultFailure))
        }
    }

    private func presentSheet() -> UpgradeState {
        // Step-up UI, if any, is dismissed first: the sheet replaces it.
        state = .sheet(SignInWithAppleSheet(serviceName: manifest?.name ?? "", fullName: appleID.fullName,
                                            sharedEmail: appleID.email, hideEmail: false, scopes: manifest?.requestedAppleIDScopes ?? AppleIDScope.allCases))
        return state!
    }

    private func settlePassword(_ password: String) -> UpgradeState {
        guard let staged = entry(), let request, let manifest else { return finish(.failed(reason: UpgradeState.defaultFailure)) }
        let reason = request.origin == .inApp ? "upgraded to a strong password in \(manifest.name)" : "upgraded to a strong password"
        let now = world.clock()
        let others = AccountEntries.others(of: staged, in: vault.entries, manifest: manifest, sharing: sharing)
        let updated: [Entry]
        do {
            updated = try vault.updateEach([staged.id] + others.map(\.id)) { entry in
                if entry.id == staged.id {
                    entry.changePassword(to: password, reason: reason, at: now)
                    entry.pendingChange = nil
                } else if entry.pendingChange == nil && entry.signInWithApple == nil && entry.password != password {
                    entry.changePassword(to: password, reason: "\(reason) (the same account as \(staged.title))", at: now)
                }
            }
        } catch { return finish(.failed(reason: "The service changed the password but the vault could not save it: \(error). It is kept staged and will be settled on the next start.")) }
        KillPoint.reach("settled")
        var outcome = UpgradeOutcome(kind: .strongPassword, entryID: staged.id, serviceName: manifest.name,
                                     substituted: password != proposed, email: nil, isPrivateRelay: false)
        outcome.alsoUpdated = updated.filter { $0.id != staged.id }.map(\.title)
        outcome.alsoUpdatedIDs = updated.filter { $0.id != staged.id }.map(\.id)
        return finish(.completed(outcome))
    }

    private func settleSignInWithApple() -> UpgradeState {
        guard let staged = entry(), let manifest, let credential = lastCredential else { return finish(.failed(reason: UpgradeState.defaultFailure)) }
        let now = world.clock()
        let link = SignInWithAppleLink(user: credential.user, email: credential.email, isPrivateRelay: credential.isPrivateRelay)
        let others = AccountEntries.others(of: staged, in: vault.entries, manifest: manifest, sharing: sharing)
        let updated: [Entry]
        do {
            updated = try vault.updateEach([staged.id] + others.map(\.id)) { entry in
                guard entry.id == staged.id || entry.pendingChange == nil else { return }
                entry.removePasswordAndHistory(at: now)
                entry.signInWithApple = link
                entry.pendingChange = nil
            }
        } catch { return finish(.failed(reason: "Linked, but the vault could not save it: \(error). It will be settled on the next start.")) }
        KillPoint.reach("settled")
        var outcome = UpgradeOutcome(kind: .signInWithApple, entryID: staged.id, serviceName: manifest.name, substituted: false,
                                     email: credential.email, isPrivateRelay: credential.isPrivateRelay)
        outcome.alsoUpdated = updated.filter { $0.id != staged.id }.map(\.title)
        outcome.alsoUpdatedIDs = updated.filter { $0.id != staged.id }.map(\.id)
        return finish(.completed(outcome))
    }

    /// A cancelled or failed upgrade leaves the vault as it was.
    func dropStaged() {
        guard let entry = entry(), let pending = entry.pendingChange else { return }
        // A staged passkey the service did not keep goes with the change;
        // one its relying party did register stays (it signs in there).
        let registered = pending.passkeyID.map { id in
            (try? manifest.flatMap { try world.passkeyRelyingParty(for: $0) }?.isRegistered(id)) == true
        } ?? false
        _ = try? vault.update(entry.id) { staged in
            staged.pendingChange = nil
            if let id = pending.passkeyID, !registered { staged.passkeys.removeAll { $0.id == id } }
        }
    }

    func finish(_ end: UpgradeState) -> UpgradeState {
        state = end
        extensionInstance = nil
        pendingSheetRequest = nil
        passkeyOptions = nil
        return end
    }
}
