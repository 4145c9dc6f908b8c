import Foundation

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
        /// The first URL, the user name, the password and the notes, in one
        /// allocation (`EntryText`). The first URL apart from the rest:
        /// nearly every entry has one, and a one-element list was 64 bytes
        /// more an entry.
        @exclusivity(unchecked) var text: EntryText
        @exclusivity(unchecked) var moreURLs: [String]
        @exclusivity(unchecked) var tags: [String]
        @exclusivity(unchecked) var created: Date
        @exclusivity(unchecked) var modified: Date
        @exclusivity(unchecked) var passwordChanged: Date
        /// The fields most entries leave empty, boxed apart (nil when all
        /// are): half the size of every entry's box at 100k entries.
        @exclusivity(unchecked) var extras: ExtrasBox?
        // The one-byte fields last and together: a class lays its fields out
        // in this order, and between eight-byte ones each pair took eight.
        @exclusivity(unchecked) var category: AccountCategory
        @exclusivity(unchecked) var categoryIsManual: Bool
        @exclusivity(unchecked) var hiddenFromRecommendations: Bool
        @exclusivity(unchecked) var kind: EntryKind

        init(id: String, title: String, urls: [String], username: String, password: String?, notes: String, tags: [String],
             category: AccountCategory, categoryIsManual: Bool, created: Date, modified: Date, passwordChanged: Date,
             hiddenFromRecommendations: Bool, kind: EntryKind, extras: Extras) {
            self.id = id
            self.title = title
            text = EntryText.make(firstURL: urls.first, username: username, password: password, notes: notes)
            moreURLs = urls.count > 1 ? Array(urls.dropFirst()) : []
            self.tags = tags
            self.category = category
            self.categoryIsManual = categoryIsManual
            self.created = created
            self.modified = modified
            self.passwordChanged = passwordChanged
            self.hiddenFromRecommendations = hiddenFromRecommendations
            self.kind = kind
            self.extras = ExtrasBox(extras)
        }

        private init(copying other: Storage) {
            id = other.id
            title = other.title
            text = other.text
            moreURLs = other.moreURLs
            tags = other.tags
            category = other.category
            categoryIsManual = other.categoryIsManual
            created = other.created
            modified = other.modified
            passwordChanged = other.passwordChanged
            hiddenFromRecommendations = other.hiddenFromRecommendations
            kind = other.kind
            extras = other.extras
        }

        func copy() -> Storage { Storage(copying: self) }

        func equals(_ other: Storage) -> Bool {
            id == other.id
                && title == other.title
                && text.equals(other.text)
                && moreURLs == other.moreURLs
                && tags == other.tags
                && category == other.category
                && categoryIsManual == other.categoryIsManual
                && created == other.created
                && modified == other.modified
                && passwordChanged == other.passwordChanged
                && hiddenFromRecommendations == other.hiddenFromRecommendations
                && kind == other.kind
                && (extras?.value ?? Extras()) == (other.extras?.value ?? Extras())
        }
    }

    /// The rarely set fields, as one value.
    private struct Extras: Equatable {
        var totpURI: String? = nil
        var history: [PasswordHistoryItem] = []
        var hiddenUntil: Date? = nil
        var signInWithApple: SignInWithAppleLink? = nil
        var pendingChange: PendingChange? = nil
        var fields: [CustomField] = []
        var passkeys: [Passkey] = []
        var signsInWith: String? = nil
        var expires: Date? = nil
        var snapshots: [EntrySnapshot] = []
        var attachments: [Attachment] = []

        var isEmpty: Bool { self == Extras() }
    }

    /// Immutable: a change makes a new box (these fields change seldom).
    private final class ExtrasBox: Sendable {
        let value: Extras
        init?(_ value: Extras) {
            guard !value.isEmpty else { return nil }
            self.value = value
        }
    }

    /// The rare fields, written as a new box (none when all are empty
    /// again). Each is read from the box on its own (`storage.extras?.value.x`):
    /// reading through this copied all eleven, a retain and a release each,
    /// and sealing 100,000 entries read them a dozen times an entry.
    private var extras: Extras {
        get { storage.extras?.value ?? Extras() }
        set {
            unique()
            storage.extras = ExtrasBox(newValue)
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
        get { storage.text.firstURL.map { [$0] + storage.moreURLs } ?? [] }
        set {
            unique()
            storage.text = storage.text.replacing(.firstURL, with: newValue.first)
            storage.moreURLs = newValue.count > 1 ? Array(newValue.dropFirst()) : []
        }
    }
    public var username: String {
        get { storage.text.username }
        set { unique(); storage.text = storage.text.replacing(.username, with: newValue) }
    }
    /// The user name's `UserNameKey`, kept with it: different keys are different accounts.
    public var userNameKey: UInt32 { storage.text.userNameKey }
    /// Nil for a Sign in with Apple account, which has no password.
    public var password: String? {
        get { storage.text.password }
        set { unique(); storage.text = storage.text.replacing(.password, with: newValue) }
    }
    public var notes: String {
        get { storage.text.notes }
        set { unique(); storage.text = storage.text.replacing(.notes, with: newValue) }
    }
    public var totpURI: String? {
        get { storage.extras?.value.totpURI }
        _modify { yield &extras.totpURI }
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
        get { storage.extras?.value.history ?? [] }
        _modify { yield &extras.history }
    }
    public var hiddenFromRecommendations: Bool {
        get { storage.hiddenFromRecommendations }
        _modify { unique(); yield &storage.hiddenFromRecommendations }
    }
    public var hiddenUntil: Date? {
        get { storage.extras?.value.hiddenUntil }
        _modify { yield &extras.hiddenUntil }
    }
    public var signInWithApple: SignInWithAppleLink? {
        get { storage.extras?.value.signInWithApple }
        _modify { yield &extras.signInWithApple }
    }
    /// An upgrade staged and not yet settled.
    public var pendingChange: PendingChange? {
        get { storage.extras?.value.pendingChange }
        _modify { yield &extras.pendingChange }
    }
    public var kind: EntryKind {
        get { storage.kind }
        _modify { unique(); yield &storage.kind }
    }
    public var fields: [CustomField] {
        get { storage.extras?.value.fields ?? [] }
        _modify { yield &extras.fields }
    }
    /// WebAuthn credentials for the account (sealed in the box like the rest).
    public var passkeys: [Passkey] {
        get { storage.extras?.value.passkeys ?? [] }
        _modify { yield &extras.passkeys }
    }
    /// The identity provider (its issuer) the account signs in through,
    /// instead of or beside its password ("Log in with IDP").
    public var signsInWith: String? {
        get { storage.extras?.value.signsInWith }
        _modify { yield &extras.signsInWith }
    }
    /// Earlier versions kept whole by another program (KeePass's history), oldest first.
    public var snapshots: [EntrySnapshot] {
        get { storage.extras?.value.snapshots ?? [] }
        _modify { yield &extras.snapshots }
    }
    /// Files kept with the entry: their names and sizes here, their bytes
    /// sealed in chunks beside the entries (`Vault+Attachments`).
    public var attachments: [Attachment] {
        get { storage.extras?.value.attachments ?? [] }
        _modify { yield &extras.attachments }
    }
    /// When the account's password expires, as KeePass keeps it (nil: never).
    public var expires: Date? {
        get { storage.extras?.value.expires }
        _modify { yield &extras.expires }
    }

    public init(id: String = EntryID.random(), title: String, urls: [String] = [], username: String = "",
                password: String? = nil, notes: String = "", totpURI: String? = nil, tags: [String] = [],
                category: AccountCategory? = nil, created: Date = Date(), history: [PasswordHistoryItem] = [],
                hiddenFromRecommendations: Bool = false, hiddenUntil: Date? = nil, signInWithApple: SignInWithAppleLink? = nil,
                kind: EntryKind = .login, fields: [CustomField] = []) {
        storage = Storage(id: id, title: title, urls: urls, username: username, password: password, notes: notes, tags: tags,
                          category: category ?? CategoryGuess.guess(title: title, urls: urls), categoryIsManual: category != nil,
                          created: created, modified: created, passwordChanged: created,
                          hiddenFromRecommendations: hiddenFromRecommendations, kind: kind,
                          extras: Extras(totpURI: totpURI, history: history, hiddenUntil: hiddenUntil, signInWithApple: signInWithApple,
                                         fields: fields))
    }

    /// The host of the first URL, as lists show it.
    public var site: String { storage.text.firstURL.map(Domain.normalize) ?? "" }

    /// The first URL, and those after it: read without making the whole list.
    public var firstURL: String? { storage.text.firstURL }
    public var urlsAfterTheFirst: [String] { storage.moreURLs }

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

extension Entry: TableKeyed {
    public var tableKey: String { id }
}
