import BulwarkCore
import Foundation

/// The host's part of an upgrade to a passkey, and of a security-key
/// step-up: the sheet that asks to save the passkey, the passkey made and
/// staged in the vault before the service keeps it, the settling; and an
/// assertion for a security-key step-up, from the vault's passkey for the
/// service or from a USB key.
extension UpgradeEngine {
    /// The service asked for a passkey: check its options as a browser
    /// would (the RP ID must be the service's own) and show the sheet.
    func presentPasskeySheet(options text: String) -> UpgradeState {
        guard let entry = entry(), let manifest else { return finish(.failed(reason: UpgradeState.defaultFailure)) }
        let options: CreationOptions
        do {
            options = try CreationOptions.parse(Data(text.utf8))
            _ = try PasskeyAuthenticator.checkOrigin(Self.origin(of: manifest), rpID: options.rpID)
        } catch {
            extensionInstance.flatMap { $0 as? PasskeyModificationExtension }?
                .passkeyRegistrationFinished(.failure(.failed(reason: nil)), context: context)
            dropStaged()
            return finish(.failed(reason: "\(manifest.name) asked for a passkey bulwark cannot make: \(error)."))
        }
        passkeyOptions = options
        state = .passkeySheet(PasskeySheet(serviceName: manifest.name, rpID: options.rpID ?? manifest.primaryDomain,
                                           userName: options.userName.isEmpty ? entry.username : options.userName,
                                           userDisplayName: options.userDisplayName))
        return state!
    }

    /// Save on the sheet: the passkey is made, kept in the vault (staged)
    /// and only then given to the service.
    @discardableResult
    public func savePasskey() -> UpgradeState {
        guard case .passkeySheet = state, let ext = extensionInstance as? PasskeyModificationExtension, let options = passkeyOptions,
              let manifest, let entry = entry() else { return state ?? .cancelled }
        cancellation.clear()
        state = .exchanging
        let created: PasskeyAuthenticator.Created
        do {
            created = try PasskeyAuthenticator.create(options, origin: Self.origin(of: manifest), existing: entry.passkeys, now: world.clock())
            _ = try vault.update(entry.id) { staged in
                staged.passkeys.append(created.passkey)
                staged.pendingChange?.passkeyID = created.passkey.id
            }
        } catch {
            context.reset()
            ext.passkeyRegistrationFinished(.failure(.failed(reason: nil)), context: context)
            dropStaged()
            return finish(.failed(reason: "The passkey could not be made: \(error). Nothing was changed."))
        }
        KillPoint.reach("passkey-staged")
        context.reset()
        ext.passkeyRegistrationFinished(.success(created.response), context: context)
        return handleReply(service: Self.serviceIdentifier(for: entry), userInfo: request?.userInfo)
    }

    /// The service kept the passkey and stopped taking the password: the
    /// password is retired into history, on every entry of the account.
    func settlePasskey() -> UpgradeState {
        guard let staged = entry(), let manifest, let request else { return finish(.failed(reason: UpgradeState.defaultFailure)) }
        let now = world.clock()
        let reason = request.origin == .inApp ? "upgraded to a passkey in \(manifest.name)" : "upgraded to a passkey"
        let others = AccountEntries.others(of: staged, in: vault.entries, manifest: manifest, sharing: sharing)
        let updated: [Entry]
        do {
            updated = try vault.updateEach([staged.id] + others.map(\.id)) { entry in
                if entry.id == staged.id {
                    entry.retirePassword(reason: reason, at: now)
                    entry.pendingChange = nil
                } else if entry.pendingChange == nil && entry.signInWithApple == nil {
                    entry.retirePassword(reason: "\(reason) (the same account as \(staged.title), which keeps the passkey)", at: now)
                }
            }
        } catch { return finish(.failed(reason: "The service took the passkey but the vault could not settle it: \(error). It is kept staged and will be settled on the next start.")) }
        KillPoint.reach("settled")
        var outcome = UpgradeOutcome(kind: .passkey, entryID: staged.id, serviceName: manifest.name, substituted: false,
                                     email: nil, isPrivateRelay: false)
        outcome.alsoUpdated = updated.filter { $0.id != staged.id }.map(\.title)
        outcome.alsoUpdatedIDs = updated.filter { $0.id != staged.id }.map(\.id)
        return finish(.completed(outcome))
    }

    // MARK: Security-key step-up

    /// Whether the vault holds a passkey that answers the step-up screen's request.
    public func vaultPasskeyAnswers(_ screen: StepUpScreen) -> Bool {
        guard let text = screen.securityKeyOptions, let options = try? RequestOptions.parse(Data(text.utf8)), let entry = entry(),
              let manifest, let found = try? PasskeyAuthenticator.candidates(options, origin: Self.origin(of: manifest), among: entry.passkeys) else {
            return false
        }
        return !found.passkeys.isEmpty
    }

    /// Answers a security-key step-up with the passkey the vault keeps for the service.
    @discardableResult
    public func useVaultPasskey() -> UpgradeState {
        guard case .stepUp(let screen) = state, let text = screen.securityKeyOptions, let manifest, let entry = entry() else { return state ?? .cancelled }
        do {
            let options = try RequestOptions.parse(Data(text.utf8))
            let found = try PasskeyAuthenticator.candidates(options, origin: Self.origin(of: manifest), among: entry.passkeys)
            guard let passkey = found.passkeys.first else { throw WebAuthnError("no passkey") }
            return submitAssertion(try PasskeyAuthenticator.assert(options, origin: found.origin, with: passkey).response)
        } catch {
            state = .stepUp(screen.saying("\(entry.title) holds no passkey for \(manifest.primaryDomain) that \(manifest.name) asked for."))
            return state!
        }
    }

    /// The key could not be asked (unplugged, timed out): the same screen, saying so.
    @discardableResult
    public func refuseSecurityKey(_ message: String) -> UpgradeState {
        guard case .stepUp(let screen) = state else { return state ?? .cancelled }
        state = .stepUp(screen.saying(message))
        return state!
    }

    /// Answers a security-key step-up with an `AuthenticationResponseJSON`
    /// (from a USB key, or `useVaultPasskey`).
    @discardableResult
    public func submitAssertion(_ response: String) -> UpgradeState {
        guard let ext = extensionInstance as? PasskeyModificationExtension else { return state ?? .cancelled }
        return verify { ext.submitStepUpAssertion(response, context: $0) }
    }

    /// The origin a browser would use at the service: its own primary domain over https.
    static func origin(of manifest: ServiceManifest) -> String { "https://\(manifest.primaryDomain)" }
}

extension StepUpScreen {
    /// The same screen with the host's own message under it.
    func saying(_ message: String) -> StepUpScreen {
        var screen = StepUpScreen(serviceName: serviceName, method: method, prompt: prompt, attemptsLeft: attemptsLeft, expiresAt: expiresAt,
                                  message: message, canResend: canResend, domain: domain)
        screen.securityKeyOptions = securityKeyOptions
        return screen
    }
}
