import BulwarkCore
import Foundation

// What the upgrade engine needs of the world outside the vault, and nothing
// more: a service's account server, the Apple ID identity provider, a
// WebAuthn relying party, and the directory that hands them out. The engine,
// the reconciler and the sign-in/sign-up flows speak only these; the mock
// services (Backend/) implement them as ratatui's TestBackend implements
// Backend, and a vault no service covers gets `NoServices`.

/// A service's answer to a sign-in.
public enum ServiceSignIn: Sendable, Equatable {
    case accepted(sessionToken: String)
    case refused(String)
}

/// A service or identity provider that said no, in its own words.
public struct ServiceRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    public let reason: String
    public init(reason: String) { self.reason = reason }
    public var description: String { reason }
}

/// A relying party that refused a WebAuthn response (kept apart from a
/// service's refusal: the passkey flows say whose "no" it was).
public struct RelyingPartyRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    public let reason: String
    public init(reason: String) { self.reason = reason }
    public var description: String { reason }
}

/// What the identity provider says of a user at a team (`ASAuthorizationAppleIDProvider.CredentialState`).
public enum AppleIDCredentialState: String, Sendable { case authorized, revoked, notFound = "not-found", transferred }

/// The server-to-server events Sign in with Apple sends a service.
public enum AppleIDNotification: String, Sendable, CaseIterable {
    case emailDisabled = "email-disabled", emailEnabled = "email-enabled", consentRevoked = "consent-revoked", accountDelete = "account-delete"
}

/// A service's account server, as the host sees it.
public protocol AccountServer: AnyObject {
    func signIn(user: String, password: String) throws -> ServiceSignIn
    func signInWithApple(identityToken: String, nonce: String) throws -> ServiceSignIn
    func signUpWithApple(credential: AppleIDCredential, nonce: String) throws
    /// Links an account to Sign in with Apple with the credential the sheet gave (its code exchanged once).
    func linkSignInWithApple(user: String, credential: AppleIDCredential, nonce: String) throws
    func issueSession(user: String) throws -> String
    func passwordMatches(user: String, password: String) throws -> Bool
    func isPasskeyOnly(_ user: String) throws -> Bool
    /// The Sign in with Apple link the account took, if it did.
    func link(of user: String) throws -> (appleUser: String, email: String, isPrivateRelay: Bool)?
    func hasAccount(linkedTo appleUser: String) throws -> Bool
    func isRevoked(appleUser: String) throws -> Bool
    func clearRevoked(appleUser: String) throws
    /// Checks the service's stored refresh tokens with the provider (at most daily); how many it checked.
    @discardableResult func checkRefreshTokens() throws -> Int
    /// Moves a transferred user to the id the new team knows; nil when the user was not transferred.
    func migrate(appleUser: String) throws -> String?
    /// The provider's events the service received for the user, taken once.
    func takeEvents(appleUser: String) throws -> [AppleIDNotification]
}

/// The Apple ID identity provider, as the platform's authorization sheet reaches it.
public protocol AppleIDProvider: AnyObject {
    func authorize(appleID: String, fullName: String, team: String, audience: String, nonce: String, state: String,
                   hideEmail: Bool, scopes: [AppleIDScope]) throws -> AppleIDCredential
    func credentialState(user: String, team: String) throws -> AppleIDCredentialState
    /// The private relay address the Apple ID has (or would get) at the team.
    func relayAddress(appleID: String, team: String) throws -> String
}

extension AppleIDProvider {
    /// An authorization that asks for the name and the e-mail.
    public func authorize(appleID: String, fullName: String, team: String, audience: String, nonce: String, state: String,
                          hideEmail: Bool) throws -> AppleIDCredential {
        try authorize(appleID: appleID, fullName: fullName, team: team, audience: audience, nonce: nonce, state: state,
                      hideEmail: hideEmail, scopes: AppleIDScope.allCases)
    }
}

/// A service's WebAuthn relying party.
public protocol RelyingParty: AnyObject {
    var rpID: String { get }
    func authenticationOptions(user: String?, secondFactor: Bool) throws -> Data
    func finishAuthentication(_ json: String) throws -> String
    func isRegistered(_ id: String) throws -> Bool
}

/// Everything outside the vault an upgrade, a sign-in or a sign-up speaks to.
/// (Its parts are handed out as existentials, so a directory with no
/// services at all, `NoServices`, is as easy to write as the mock world.)
public protocol ServiceDirectory: AnyObject {
    /// The services as they are now.
    var catalog: ServiceCatalog { get }
    var clock: @Sendable () -> Date { get }
    /// The Apple ID signed in on this machine, as the platform knows it.
    var appleID: AppleIDAccount { get }
    func appleIDProvider() throws -> any AppleIDProvider
    func accountServer(for manifest: ServiceManifest) throws -> any AccountServer
    /// The service's relying party, when it accepts passkeys.
    func passkeyRelyingParty(for manifest: ServiceManifest) throws -> (any RelyingParty)?
    /// A fresh extension for one request.
    func modificationExtension(for manifest: ServiceManifest) throws -> any AccountModificationExtension
    /// The latest one-time code a text message brought for these sites (the platform's code autofill).
    func latestReceivedCode(forSites sites: [String]) throws -> String?
}

extension ServiceDirectory {
    /// The entry's service, when a manifest covers its site.
    public func accountServer(for entry: Entry) throws -> (any AccountServer)? {
        try catalog.manifest(forHost: entry.site).map(accountServer(for:))
    }
}

/// The directory of a vault no service covers: nothing to upgrade, sign in
/// to or hear from, and no state made anywhere for it.
public final class NoServices: ServiceDirectory {
    public let catalog = ServiceCatalog(manifests: [])
    public let clock: @Sendable () -> Date
    public let appleID: AppleIDAccount

    public init(appleID: AppleIDAccount = AppleIDAccount(email: "", fullName: ""), clock: @escaping @Sendable () -> Date = { Date() }) {
        self.appleID = appleID
        self.clock = clock
    }

    private var none: ServiceRefusal { ServiceRefusal(reason: "no service is set up for this vault") }
    public func appleIDProvider() throws -> any AppleIDProvider { throw none }
    public func accountServer(for manifest: ServiceManifest) throws -> any AccountServer { throw none }
    public func passkeyRelyingParty(for manifest: ServiceManifest) throws -> (any RelyingParty)? { nil }
    public func modificationExtension(for manifest: ServiceManifest) throws -> any AccountModificationExtension { throw none }
    public func latestReceivedCode(forSites sites: [String]) throws -> String? { nil }
}
