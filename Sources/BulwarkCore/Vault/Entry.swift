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

/// A vault entry: an account and everything bulwark knows about it.
public struct Entry: Sendable, Equatable, Identifiable {
    public var id: String
    public var title: String
    public var urls: [String]
    public var username: String
    /// Nil for a Sign in with Apple account, which has no password.
    public var password: String?
    public var notes: String
    public var totpURI: String?
    public var tags: [String]
    public var category: AccountCategory
    /// True when a person chose the category; otherwise it is guessed from the site.
    public var categoryIsManual: Bool
    public var created: Date
    public var modified: Date
    public var passwordChanged: Date
    public var history: [PasswordHistoryItem]
    public var hiddenFromRecommendations: Bool
    public var hiddenUntil: Date?
    public var signInWithApple: SignInWithAppleLink?
    /// An upgrade staged and not yet settled.
    public var pendingChange: PendingChange?
    public var kind: EntryKind = .login
    public var fields: [CustomField] = []
    /// WebAuthn credentials for the account (sealed in the box like the rest).
    public var passkeys: [Passkey] = []
    /// The identity provider (its issuer) the account signs in through,
    /// instead of or beside its password ("Log in with IDP").
    public var signsInWith: String?

    public init(id: String = EntryID.random(), title: String, urls: [String] = [], username: String = "",
                password: String? = nil, notes: String = "", totpURI: String? = nil, tags: [String] = [],
                category: AccountCategory? = nil, created: Date = Date(), history: [PasswordHistoryItem] = [],
                hiddenFromRecommendations: Bool = false, hiddenUntil: Date? = nil, signInWithApple: SignInWithAppleLink? = nil,
                kind: EntryKind = .login, fields: [CustomField] = []) {
        self.id = id
        self.title = title
        self.urls = urls
        self.username = username
        self.password = password
        self.notes = notes
        self.totpURI = totpURI
        self.tags = tags
        self.category = category ?? CategoryGuess.guess(title: title, urls: urls)
        self.categoryIsManual = category != nil
        self.created = created
        self.modified = created
        self.passwordChanged = created
        self.history = history
        self.hiddenFromRecommendations = hiddenFromRecommendations
        self.hiddenUntil = hiddenUntil
        self.signInWithApple = signInWithApple
        self.kind = kind
        self.fields = fields
    }

    /// The host of the first URL, as lists show it.
    public var site: String { urls.first.map(Domain.normalize) ?? "" }

    public var summary: EntrySummary {
        EntrySummary(id: id, title: title, username: username, site: site, category: category, tags: tags)
    }

    /// Sets a new password, keeping the old one in history with the reason.
    public mutating func changePassword(to newPassword: String?, reason: String, at date: Date = Date()) {
        if let old = password, old != newPassword {
            history.insert(PasswordHistoryItem(password: old, changedAt: date, reason: reason), at: 0)
        }
        password = newPassword
        passwordChanged = date
        modified = date
    }

    /// Takes the password away but keeps it in history: an account that now
    /// signs in with a passkey refuses it, and the history says why.
    public mutating func retirePassword(reason: String, at date: Date = Date()) {
        changePassword(to: nil, reason: reason, at: date)
    }

    /// Takes the password away with every old one: an account that now signs
    /// in with Apple has one fewer password, not a password kept in history.
    /// (The vault rewrites the row with SQLite's secure_delete on.)
    public mutating func removePasswordAndHistory(at date: Date = Date()) {
        password = nil
        history = []
        passwordChanged = date
        modified = date
    }
}

/// Guesses an account's category from its title and site, so that severity
/// can be raised for e-mail, identity, finance, government and health
/// accounts without anyone filling in a field. A person can override it.
public enum CategoryGuess {
    static let keywords: [(AccountCategory, [String])] = [
        (.government, ["gov", "tax", "irs", "hmrc", "dmv", "passport", "census", "council"]),
        (.health, ["health", "clinic", "medical", "hospital", "pharmacy", "doctor", "dental", "patient", "nhs"]),
        (.finance, ["bank", "pay", "credit", "card", "finance", "invest", "broker", "wallet", "loan", "insurance", "crypto", "tax"]),
        (.email, ["mail", "inbox", "outlook", "proton"]),
        (.identity, ["id.", "identity", "sso", "login.", "accounts.", "auth", "apple", "icloud", "sign-in"]),
        (.work, ["corp", "work", "slack", "jira", "intranet", "vpn", "hr."]),
        (.social, ["social", "chat", "forum", "chirp", "friends", "photo", "dating", "community"]),
        (.shopping, ["shop", "store", "market", "grocer", "cart", "buy", "deal", "order"]),
    ]

    private static let keywordBytes = keywords.map { ($0.0, $0.1.map { Array($0.utf8) }) }

    /// Keywords are ASCII, so they are searched for in the UTF-8 bytes
    /// (Foundation's string search took most of an import's time).
    public static func guess(title: String, urls: [String]) -> AccountCategory {
        let haystack = Array(([title] + urls.map(Domain.normalize)).joined(separator: " ").lowercased().utf8)
        for (category, words) in keywordBytes where words.contains(where: { ByteSearch.contains(haystack, $0) }) { return category }
        return .other
    }
}
