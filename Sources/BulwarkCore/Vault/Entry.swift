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
///
/// A value, like any struct, but its fields live in one shared box that is
/// copied only when a copy is changed (copy-on-write, as Array does): the
/// vault, the app's snapshot and the analyzer each hold every entry, and at
/// 100,000 entries three inline copies of some 300 bytes each were about
/// 90 MB of the app's memory and much of the time spent copying them.
public struct Entry: Sendable, Equatable, Identifiable {
    private var storage: Storage

    /// The fields. Only ever changed while uniquely referenced (see `unique()`),
    /// so a box shared between values or threads is never written; and only
    /// through this struct, whose own accesses Swift checks, which is why the
    /// box's fields need no run-time exclusivity check of their own (that
    /// check was a measurable part of reading 100,000 entries).
    private final class Storage: @unchecked Sendable {
        @exclusivity(unchecked) var id: String
        @exclusivity(unchecked) var title: String
        @exclusivity(unchecked) var urls: [String]
        @exclusivity(unchecked) var username: String
        @exclusivity(unchecked) var password: String?
        @exclusivity(unchecked) var notes: String
        @exclusivity(unchecked) var totpURI: String?
        @exclusivity(unchecked) var tags: [String]
        @exclusivity(unchecked) var category: AccountCategory
        @exclusivity(unchecked) var categoryIsManual: Bool
        @exclusivity(unchecked) var created: Date
        @exclusivity(unchecked) var modified: Date
        @exclusivity(unchecked) var passwordChanged: Date
        @exclusivity(unchecked) var history: [PasswordHistoryItem]
        @exclusivity(unchecked) var hiddenFromRecommendations: Bool
        @exclusivity(unchecked) var hiddenUntil: Date?
        @exclusivity(unchecked) var signInWithApple: SignInWithAppleLink?
        @exclusivity(unchecked) var pendingChange: PendingChange?
        @exclusivity(unchecked) var kind: EntryKind
        @exclusivity(unchecked) var fields: [CustomField]
        @exclusivity(unchecked) var passkeys: [Passkey]
        @exclusivity(unchecked) var signsInWith: String?

        init(id: String, title: String, urls: [String], username: String, password: String?, notes: String, totpURI: String?,
             tags: [String], category: AccountCategory, categoryIsManual: Bool, created: Date, modified: Date, passwordChanged: Date,
             history: [PasswordHistoryItem], hiddenFromRecommendations: Bool, hiddenUntil: Date?, signInWithApple: SignInWithAppleLink?,
             pendingChange: PendingChange?, kind: EntryKind, fields: [CustomField], passkeys: [Passkey], signsInWith: String?) {
            self.id = id
            self.title = title
            self.urls = urls
            self.username = username
            self.password = password
            self.notes = notes
            self.totpURI = totpURI
            self.tags = tags
            self.category = category
            self.categoryIsManual = categoryIsManual
            self.created = created
            self.modified = modified
            self.passwordChanged = passwordChanged
            self.history = history
            self.hiddenFromRecommendations = hiddenFromRecommendations
            self.hiddenUntil = hiddenUntil
            self.signInWithApple = signInWithApple
            self.pendingChange = pendingChange
            self.kind = kind
            self.fields = fields
            self.passkeys = passkeys
            self.signsInWith = signsInWith
        }

        func copy() -> Storage {
            Storage(id: id, title: title, urls: urls, username: username, password: password, notes: notes, totpURI: totpURI,
                    tags: tags, category: category, categoryIsManual: categoryIsManual, created: created, modified: modified,
                    passwordChanged: passwordChanged, history: history, hiddenFromRecommendations: hiddenFromRecommendations,
                    hiddenUntil: hiddenUntil, signInWithApple: signInWithApple, pendingChange: pendingChange, kind: kind,
                    fields: fields, passkeys: passkeys, signsInWith: signsInWith)
        }

        func equals(_ other: Storage) -> Bool {
            id == other.id
                && title == other.title
                && urls == other.urls
                && username == other.username
                && password == other.password
                && notes == other.notes
                && totpURI == other.totpURI
                && tags == other.tags
                && category == other.category
                && categoryIsManual == other.categoryIsManual
                && created == other.created
                && modified == other.modified
                && passwordChanged == other.passwordChanged
                && history == other.history
                && hiddenFromRecommendations == other.hiddenFromRecommendations
                && hiddenUntil == other.hiddenUntil
                && signInWithApple == other.signInWithApple
                && pendingChange == other.pendingChange
                && kind == other.kind
                && fields == other.fields
                && passkeys == other.passkeys
                && signsInWith == other.signsInWith
        }
    }

    /// Makes this value's box its own before a change.
    private mutating func unique() {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
    }

    public static func == (a: Entry, b: Entry) -> Bool {
        a.storage === b.storage || a.storage.equals(b.storage)
    }

    public var id: String {
        get { storage.id }
        _modify { unique(); yield &storage.id }
    }
    public var title: String {
        get { storage.title }
        _modify { unique(); yield &storage.title }
    }
    public var urls: [String] {
        get { storage.urls }
        _modify { unique(); yield &storage.urls }
    }
    public var username: String {
        get { storage.username }
        _modify { unique(); yield &storage.username }
    }
    /// Nil for a Sign in with Apple account, which has no password.
    public var password: String? {
        get { storage.password }
        _modify { unique(); yield &storage.password }
    }
    public var notes: String {
        get { storage.notes }
        _modify { unique(); yield &storage.notes }
    }
    public var totpURI: String? {
        get { storage.totpURI }
        _modify { unique(); yield &storage.totpURI }
    }
    public var tags: [String] {
        get { storage.tags }
        _modify { unique(); yield &storage.tags }
    }
    public var category: AccountCategory {
        get { storage.category }
        _modify { unique(); yield &storage.category }
    }
    /// True when a person chose the category; otherwise it is guessed from the site.
    public var categoryIsManual: Bool {
        get { storage.categoryIsManual }
        _modify { unique(); yield &storage.categoryIsManual }
    }
    public var created: Date {
        get { storage.created }
        _modify { unique(); yield &storage.created }
    }
    public var modified: Date {
        get { storage.modified }
        _modify { unique(); yield &storage.modified }
    }
    public var passwordChanged: Date {
        get { storage.passwordChanged }
        _modify { unique(); yield &storage.passwordChanged }
    }
    public var history: [PasswordHistoryItem] {
        get { storage.history }
        _modify { unique(); yield &storage.history }
    }
    public var hiddenFromRecommendations: Bool {
        get { storage.hiddenFromRecommendations }
        _modify { unique(); yield &storage.hiddenFromRecommendations }
    }
    public var hiddenUntil: Date? {
        get { storage.hiddenUntil }
        _modify { unique(); yield &storage.hiddenUntil }
    }
    public var signInWithApple: SignInWithAppleLink? {
        get { storage.signInWithApple }
        _modify { unique(); yield &storage.signInWithApple }
    }
    /// An upgrade staged and not yet settled.
    public var pendingChange: PendingChange? {
        get { storage.pendingChange }
        _modify { unique(); yield &storage.pendingChange }
    }
    public var kind: EntryKind {
        get { storage.kind }
        _modify { unique(); yield &storage.kind }
    }
    public var fields: [CustomField] {
        get { storage.fields }
        _modify { unique(); yield &storage.fields }
    }
    /// WebAuthn credentials for the account (sealed in the box like the rest).
    public var passkeys: [Passkey] {
        get { storage.passkeys }
        _modify { unique(); yield &storage.passkeys }
    }
    /// The identity provider (its issuer) the account signs in through,
    /// instead of or beside its password ("Log in with IDP").
    public var signsInWith: String? {
        get { storage.signsInWith }
        _modify { unique(); yield &storage.signsInWith }
    }

    public init(id: String = EntryID.random(), title: String, urls: [String] = [], username: String = "",
                password: String? = nil, notes: String = "", totpURI: String? = nil, tags: [String] = [],
                category: AccountCategory? = nil, created: Date = Date(), history: [PasswordHistoryItem] = [],
                hiddenFromRecommendations: Bool = false, hiddenUntil: Date? = nil, signInWithApple: SignInWithAppleLink? = nil,
                kind: EntryKind = .login, fields: [CustomField] = []) {
        storage = Storage(id: id, title: title, urls: urls, username: username, password: password, notes: notes, totpURI: totpURI,
                          tags: tags, category: category ?? CategoryGuess.guess(title: title, urls: urls), categoryIsManual: category != nil,
                          created: created, modified: created, passwordChanged: created, history: history,
                          hiddenFromRecommendations: hiddenFromRecommendations, hiddenUntil: hiddenUntil, signInWithApple: signInWithApple,
                          pendingChange: nil, kind: kind, fields: fields, passkeys: [], signsInWith: nil)
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
