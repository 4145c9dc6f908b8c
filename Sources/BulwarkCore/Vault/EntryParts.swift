import Foundation

/// One old password, kept when a password changes.
public struct PasswordHistoryItem: Sendable, Equatable, Codable {
    public var password: String
    public var changedAt: Date
    public var reason: String

    public init(password: String, changedAt: Date, reason: String) {
        self.password = password
        self.changedAt = changedAt
        self.reason = reason
    }
}

/// How an account is linked to Sign in with Apple.
public struct SignInWithAppleLink: Sendable, Equatable, Codable {
    public enum CredentialState: String, Sendable, Codable, CaseIterable {
        case authorized, revoked, notFound = "not-found", transferred
    }

    public var user: String          // team-scoped user identifier
    public var email: String         // the shared address or the private relay
    public var isPrivateRelay: Bool
    public var state: CredentialState
    /// Whether the private relay forwards mail (the person can turn it off
    /// in their Apple ID settings; the service hears it as email-disabled).
    public var emailForwarding: Bool = true

    public init(user: String, email: String, isPrivateRelay: Bool, state: CredentialState = .authorized) {
        self.user = user
        self.email = email
        self.isPrivateRelay = isPrivateRelay
        self.state = state
    }

    /// Whether the account is signed in through the link: a revoked or
    /// deleted authorization signs the account out.
    public var isSignedOut: Bool { state == .revoked || state == .notFound }
}

/// An upgrade written to the vault before the service commits it, so that
/// a crash at any moment leaves the vault holding the credential the
/// service accepts: on the next start the change is settled or dropped
/// after asking the service (see BulwarkUpgrades' reconciler).
public struct PendingChange: Sendable, Equatable {
    public enum Kind: String, Sendable {
        case strongPassword = "strong-password", signInWithApple = "sign-in-with-apple", passkey
    }
    public var kind: Kind
    /// The proposed password (strong-password upgrades only).
    public var newPassword: String?
    /// The staged passkey's credential id (passkey upgrades, once the person
    /// saved it on the sheet; the passkey itself is already in `passkeys`).
    public var passkeyID: String?
    public var startedAt: Date

    public init(kind: Kind, newPassword: String?, passkeyID: String? = nil, startedAt: Date) {
        self.kind = kind
        self.newPassword = newPassword
        self.passkeyID = passkeyID
        self.startedAt = startedAt
    }

    /// The second part a box keeps for it: the password, or the passkey's id.
    var detail: String { (kind == .passkey ? passkeyID : newPassword) ?? "" }
}

/// What an entry holds: a login, or one of the other kinds other password
/// managers keep (their fields arrive as custom fields).
public enum EntryKind: String, Sendable, CaseIterable, Codable {
    case login, secureNote = "secure-note", card, identity, sshKey = "ssh-key", other

    /// Whether the kind signs in with a password that recommendations judge.
    public var holdsPassword: Bool { self == .login || self == .other }

    public var label: String {
        switch self {
        case .login: "Login"
        case .secureNote: "Secure note"
        case .card: "Card"
        case .identity: "Identity"
        case .sshKey: "SSH key"
        case .other: "Other"
        }
    }
}

/// A field beyond the standard ones, in the order the source had it;
/// hidden fields (a card's number and code, a protected string) are
/// masked wherever an entry is shown.
public struct CustomField: Sendable, Hashable, Codable {
    public var name: String
    public var value: String
    public var hidden: Bool

    public init(name: String, value: String, hidden: Bool = false) {
        self.name = name
        self.value = value
        self.hidden = hidden
    }
}
