import Foundation

/// Finds what is wrong with every account and keeps the answer current.
///
/// The costly part of an analysis is per password: its SHA-1 looked up in
/// the breach corpora and its strength estimated by zxcvbn. Those facts are
/// kept per entry and recomputed only when the entry's password, username,
/// site or PIN-ness changes. Reuse is an index from password hash to
/// entries, so a change touches the entry's old and new group only. The
/// rest (dates, URLs, 2FA, hiding) is cheap and judged when a report is
/// asked for, against the clock, so a report is never stale.
public final class SecurityAnalyzer {
    public let settings: AnalysisSettings
    public let breaches: BreachCorpus
    public let sharing: SharedCredentials
    public let services: ServiceRequirementsProvider?
    private let clock: @Sendable () -> Date

    private var entries: [String: Entry] = [:]
    private var facts: [String: PasswordFacts] = [:]
    private var groups: [ReuseKey: Set<String>] = [:]

    /// Passwords evaluated since creation (breach lookup and strength):
    /// how a test sees that an edit re-analyses one entry, not all.
    public private(set) var evaluations = 0

    public init(settings: AnalysisSettings = AnalysisSettings(), breaches: BreachCorpus, sharing: SharedCredentials = .builtIn,
                services: ServiceRequirementsProvider? = nil, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.settings = settings
        self.breaches = breaches
        self.sharing = sharing
        self.services = services
        self.clock = clock
    }

    // MARK: Changes

    /// Analyses a whole vault, spreading the per-password work over the cores.
    public func load(_ all: [Entry]) throws {
        entries = Dictionary(all.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last })
        facts = [:]
        groups = [:]
        let list = Array(entries.values)
        let computed = try PasswordFacts.evaluateConcurrently(list, breaches: breaches)
        evaluations += computed.count { $0 != nil }
        for (entry, fact) in zip(list, computed) {
            guard let fact else { continue }
            facts[entry.id] = fact
            groups[fact.reuseKey, default: []].insert(entry.id)
        }
    }

    /// Adds or replaces one entry: only it is re-evaluated, and only if its
    /// password or what the strength depends on changed.
    public func update(_ entry: Entry) throws {
        let previous = facts[entry.id]
        entries[entry.id] = entry
        let inputs = PasswordFacts.Inputs(entry)
        if let previous, previous.inputs == inputs { return }
        if let previous { detach(entry.id, from: previous.reuseKey) }
        facts[entry.id] = nil
        guard let inputs else { return }
        let fact = try PasswordFacts.evaluate(inputs, breaches: breaches)
        evaluations += 1
        facts[entry.id] = fact
        groups[fact.reuseKey, default: []].insert(entry.id)
    }

    public func remove(id: String) {
        entries[id] = nil
        if let previous = facts.removeValue(forKey: id) { detach(id, from: previous.reuseKey) }
    }

    private func detach(_ id: String, from key: ReuseKey) {
        groups[key]?.remove(id)
        if groups[key]?.isEmpty == true { groups[key] = nil }
    }

    // MARK: Results

    public func report() -> RecommendationsReport {
        let now = clock()
        var visible: [Recommendation] = [], hidden: [Recommendation] = []
        for entry in entries.values {
            guard let recommendation = recommendation(for: entry, now: now) else { continue }
            if recommendation.hidden { hidden.append(recommendation) } else { visible.append(recommendation) }
        }
        visible.sort(by: Recommendation.ranksBefore)
        hidden.sort(by: Recommendation.ranksBefore)
        return RecommendationsReport(recommendations: visible, hidden: hidden)
    }

    /// The recommendation for one entry, or nil when nothing is wrong.
    public func recommendation(forEntry id: String) -> Recommendation? {
        entries[id].flatMap { recommendation(for: $0, now: clock()) }
    }

    private func recommendation(for entry: Entry, now: Date) -> Recommendation? {
        var warnings: [Warning] = []
        var sensitiveGroup = false
        if let fact = facts[entry.id] {
            if let hit = fact.breach { warnings.append(.breached(count: hit.count, corpus: hit.corpus)) }
            let others = reuseGroup(of: entry, key: fact.reuseKey)
            if !others.isEmpty {
                warnings.append(.reused(with: others.map { AccountRef(id: $0.id, title: $0.title, site: $0.site) }))
                sensitiveGroup = others.contains { $0.category.isSensitive }
            }
            if let weak = fact.weakness(below: settings.weakBelowBits) { warnings.append(weak) }
        }
        if let url = entry.urls.first(where: Self.isInsecure) { warnings.append(.insecureURL(url)) }
        if entry.password != nil {
            let days = Int(now.timeIntervalSince(entry.passwordChanged) / 86_400)
            if days > settings.oldAfterDays { warnings.append(.old(changed: entry.passwordChanged, days: days)) }
            if entry.totpURI == nil, let host = entry.urls.first.map(Domain.normalize),
               let method = services?.twoFactorMethod(for: host), method == "totp" {
                warnings.append(.noTwoFactor(method: method))
            }
        }
        guard let severity = SeverityRules.severity(of: warnings, sensitiveAccount: entry.category.isSensitive,
                                                    sensitiveGroup: sensitiveGroup) else { return nil }
        let isHidden = entry.hiddenFromRecommendations && (entry.hiddenUntil.map { $0 > now } ?? true)
        return Recommendation(entry: AccountRef(id: entry.id, title: entry.title, site: entry.site), username: entry.username,
                              category: entry.category, severity: severity, warnings: warnings.sorted { $0.kind < $1.kind },
                              hidden: isHidden, hiddenUntil: isHidden ? entry.hiddenUntil : nil)
    }

    /// The other accounts with the same password, when at least one of them
    /// is on another backend (same site or a shared-credentials group is
    /// one account, not reuse). Ordered by title.
    private func reuseGroup(of entry: Entry, key: ReuseKey) -> [Entry] {
        guard let members = groups[key], members.count > 1 else { return [] }
        let mine = backend(of: entry)
        let others = members.filter { $0 != entry.id }.compactMap { entries[$0] }
        guard others.contains(where: { backend(of: $0) != mine }) else { return [] }
        return others.sorted { ($0.title.lowercased(), $0.id) < ($1.title.lowercased(), $1.id) }
    }

    private func backend(of entry: Entry) -> String {
        entry.urls.first.map { sharing.backend(of: $0) } ?? "untitled-site:" + entry.title.lowercased()
    }

    static func isInsecure(_ url: String) -> Bool {
        let lower = url.trimmingCharacters(in: .whitespaces).lowercased()
        guard lower.hasPrefix("http://") else { return false }
        let host = Domain.normalize(lower)
        return !(host == "localhost" || host.hasSuffix(".localhost") || host.hasPrefix("127.") || host == "[::1]")
    }
}
