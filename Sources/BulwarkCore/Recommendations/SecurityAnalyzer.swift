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

    /// What is known of one entry. The records are an array built on
    /// every core and moved in whole, with a map from id to position:
    /// building maps of large values was a third of analysing 100k accounts.
    private struct Record: Sendable {
        var entry: Entry
        var profile: AccountProfile
        var facts: PasswordFacts?
        /// Whether zxcvbn measured it (rather than the memo) when evaluated.
        var measured = false
    }
    private var records: [Record] = []
    private var position: [String: Int] = [:]
    /// Entry ids by password (arrays: nearly every group has one member,
    /// and 100k one-element sets cost more than the rest of the index).
    private var groups: [ReuseKey: [String]] = [:]
    /// The entries that sign in through each identity provider, by the
    /// provider's host (its issuer's): the blast radius of that account.
    private var signIns: [String: Set<String>] = [:]

    /// Passwords evaluated since creation (breach lookup and strength):
    /// how a test sees that an edit re-analyses one entry, not all.
    public private(set) var evaluations = 0
    /// Of those, the ones zxcvbn measured (the rest came from the memo).
    public private(set) var measured = 0

    /// Strength estimates to reuse, from the vault; replaced by the
    /// estimates in use after each change.
    private var memo: StrengthMemo
    /// Whether the estimates in use differ from the memo last handed out.
    private var memoChanged = false

    public init(settings: AnalysisSettings = AnalysisSettings(), breaches: BreachCorpus, sharing: SharedCredentials = .builtIn,
                services: ServiceRequirementsProvider? = nil, memo: StrengthMemo = StrengthMemo(),
                clock: @escaping @Sendable () -> Date = { Date() }) {
        self.memo = memo
        self.settings = settings
        self.breaches = breaches
        self.sharing = sharing
        self.services = services
        self.clock = clock
    }

    // MARK: Changes

    /// Seconds spent in each phase of the last `load`, for `make bench`.
    public struct LoadPhases: Sendable {
        /// Per account, on every core: site, backend, SHA-1 and the breach lookup…
        public var breach = 0.0
        /// …then the strength (remembered, or zxcvbn).
        public var strength = 0.0
        /// Both, as the benchmark has always reported them.
        public var passwords: Double { breach + strength }
        /// Building the maps and the reuse index.
        public var indexing = 0.0
    }
    public private(set) var lastLoad = LoadPhases()

    /// Analyses a whole vault, spreading the per-password work over the cores.
    public func load(_ all: [Entry]) throws {
        var phases = LoadPhases()
        var start = DispatchTime.now().uptimeNanoseconds
        func lap() -> Double {
            let now = DispatchTime.now().uptimeNanoseconds
            defer { start = now }
            return Double(now - start) / 1e9
        }
        // The last of entries with one id wins.
        var position = [String: Int](minimumCapacity: all.count)
        for (index, entry) in all.enumerated() { position[entry.id] = index }
        let list = position.count == all.count ? all : position.values.sorted().map { all[$0] }
        let sharing = sharing, services = services, breaches = breaches, memo = memo
        // Two passes across the cores, so that `analyze --timings` can say what each costs.
        let looked = try Concurrently.map(list) { entry in
            let profile = AccountProfile(entry, sharing: sharing, services: services)
            let inputs = PasswordFacts.Inputs(entry, profile)
            return (profile, inputs, try inputs.map { try PasswordFacts.lookUp($0, breaches: breaches) })
        }
        phases.breach = lap()
        records = try Concurrently.map(Array(list.indices)) { index in
            let (profile, inputs, found) = looked[index]
            let evaluated = inputs.flatMap { inputs in found.map { PasswordFacts.evaluate(inputs, looked: $0, memo: memo) } }
            return Record(entry: list[index], profile: profile, facts: evaluated?.facts, measured: evaluated?.measured ?? false)
        }
        phases.strength = lap()
        if position.count != all.count {
            position = Dictionary(minimumCapacity: records.count)
            for (index, record) in records.enumerated() { position[record.entry.id] = index }
        }
        self.position = position
        groups = [:]
        signIns = [:]
        for record in records { if let host = Self.providerHost(record.entry) { signIns[host, default: []].insert(record.entry.id) } }
        var remembered = Set<StrengthMemo.Key>()
        for record in records {
            guard let fact = record.facts else { continue }
            evaluations += 1
            if record.measured { measured += 1; memoChanged = true }
            if let key = fact.memoKey { remembered.insert(key) }
            groups[fact.reuseKey, default: []].append(record.entry.id)
        }
        // Estimates for passwords no longer in the vault are dropped.
        if remembered.count != memo.count { memoChanged = true }
        phases.indexing = lap()
        lastLoad = phases
    }

    /// Adds or replaces one entry: only it is re-evaluated, and only if its
    /// password or what the strength depends on changed.
    public func update(_ entry: Entry) throws {
        let profile = AccountProfile(entry, sharing: sharing, services: services)
        let previous = position[entry.id].flatMap { records[$0].facts }
        let inputs = PasswordFacts.Inputs(entry, profile)
        if let previous, previous.inputs == inputs {
            store(Record(entry: entry, profile: profile, facts: previous))
            return
        }
        if let previous { detach(entry.id, from: previous.reuseKey) }
        memoChanged = true
        guard let inputs else {
            store(Record(entry: entry, profile: profile, facts: nil))
            return
        }
        let (fact, measuredNow) = try PasswordFacts.evaluate(inputs, breaches: breaches, memo: memo)
        evaluations += 1
        if measuredNow { measured += 1 }
        store(Record(entry: entry, profile: profile, facts: fact, measured: measuredNow))
        groups[fact.reuseKey, default: []].append(entry.id)
    }

    private func store(_ record: Record) {
        if let index = position[record.entry.id] {
            if let host = Self.providerHost(records[index].entry) { leave(host, record.entry.id) }
            records[index] = record
        } else {
            position[record.entry.id] = records.count
            records.append(record)
        }
        if let host = Self.providerHost(record.entry) { signIns[host, default: []].insert(record.entry.id) }
    }

    private func leave(_ host: String, _ id: String) {
        signIns[host]?.remove(id)
        if signIns[host]?.isEmpty == true { signIns[host] = nil }
    }

    /// The host of the identity provider an entry signs in through.
    static func providerHost(_ entry: Entry) -> String? {
        entry.signsInWith.map(Domain.normalize).flatMap { $0.isEmpty ? nil : $0 }
    }

    public func remove(id: String) {
        guard let index = position.removeValue(forKey: id) else { return }
        // The last record fills the gap, so positions stay dense.
        let removed = records[index]
        if let host = Self.providerHost(removed.entry) { leave(host, id) }
        let last = records.removeLast()
        if index < records.count {
            records[index] = last
            position[last.entry.id] = index
        }
        if let previous = removed.facts {
            detach(id, from: previous.reuseKey)
            memoChanged = true
        }
    }

    /// The strength estimates of the passwords in use, when they changed
    /// since the memo given at creation or last taken: what the vault
    /// should keep. Nil when nothing changed.
    public func takeStrengthMemo() -> StrengthMemo? {
        guard memoChanged else { return nil }
        var current = StrengthMemo()
        for case let fact? in records.lazy.map(\.facts) {
            if let key = fact.memoKey, let strength = fact.strength { current[key] = strength }
        }
        memo = current
        memoChanged = false
        return current
    }

    private func detach(_ id: String, from key: ReuseKey) {
        groups[key]?.removeAll { $0 == id }
        if groups[key]?.isEmpty == true { groups[key] = nil }
    }

    // MARK: Results

    public func report() -> RecommendationsReport {
        let now = clock()
        var reuse: [ReuseKey: ReusedPassword] = [:]
        for (key, members) in groups where members.count > 1 {
            if let group = reusedPassword(members) { reuse[key] = group }
        }
        var visible: [Recommendation] = [], hidden: [Recommendation] = []
        for record in records {
            let group = record.facts.flatMap { reuse[$0.reuseKey] }
            guard let recommendation = recommendation(for: record, reuse: group, now: now) else { continue }
            if recommendation.hidden { hidden.append(recommendation) } else { visible.append(recommendation) }
        }
        return RecommendationsReport(recommendations: Recommendation.ranked(visible), hidden: Recommendation.ranked(hidden))
    }

    /// The recommendation for one entry, or nil when nothing is wrong.
    public func recommendation(forEntry id: String) -> Recommendation? {
        guard let record = position[id].map({ records[$0] }) else { return nil }
        let group = record.facts.flatMap { groups[$0.reuseKey] }.flatMap(reusedPassword)
        return recommendation(for: record, reuse: group, now: clock())
    }

    /// One password's accounts, when they span at least two backends (the
    /// same site, or sites of one shared-credentials group, are one
    /// account, not reuse). Then every member has another backend in it.
    private struct ReusedPassword {
        let members: [AccountRef]
        let sensitive: Bool
    }

    private func reusedPassword(_ ids: [String]) -> ReusedPassword? {
        guard ids.count > 1 else { return nil }
        let members = ids.compactMap { id in position[id].map { (id, records[$0].profile) } }
        guard let first = members.first?.1.backend, members.contains(where: { $0.1.backend != first }) else { return nil }
        let sorted = members.sorted { ($0.1.titleKey, $0.0) < ($1.1.titleKey, $1.0) }
        return ReusedPassword(members: sorted.map(\.1.ref), sensitive: members.contains { $0.1.isSensitive })
    }

    private func recommendation(for record: Record, reuse: ReusedPassword?, now: Date) -> Recommendation? {
        let entry = record.entry, profile = record.profile
        // Notes, cards and identities hold no password to recommend about.
        guard entry.kind.holdsPassword else { return nil }
        var warnings: [Warning] = []
        var sensitiveGroup = false
        if let fact = record.facts {
            if let hit = fact.breach { warnings.append(.breached(count: hit.count, corpus: hit.corpus)) }
            if let reuse {
                warnings.append(.reused(ReuseGroup(members: reuse.members, owner: entry.id)))
                sensitiveGroup = reuse.sensitive
            }
            if let weak = fact.weakness(below: settings.weakBelowBits) { warnings.append(weak) }
            // An identity provider's password at risk puts every account that signs in through it at risk.
            if !warnings.isEmpty, let ids = signIns[entry.site], !ids.isEmpty {
                let accounts = ids.compactMap { id in position[id].map { records[$0] } }.filter { $0.entry.id != entry.id }
                    .sorted { ($0.profile.titleKey, $0.entry.id) < ($1.profile.titleKey, $1.entry.id) }.map(\.profile.ref)
                if !accounts.isEmpty { warnings.append(.identityProvider(accounts: accounts)) }
            }
        }
        if let url = profile.insecureURL { warnings.append(.insecureURL(url)) }
        if entry.password != nil {
            let days = Int(now.timeIntervalSince(entry.passwordChanged) / 86_400)
            if days > settings.oldAfterDays { warnings.append(.old(changed: entry.passwordChanged, days: days)) }
            if entry.totpURI == nil, let method = profile.twoFactorMethod, method == "totp" {
                warnings.append(.noTwoFactor(method: method))
            }
            if let rpID = profile.passkeyRelyingParty, !entry.passkeys.contains(where: { Domain.normalize($0.rpID) == rpID }) {
                warnings.append(.passkeyAvailable(rpID: rpID))
            }
        }
        guard let severity = SeverityRules.severity(of: warnings, sensitiveAccount: profile.isSensitive,
                                                    sensitiveGroup: sensitiveGroup) else { return nil }
        let isHidden = entry.hiddenFromRecommendations && (entry.hiddenUntil.map { $0 > now } ?? true)
        return Recommendation(entry: profile.ref, username: entry.username, category: entry.category, severity: severity,
                              warnings: warnings.sorted { $0.kind < $1.kind }, hidden: isHidden,
                              hiddenUntil: isHidden ? entry.hiddenUntil : nil, titleKey: profile.titleKey)
    }

    static func isInsecure(_ url: String) -> Bool {
        let start = url.utf8.drop { $0 == 0x20 || $0 == 0x09 }
        guard start.count > 7, start.prefix(7).map({ $0 | 0x20 }).elementsEqual("http://".utf8) else { return false }
        let host = Domain.normalize(url)
        return !(host == "localhost" || host.hasSuffix(".localhost") || host.hasPrefix("127.") || host == "[::1]")
    }
}
