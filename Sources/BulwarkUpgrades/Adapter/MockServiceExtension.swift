import BulwarkCore
import Foundation

/// The extension of one mock service: it speaks the modification protocol
/// to the host and its backend's API behind it, as a real adapter would
/// speak to a service's HTTP API.
public final class MockServiceExtension: PasskeyModificationExtension {
    public let manifest: ServiceManifest
    private let backend: MockBackend
    /// The service's WebAuthn relying party, when it accepts passkeys.
    private let relyingParty: MockRelyingParty?
    private let sleep: @Sendable (Int) -> Void

    // One request's state.
    private enum Goal { case password(String), signInWithApple, passkey }
    private var user = ""
    private var password: String?
    private var session: String?
    private var goal: Goal = .signInWithApple
    private var challenge: MockBackend.Challenge?
    private var expected: (state: String, nonce: String)?

    init(manifest: ServiceManifest, backend: MockBackend, relyingParty: MockRelyingParty?, sleep: @escaping @Sendable (Int) -> Void) {
        self.manifest = manifest
        self.backend = backend
        self.relyingParty = relyingParty
        self.sleep = sleep
    }

    private func begin(_ credential: ExistingCredential?, _ userInfo: [String: String]?, _ goal: Goal) {
        user = credential?.user ?? userInfo?["user"] ?? ""
        password = credential?.password
        session = userInfo?["session"]
        self.goal = goal
        challenge = nil
        expected = nil
    }

    /// The backend's latency, waited in slices so that the host's Cancel
    /// ends the wait (as closing a connection would).
    private func network(_ context: ModificationContext? = nil) {
        var left = manifest.behaviour.latencyMs
        while left > 0 && context?.hostCancelled != true {
            sleep(min(left, 20))
            left -= 20
        }
    }

    /// Before anything the backend would keep: a Cancel that arrived while
    /// the request was under way ends it here, with nothing changed.
    private func stopIfCancelled(_ context: ModificationContext) -> Bool {
        guard context.hostCancelled else { return false }
        challenge = nil
        expected = nil
        context.cancelRequest(withError: .userCanceled)
        return true
    }

    // MARK: Non-interactive entries

    public func changePasswordWithoutUserInteraction(for credential: ExistingCredential?, newPassword: String, service: ServiceIdentifier,
                                                     userInfo: [String: String]?, context: ModificationContext) {
        begin(credential, userInfo, .password(newPassword))
        guard serves(service, context) else { return }
        authorise(context, grant: nil)
    }

    public func convertToSignInWithAppleWithoutUserInteraction(for credential: ExistingCredential?, service: ServiceIdentifier,
                                                               userInfo: [String: String]?, context: ModificationContext) {
        begin(credential, userInfo, .signInWithApple)
        guard serves(service, context) else { return }
        authorise(context, grant: nil)
    }

    /// An extension acts only for its own app's domains, whatever the host asks.
    private func serves(_ service: ServiceIdentifier, _ context: ModificationContext) -> Bool {
        guard manifest.covers(service.domain) else {
            context.cancelRequest(withError: .failed(reason: "\(manifest.name) does not serve \(service.domain)."))
            return false
        }
        return true
    }

    /// `grant`: the backend's proof of a passed step-up, handed back as is.
    private func authorise(_ context: ModificationContext, grant: String?) {
        network(context)
        guard !stopIfCancelled(context) else { return }
        do {
            switch try backend.authorize(user: user, password: password, sessionToken: session, stepUpGrant: grant) {
            case .refused(let reason): context.cancelRequest(withError: .failed(reason: reason))
            case .stepUpRequired: context.cancelRequest(withError: .userInteractionRequired)
            case .authorized: proceed(context)
            }
        } catch {
            context.cancelRequest(withError: .failed(reason: nil))
        }
    }

    /// Authorised: commit the password, or ask the host for Sign in with Apple.
    private func proceed(_ context: ModificationContext) {
        switch goal {
        case .password(let proposed):
            do {
                var final = proposed
                if let own = try backend.substitutePassword() {
                    final = own
                    try context.stageUpdatedCredential(ExistingCredential(user: user, password: own))
                }
                guard !stopIfCancelled(context) else { return }
                let committed = try backend.commitPassword(user: user, newPassword: final)
                context.completeChangePasswordRequest(updatedCredential: ExistingCredential(user: user, password: committed))
            } catch let refusal as MockBackend.Refusal {
                context.cancelRequest(withError: .failed(reason: refusal.reason))
            } catch {
                context.cancelRequest(withError: .failed(reason: nil))
            }
        case .signInWithApple:
            let state = SecureRandom.bytes(16).hex, nonce = SecureRandom.bytes(16).hex
            expected = (state, nonce)
            context.requestSignInWithAppleAuthorization(state: state, nonce: nonce)
        case .passkey:
            // The relying party's creation options; its challenge is the request's proof.
            guard let relyingParty, let options = try? relyingParty.registrationOptions(user: user, userHandle: relyingParty.userHandle(of: user)) else {
                context.cancelRequest(withError: .failed(reason: "\(manifest.name) does not accept passkeys."))
                return
            }
            context.requestPasskeyRegistration(options: String(decoding: options, as: UTF8.self))
        }
    }

    // MARK: Step-up

    public func prepareInterfaceToChangePassword(for credential: ExistingCredential?, newPassword: String, service: ServiceIdentifier,
                                                 userInfo: [String: String]?) -> StepUpScreen {
        begin(credential, userInfo, .password(newPassword))
        return startChallenge(fresh: false, message: nil)
    }

    public func prepareInterfaceToConvertToSignInWithApple(for credential: ExistingCredential?, service: ServiceIdentifier,
                                                           userInfo: [String: String]?) -> StepUpScreen {
        begin(credential, userInfo, .signInWithApple)
        return startChallenge(fresh: false, message: nil)
    }

    public func prepareInterfaceToUpgradeToPasskey(for credential: ExistingCredential?, service: ServiceIdentifier,
                                                   userInfo: [String: String]?) -> StepUpScreen {
        begin(credential, userInfo, .passkey)
        return startChallenge(fresh: false, message: nil)
    }

    private func startChallenge(fresh: Bool, message: String?) -> StepUpScreen {
        network()
        challenge = try? backend.challenge(user: user, fresh: fresh)
        return screen(message: message)
    }

    private func screen(message: String?) -> StepUpScreen {
        let method = challenge?.method ?? (manifest.twoFactor == .sms ? .sms : .totp)
        let prompt = switch method {
        case .sms: "\(manifest.name) sent a code to your phone\(challenge?.phoneHint.map { " (\($0))" } ?? ""). Enter it to continue."
        case .totp: "Enter the 6-digit code from your authenticator for \(manifest.name)."
        case .securityKey: "\(manifest.name) asks for your security key: the passkey bulwark keeps for \(manifest.primaryDomain), or a USB key."
        }
        var screen = StepUpScreen(serviceName: manifest.name, method: method, prompt: prompt, attemptsLeft: challenge?.attemptsLeft ?? 0,
                                  expiresAt: challenge?.expiresAt ?? Date(), message: message, canResend: method != .securityKey,
                                  domain: manifest.primaryDomain)
        if method == .securityKey, let relyingParty {
            // A fresh ceremony for each try: a relying party's challenge is answered once.
            screen.securityKeyOptions = (try? relyingParty.authenticationOptions(user: user, secondFactor: true)).map { String(decoding: $0, as: UTF8.self) }
        }
        return screen
    }

    public func submitStepUpCode(_ code: String, context: ModificationContext) -> StepUpScreen? {
        guard let current = challenge else {
            context.cancelRequest(withError: .failed(reason: nil))
            return nil
        }
        network(context)
        guard !stopIfCancelled(context) else { return nil }
        let result = (try? backend.verify(challenge: current.id, code: code)) ?? .expired
        switch result {
        case .passed(let grant):
            authorise(context, grant: grant)
            return nil
        case .wrong(let left), .reused(let left):
            challenge = MockBackend.Challenge(id: current.id, method: current.method, attemptsLeft: left, expiresAt: current.expiresAt,
                                              phoneHint: current.phoneHint)
            let what = result == .reused(attemptsLeft: left) ? "That code was already used; wait for the next one." : "That code is not right."
            return screen(message: "\(what) \(left) \(left == 1 ? "attempt" : "attempts") left.")
        case .locked(let until):
            context.cancelRequest(withError: .failed(reason: backend.lockedMessage(until)))
            return nil
        case .expired:
            return screen(message: "That code has expired. Ask for a new one.")
        }
    }

    public func submitStepUpAssertion(_ response: String, context: ModificationContext) -> StepUpScreen? {
        guard let current = challenge, let relyingParty else {
            context.cancelRequest(withError: .failed(reason: nil))
            return nil
        }
        network(context)
        guard !stopIfCancelled(context) else { return nil }
        var refusal = "it is not one this account registered"
        let asserted: String?
        do { asserted = try relyingParty.finishAuthentication(response) } catch {
            asserted = nil
            refusal = error.reason
        }
        switch (try? backend.verifySecurityKey(challenge: current.id, assertedUser: asserted)) ?? .expired {
        case .passed(let grant):
            authorise(context, grant: grant)
            return nil
        case .wrong(let left), .reused(let left):
            challenge = MockBackend.Challenge(id: current.id, method: current.method, attemptsLeft: left, expiresAt: current.expiresAt, phoneHint: nil)
            return screen(message: "The security key was refused: \(refusal). \(left) \(left == 1 ? "attempt" : "attempts") left.")
        case .locked(let until):
            context.cancelRequest(withError: .failed(reason: backend.lockedMessage(until)))
            return nil
        case .expired:
            return startChallenge(fresh: true, message: "That request expired; try the key again.")
        }
    }

    public func resendStepUpCode() -> StepUpScreen {
        startChallenge(fresh: true, message: manifest.twoFactor == .sms ? "A new code is on its way." : "Use the code your authenticator shows now.")
    }

    // MARK: Sign in with Apple

    public func signInWithAppleFinished(_ result: Result<AppleIDCredential, ModificationError>, context: ModificationContext) {
        switch result {
        case .failure(.userCanceled):
            context.cancelRequest(withError: .userCanceled)
        case .failure:
            context.cancelRequest(withError: .failed(reason: "Sign in with Apple could not finish because the network connection was lost."))
        case .success(let credential):
            guard let expected, credential.state == expected.state else {
                context.cancelRequest(withError: .failed(reason: "The Sign in with Apple response did not belong to this request."))
                return
            }
            network(context)
            guard !stopIfCancelled(context) else { return }
            do {
                try backend.linkSignInWithApple(user: user, credential: credential, nonce: expected.nonce)
                context.completeUpgradeToSignInWithApple()
            } catch let refusal as MockBackend.Refusal {
                context.cancelRequest(withError: .failed(reason: refusal.reason))
            } catch {
                context.cancelRequest(withError: .failed(reason: nil))
            }
        }
    }

    // MARK: Passkey

    public func upgradeToPasskeyWithoutUserInteraction(for credential: ExistingCredential?, service: ServiceIdentifier,
                                                       userInfo: [String: String]?, context: ModificationContext) {
        begin(credential, userInfo, .passkey)
        guard serves(service, context) else { return }
        authorise(context, grant: nil)
    }

    /// The host made the passkey: the relying party verifies and keeps it
    /// (§7.1), then the account stops taking its password.
    public func passkeyRegistrationFinished(_ result: Result<String, ModificationError>, context: ModificationContext) {
        switch result {
        case .failure(.userCanceled):
            context.cancelRequest(withError: .userCanceled)
        case .failure(let error):
            context.cancelRequest(withError: error)
        case .success(let response):
            network(context)
            guard !stopIfCancelled(context), let relyingParty else { return }
            do {
                try relyingParty.finishRegistration(response)
                KillPoint.reach("passkey-registered")
                try backend.turnOffPasswordSignIn(user: user)
                context.completeUpgradeToPasskey()
            } catch let refusal as MockRelyingParty.Refusal {
                context.cancelRequest(withError: .failed(reason: "\(manifest.name) did not take the passkey: \(refusal.reason)."))
            } catch {
                context.cancelRequest(withError: .failed(reason: nil))
            }
        }
    }

    public func cancelRequest(context: ModificationContext) {
        challenge = nil
        expected = nil
        context.cancelRequest(withError: .userCanceled)
    }
}
