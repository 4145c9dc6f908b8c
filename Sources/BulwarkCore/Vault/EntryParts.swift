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

/// An earlier version of an entry as another program kept it whole
/// (KeePass's history): every value it had, by KeePass's names (Title,
/// UserName, Password, URL, Notes and custom strings), and when it was
/// made. Old passwords are also in `history`; this keeps the rest.
public struct EntrySnapshot: Sendable, Equatable, Hashable {
    public var at: Date
    public var values: [CustomField]

    public init(at: Date, values: [CustomField]) {
        self.at = at
        self.values = values
    }

    /// As one line of JSON (a named extra of the entry's box holds it).
    var json: String {
        let list: [Any] = [ISODate.string(at, milliseconds: true), values.map { [$0.name, $0.value, $0.hidden] as [Any] }]
        guard let data = try? JSONSerialization.data(withJSONObject: list) else { return "" }
        return String(decoding: data, as: UTF8.self)
    }

    init?(json: String) {
        guard let list = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [Any], list.count == 2,
              let text = list[0] as? String, let at = ISODate.parse(text), let rows = list[1] as? [[Any]] else { return nil }
        var values: [CustomField] = []
        for row in rows {
            guard row.count == 3, let name = row[0] as? String, let value = row[1] as? String, let hidden = row[2] as? Bool else { return nil }
            values.append(CustomField(name: name, value: value, hidden: hidden))
        }
        self.init(at: at, values: values)
    }

    public func value(_ name: String) -> String? { values.first { $0.name == name }?.value }
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
    /// The credential Sign in with Apple gave, kept sealed with the entry
    /// until the service has it (Sign in with Apple upgrades): a crash
    /// between the sheet and the service's answer finishes with it on the
    /// next start instead of asking again (WWDC20). Opaque text here.
    public var appleCredential: String?
    public var startedAt: Date

    public init(kind: Kind, newPassword: String?, passkeyID: String? = nil, appleCredential: String? = nil, startedAt: Date) {
        self.kind = kind
        self.newPassword = newPassword
        self.passkeyID = passkeyID
        self.appleCredential = appleCredential
        self.startedAt = startedAt
    }

    /// The second part a box keeps for it: the password, the passkey's id, or Sign in with Apple's credential.
    var detail: String {
        switch kind {
        case .strongPassword: newPassword ?? ""
        case .passkey: passkeyID ?? ""
        case .signInWithApple: appleCredential ?? ""
        }
    }
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
