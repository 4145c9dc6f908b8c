import Foundation

/// The kinds of security warning, in the order of their weight (the first
/// is the worst); the ranking's tie-break uses this order.
public enum WarningKind: String, Sendable, CaseIterable, Comparable {
    case breached, reused, weak
    /// The account is an identity provider others sign in through (its blast radius).
    case identityProvider = "identity-provider"
    case insecureURL = "insecure-url"
    case old
    case noTwoFactor = "no-2fa"
    /// An opportunity rather than a risk: the service takes a passkey.
    case passkeyAvailable = "passkey-available"

    /// The order of the cases above (a switch: `allCases.firstIndex` builds
    /// an array on every comparison).
    public var rank: Int {
        switch self {
        case .breached: 0
        case .reused: 1
        case .weak: 2
        case .identityProvider: 3
        case .insecureURL: 4
        case .old: 5
        case .noTwoFactor: 6
        case .passkeyAvailable: 7
        }
    }
    public static func < (a: Self, b: Self) -> Bool { a.rank < b.rank }
}

/// Another account in a reuse group, as a recommendation names it.
public struct AccountRef: Sendable, Equatable, Hashable {
    public let id: String
    public let title: String
    public let site: String
    /// The backend the account signs in to: one service's sites (Shiny and
    /// Shiny Store) or one shared-credentials group are one backend.
    public let backend: String

    public init(id: String, title: String, site: String, backend: String = "") {
        self.id = id
        self.title = title
        self.site = site
        self.backend = backend
    }

    // The account is its id, title and site; the backend is worked out from the site.
    public static func == (a: AccountRef, b: AccountRef) -> Bool { a.id == b.id && a.title == b.title && a.site == b.site }
    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(title)
        hasher.combine(site)
    }
}

/// The accounts that share one password, as one account sees them. The
/// member list is shared by every account of the group (copy-on-write), so
/// a password reused on 5,000 accounts costs one list, not 5,000.
public struct ReuseGroup: Sendable, Equatable {
    /// Every account with the password, ordered by title.
    public let members: [AccountRef]
    /// The account this warning belongs to.
    public let owner: String
    /// The owner's backend: members that sign in to it are the owner's own
    /// account under another of its service's sites, not other accounts.
    public let ownerBackend: String
    /// How many accounts (backends) the password is on, the owner's included:
    /// Shiny and Shiny Store count once, from whichever member it is seen.
    public let accounts: Int

    public init(members: [AccountRef], owner: String, accounts: Int? = nil) {
        self.members = members
        self.owner = owner
        ownerBackend = members.first { $0.id == owner }?.backend ?? ""
        self.accounts = accounts ?? Self.accounts(members)
    }

    /// Distinct backends; a member whose backend is not known is an account of its own.
    public static func accounts(_ members: [AccountRef]) -> Int {
        members.count { $0.backend.isEmpty } + Set(members.lazy.filter { !$0.backend.isEmpty }.map(\.backend)).count
    }

    /// Whether a member is the owner's own account (itself, or its service's other site).
    func isOwners(_ member: AccountRef) -> Bool { member.id == owner || (!ownerBackend.isEmpty && member.backend == ownerBackend) }

    /// The other accounts' entries, ordered by title.
    public var others: [AccountRef] { members.filter { !isOwners($0) } }
    public var otherCount: Int { max(0, accounts - 1) }
}

/// One thing wrong with an account's sign-in, with what a person needs to
/// understand it. No case carries the password or any part of it.
public enum Warning: Sendable, Equatable {
    /// Seen `count` times in a breach corpus (0: on a list of common passwords).
    case breached(count: Int, corpus: String)
    /// The same password on accounts of other sites.
    case reused(ReuseGroup)
    /// Estimated bits (nil for a PIN) and what makes it guessable.
    case weak(bits: Double?, pattern: String, why: String)
    case insecureURL(String)
    case old(changed: Date, days: Int)
    /// The service offers this 2FA method, but the vault holds no code.
    case noTwoFactor(method: String)
    /// The service (this relying party) accepts passkeys and the entry holds none for it.
    case passkeyAvailable(rpID: String)
    /// Other accounts sign in through this one (an identity provider): whoever
    /// has its weak, reused or breached password has them too. By title.
    case identityProvider(accounts: [AccountRef])

    public var kind: WarningKind {
        switch self {
        case .breached: .breached
        case .reused: .reused
        case .weak: .weak
        case .insecureURL: .insecureURL
        case .old: .old
        case .noTwoFactor: .noTwoFactor
        case .passkeyAvailable: .passkeyAvailable
        case .identityProvider: .identityProvider
        }
    }

    /// One plain sentence.
    public var reason: String {
        switch self {
        case .breached(let count, _) where count == 0:
            "This password is on a list of the most common passwords, which attackers try first."
        case .breached(let count, _):
            "This password has appeared in a data breach \(Self.grouped(count)) \(count == 1 ? "time" : "times"), so attackers try it first."
        case .reused(let group):
            "This password is also used for \(group.otherCount == 1 ? "1 other account" : "\(Self.grouped(group.otherCount)) other accounts"): "
                + Self.names(group) + ". A breach of one exposes them all."
        case .weak(_, _, let why):
            "This password is easy to guess: \(why)."
        case .insecureURL(let url):
            "The sign-in page \(url) is not encrypted (http), so the password can be read on the way."
        case .old(_, let days):
            "This password has not been changed in \(days / 365 == 1 ? "over a year" : "over \(days / 365) years")."
        case .noTwoFactor(let method):
            "The service offers two-factor authentication (\(method)) but no verification code is set up here."
        case .passkeyAvailable(let rpID):
            "\(rpID) accepts passkeys: one would replace this password with nothing to phish, reuse or leak."
        case .identityProvider(let accounts):
            "\(accounts.count == 1 ? "1 account signs" : "\(Self.grouped(accounts.count)) accounts sign") in with this one: "
                + Self.titles(accounts) + ". Whoever has this password has them too."
        }
    }

    /// Up to five titles, then how many more.
    static func titles(_ accounts: [AccountRef]) -> String {
        let shown = accounts.prefix(5).map(\.title)
        let more = accounts.count - shown.count
        return shown.joined(separator: ", ") + (more > 0 ? " and \(grouped(more)) more" : "")
    }

    /// Up to five titles, then how many more.
    static func names(_ group: ReuseGroup) -> String {
        // One title per other account (the first of its entries by title), at most five.
        var titles: [String] = []
        var named: Set<String> = []
        for member in group.members where !group.isOwners(member) && (member.backend.isEmpty || named.insert(member.backend).inserted) {
            if titles.count == 5 { break }
            titles.append(member.title)
        }
        let more = group.otherCount - titles.count
        return titles.joined(separator: ", ") + (more > 0 ? " and \(grouped(more)) more" : "")
    }

    static func grouped(_ n: Int) -> String {
        let digits = String(n)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return out
    }
}
