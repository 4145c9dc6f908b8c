import BulwarkCore
import Foundation
import Synchronization

// The account modification protocol, modelled on Apple's Account
// Authentication Modification Extension: the host (bulwark) calls these
// entries; an extension answers through its context. The engine knows
// extensions only through this protocol, so an adapter that calls a real
// service's API can replace a mock without touching the engine, the screens
// or the vault.

/// The site an upgrade is for (`ASCredentialServiceIdentifier`'s analog):
/// a domain, or the URL the credential was saved for.
public struct ServiceIdentifier: Sendable, Equatable {
    public enum IdentifierType: String, Sendable { case domain, url = "URL" }
    public let identifier: String
    public let type: IdentifierType

    public init(domain: String) {
        identifier = domain
        type = .domain
    }

    public init(url: String) {
        identifier = url
        type = .url
    }

    /// The host either form names (a URL's host, normalized).
    public var domain: String { Domain.normalize(identifier) }
}

/// The credential the vault holds today.
public struct ExistingCredential: Sendable, Equatable {
    public let user: String
    public let password: String
    public init(user: String, password: String) {
        self.user = user
        self.password = password
    }
}

/// What an app asks Sign in with Apple to share (`ASAuthorization.Scope`).
public enum AppleIDScope: String, Sendable, CaseIterable, Codable { case fullName = "name", email }

/// Whether the person looks like a real person (`ASUserDetectionStatus`):
/// told on the first authorization only, as Apple does.
public enum RealUserStatus: Int, Sendable { case unsupported = 0, unknown = 1, likelyReal = 2 }

/// Sign in with Apple's answer: what the sheet returns to the extension.
public struct AppleIDCredential: Sendable, Equatable {
    public let user: String              // team-scoped
    public let email: String             // shared, or the private relay; empty when not asked for
    public let isPrivateRelay: Bool
    public let fullName: String?         // on the first authorization only, when asked for
    public let state: String
    public let identityToken: String
    public let authorizationCode: String
    public var realUserStatus: RealUserStatus = .unknown
    public var authorizedScopes: [AppleIDScope] = AppleIDScope.allCases

    public init(user: String, email: String, isPrivateRelay: Bool, fullName: String?, state: String, identityToken: String,
                authorizationCode: String) {
        self.user = user
        self.email = email
        self.isPrivateRelay = isPrivateRelay
        self.fullName = fullName
        self.state = state
        self.identityToken = identityToken
        self.authorizationCode = authorizationCode
    }
}

/// How a request ends without completing.
public enum ModificationError: Error, Sendable, Equatable {
    /// Optionally with a localized reason to show; without one the host shows a default.
    case failed(reason: String?)
    /// The host must start an interactive request for the same upgrade.
    case userInteractionRequired
    /// The user backed out: show nothing more.
    case userCanceled
}

/// The extension's own step-up screen, which the host draws inside its
/// frame (titled with the service's name, Esc is Cancel).
public struct StepUpScreen: Sendable, Equatable {
    public enum Method: String, Sendable { case totp, sms, securityKey = "security-key" }
    public let serviceName: String
    public let method: Method
    /// What to do, in the service's words.
    public let prompt: String
    public let attemptsLeft: Int
    public let expiresAt: Date
    /// The result of the last try ("That code is not right. 4 attempts left."), if any.
    public let message: String?
    public let canResend: Bool
    /// The domain an SMS code is bound to (for "fill from Messages").
    public let domain: String
    /// A security-key step-up: the `PublicKeyCredentialRequestOptionsJSON`
    /// the host answers with an assertion (from the vault's passkey or a USB key).
    public var securityKeyOptions: String? = nil

    /// Public, so that an extension outside this module can make one (and
    /// the host's key reference can show each kind).
    public init(serviceName: String, method: Method, prompt: String, attemptsLeft: Int, expiresAt: Date, message: String?,
                canResend: Bool, domain: String, securityKeyOptions: String? = nil) {
        self.serviceName = serviceName
        self.method = method
        self.prompt = prompt
        self.attemptsLeft = attemptsLeft
        self.expiresAt = expiresAt
        self.message = message
        self.canResend = canResend
        self.domain = domain
        self.securityKeyOptions = securityKeyOptions
    }
}

/// What the extension answers through. Exactly one of the four reports
/// ends a request; `stageUpdatedCredential` is bulwark's addition for crash
/// safety (a service that sets its own password announces it before
/// committing, so the host can keep it durably first).
/// The host's Cancel while the extension is working (Esc during "Contacting
/// the service…"): set from the screen's thread while the request runs on
/// another. The extension looks at it before each network wait ends and
/// before it commits; once it has committed, the change stands and the
/// request completes as usual (a real service cannot take a commit back).
public final class HostCancellation: Sendable {
    private let requested = Mutex<Bool>(false)
    public init() {}
    public func request() { requested.withLock { $0 = true } }
    public var isRequested: Bool { requested.withLock { $0 } }
    func clear() { requested.withLock { $0 = false } }
}

public final class ModificationContext: @unchecked Sendable {  // used by one request on one thread at a time
    public enum Reply: Sendable, Equatable {
        case passwordChanged(ExistingCredential)
        case signInWithAppleRequested(state: String, nonce: String)
        case convertedToSignInWithApple
        /// A `PublicKeyCredentialCreationOptionsJSON` for the host's passkey sheet.
        case passkeyRegistrationRequested(options: String)
        case upgradedToPasskey
        case cancelled(ModificationError)
    }

    public private(set) var reply: Reply?
    private let onStage: (ExistingCredential) throws -> Void
    /// Whether the host asked to stop while the extension works.
    public let cancellation: HostCancellation

    public init(cancellation: HostCancellation = HostCancellation(), onStage: @escaping (ExistingCredential) throws -> Void = { _ in }) {
        self.cancellation = cancellation
        self.onStage = onStage
    }

    /// The host pressed Cancel during a non-interactive step.
    public var hostCancelled: Bool { cancellation.isRequested }

    public func completeChangePasswordRequest(updatedCredential: ExistingCredential) { reply = .passwordChanged(updatedCredential) }
    public func requestSignInWithAppleAuthorization(state: String, nonce: String) { reply = .signInWithAppleRequested(state: state, nonce: nonce) }
    public func completeUpgradeToSignInWithApple() { reply = .convertedToSignInWithApple }
    public func requestPasskeyRegistration(options: String) { reply = .passkeyRegistrationRequested(options: options) }
    public func completeUpgradeToPasskey() { reply = .upgradedToPasskey }
    public func cancelRequest(withError error: ModificationError) { reply = .cancelled(error) }
    public func stageUpdatedCredential(_ credential: ExistingCredential) throws { try onStage(credential) }
    /// Clears the reply between calls of one request.
    func reset() { reply = nil }
}

/// An app's own request (in-app upgrade): no password, a session token in userInfo.
public struct InAppRequest: Sendable, Equatable {
    public let user: String
    public let service: ServiceIdentifier
    public let userInfo: [String: String]
    public init(user: String, service: ServiceIdentifier, userInfo: [String: String]) {
        self.user = user
        self.service = service
        self.userInfo = userInfo
    }
}

/// The protocol an extension conforms to.
public protocol AccountModificationExtension: AnyObject {
    /// Change the password with no UI: complete, or cancel (`userInteractionRequired` for step-up).
    func changePasswordWithoutUserInteraction(for credential: ExistingCredential?, newPassword: String, service: ServiceIdentifier,
                                              userInfo: [String: String]?, context: ModificationContext)
    /// Convert with no UI: request a Sign in with Apple authorization, or cancel.
    func convertToSignInWithAppleWithoutUserInteraction(for credential: ExistingCredential?, service: ServiceIdentifier,
                                                        userInfo: [String: String]?, context: ModificationContext)
    /// Get the step-up screen ready for a password change the backend would not authorise silently.
    func prepareInterfaceToChangePassword(for credential: ExistingCredential?, newPassword: String, service: ServiceIdentifier,
                                          userInfo: [String: String]?) -> StepUpScreen
    /// The same for a conversion.
    func prepareInterfaceToConvertToSignInWithApple(for credential: ExistingCredential?, service: ServiceIdentifier,
                                                    userInfo: [String: String]?) -> StepUpScreen
    /// The step-up screen's own actions: a code typed or filled; a new code asked for.
    /// Returns the screen to show next, or nil when the context has a reply.
    func submitStepUpCode(_ code: String, context: ModificationContext) -> StepUpScreen?
    func resendStepUpCode() -> StepUpScreen
    /// The host's sheet finished: a credential, or an error (`userCanceled`, or `failed` for no credential).
    func signInWithAppleFinished(_ result: Result<AppleIDCredential, ModificationError>, context: ModificationContext)
    /// The host's Cancel: clean up, and end with `userCanceled`.
    func cancelRequest(context: ModificationContext)
}

/// Upgrading to a passkey, bulwark's addition beside Apple's two upgrades:
/// the extension authorises as for the others, then asks the host for a
/// passkey with its relying party's creation options; the host's sheet
/// answers with a `RegistrationResponseJSON` (or `userCanceled`), which the
/// extension's backend verifies and keeps before turning password sign-in
/// off. A security-key step-up is answered with an assertion. An adapter
/// for a service without passkeys need not implement any of it.
public protocol PasskeyModificationExtension: AccountModificationExtension {
    func upgradeToPasskeyWithoutUserInteraction(for credential: ExistingCredential?, service: ServiceIdentifier,
                                                userInfo: [String: String]?, context: ModificationContext)
    func prepareInterfaceToUpgradeToPasskey(for credential: ExistingCredential?, service: ServiceIdentifier,
                                            userInfo: [String: String]?) -> StepUpScreen
    /// The host's passkey sheet finished: the registration response, or an error.
    func passkeyRegistrationFinished(_ result: Result<String, ModificationError>, context: ModificationContext)
    /// A security-key step-up answered: an `AuthenticationResponseJSON`.
    /// Returns the screen to show next, or nil when the context has a reply.
    func submitStepUpAssertion(_ response: String, context: ModificationContext) -> StepUpScreen?
}

