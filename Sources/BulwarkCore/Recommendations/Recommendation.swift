import Foundation

/// Everything wrong with one account, ranked.
public struct Recommendation: Sendable, Equatable, Identifiable {
    public enum Priority: String, Sendable { case high, other }

    public var id: String { storage.entry.id }
    public var entry: AccountRef { storage.entry }
    public var username: String {
        switch storage.username {
        case .text(let text): text
        case .entry(let entry): entry.username
        }
    }
    public var category: AccountCategory { storage.category }
    public var severity: Severity { storage.severity }
    /// Worst first.
    public var warnings: [Warning] { storage.warnings }
    public var hidden: Bool { storage.hidden }
    public var hiddenUntil: Date? { storage.hiddenUntil }
    /// The title as the ranking compares it, computed once.
    var titleKey: String { storage.rank.titleKey }
    /// What the ranking compares, worked out once: the report finds a
    /// recommendation by a binary search, a comparison per step.
    private var rank: RankKey { storage.rank }

    /// The fields, in one immutable box: the report holds each
    /// recommendation twice (ranked, and by entry) and the app's screens
    /// copy them; at 100,000 accounts inline copies of some 200 bytes each
    /// were tens of megabytes.
    private let storage: Storage

    /// The one-byte fields last and together, as a class lays them out in
    /// this order (a box is kept for every account with a finding).
    private final class Storage: Sendable {
        let entry: AccountRef
        let username: UserName
        let warnings: [Warning]
        let rank: RankKey
        let hiddenUntil: Date?
        let category: AccountCategory
        let severity: Severity
        let hidden: Bool

        init(entry: AccountRef, username: UserName, category: AccountCategory, severity: Severity, warnings: [Warning],
             hidden: Bool, hiddenUntil: Date?, rank: RankKey) {
            self.entry = entry
            self.username = username
            self.category = category
            self.severity = severity
            self.warnings = warnings
            self.hidden = hidden
            self.hiddenUntil = hiddenUntil
            self.rank = rank
        }
    }

    /// The user name as given, or read from the entry when asked: the
    /// entry keeps it packed with its other texts (`EntryText`), and a copy
    /// in each of 70,000 recommendations was 4 MB.
    private enum UserName: Sendable {
        case text(String)
        case entry(Entry)
    }

    public init(entry: AccountRef, username: String, category: AccountCategory, severity: Severity, warnings: [Warning],
                hidden: Bool, hiddenUntil: Date?, titleKey: String? = nil) {
        self.init(entry: entry, username: .text(username), category: category, severity: severity, warnings: warnings,
                  hidden: hidden, hiddenUntil: hiddenUntil, titleKey: titleKey)
    }

    /// A recommendation for this entry, its user name read from it.
    init(entry: AccountRef, usernameOf account: Entry, category: AccountCategory, severity: Severity, warnings: [Warning],
         hidden: Bool, hiddenUntil: Date?, titleKey: String) {
        self.init(entry: entry, username: .entry(account), category: category, severity: severity, warnings: warnings,
                  hidden: hidden, hiddenUntil: hiddenUntil, titleKey: titleKey)
    }

    private init(entry: AccountRef, username: UserName, category: AccountCategory, severity: Severity, warnings: [Warning],
                 hidden: Bool, hiddenUntil: Date?, titleKey: String?) {
        let rank = RankKey(severity: severity, warnings: warnings, category: category, titleKey: titleKey ?? entry.title.lowercased())
        storage = Storage(entry: entry, username: username, category: category, severity: severity, warnings: warnings,
                          hidden: hidden, hiddenUntil: hiddenUntil, rank: rank)
    }

    public static func == (a: Recommendation, b: Recommendation) -> Bool {
        if a.storage === b.storage { return true }
        return a.entry == b.entry && a.username == b.username && a.category == b.category && a.severity == b.severity
            && a.warnings == b.warnings && a.hidden == b.hidden && a.hiddenUntil == b.hiddenUntil && a.rank == b.rank
    }

    /// The same stored recommendation, not an equal copy (how a test sees
    /// that a report shares what has not changed with the one before).
    func isShared(with other: Recommendation) -> Bool { storage === other.storage }

    public var priority: Priority { severity >= .high ? .high : .other }
    public var kinds: [WarningKind] { warnings.map(\.kind) }

    /// The other accounts of a reuse group, when the password is reused.
    public var group: [AccountRef] {
        for case .reused(let group) in warnings { return group.others }
        return []
    }

    public var breachCount: Int? {
        for case .breached(let count, _) in warnings { return count }
        return nil
    }

    /// The ranking (documented in the README): severity, then the worst
    /// warning's kind (breached, reused, weak, insecure-url, old, no-2fa),
    /// then sensitive accounts first, then the larger breach count, then
    /// more warnings, then title (case-insensitive), then id.
    public static func ranksBefore(_ a: Recommendation, _ b: Recommendation) -> Bool {
        ranksBefore(a.storage, b.storage)
    }

    private static func ranksBefore(_ a: Storage, _ b: Storage) -> Bool {
        a.rank.ranksBefore(b.rank) ?? (a.entry.id < b.entry.id)
    }

    /// The list in ranking order, by the keys each box worked out once (a
    /// comparator over whole recommendations re-read their warnings, and
    /// at 100k accounts that was most of a report). Compared where they
    /// lie: a copy of every key was 6 MB at the peak of a 100k report.
    public static func ranked(_ list: [Recommendation]) -> [Recommendation] {
        list.sorted { ranksBefore($0.storage, $1.storage) }
    }

    /// The ranking's keys but the id (the entry's, beside it). The small
    /// numbers are packed into one word: 32 bytes a key, was 80.
    private struct RankKey: Sendable, Equatable {
        let severity: Int8, kind: Int8, sensitive: Bool, warningCount: Int8
        let dependents: Int32
        let breachCount: Int
        let titleKey: String

        init(severity: Severity, warnings: [Warning], category: AccountCategory, titleKey: String) {
            self.severity = Int8(severity.rawValue)
            kind = Int8(warnings[0].kind.rank)
            sensitive = category.isSensitive
            breachCount = warnings.lazy.compactMap { if case .breached(let count, _) = $0 { count } else { nil } }.first ?? -1
            // An opportunity (a passkey the service would take) is no extra risk: it does not rank.
            warningCount = Int8(clamping: warnings.count { $0.kind != .passkeyAvailable })
            dependents = Int32(clamping: warnings.lazy.compactMap { if case .identityProvider(let accounts) = $0 { accounts.count } else { nil } }.first ?? 0)
            self.titleKey = titleKey
        }

        /// Whether this key ranks before `b`; nil when only the ids can tell.
        func ranksBefore(_ b: RankKey) -> Bool? {
            if severity != b.severity { return severity > b.severity }
            if kind != b.kind { return kind < b.kind }
            // Among like findings, an identity provider ranks by how many accounts sign in through it.
            if dependents != b.dependents { return dependents > b.dependents }
            if sensitive != b.sensitive { return sensitive }
            if breachCount != b.breachCount { return breachCount > b.breachCount }
            if warningCount != b.warningCount { return warningCount > b.warningCount }
            if titleKey != b.titleKey { return titleKey < b.titleKey }
            return nil
        }
    }
}

extension Recommendation: TableKeyed {
    public var tableKey: String { id }
}
