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
    let clock: @Sendable () -> Date

    /// What is known of one entry. The records are an array built on
    /// every core and moved in whole, with an index from id to position:
    /// building maps of large values was a third of analysing 100k accounts.
    struct Record: Sendable {
        var entry: Entry
        var profile: AccountProfile
        var facts: PasswordFacts?
        /// Whether its strength was judged (rather than remembered) when evaluated.
        var measured = false

        var ref: AccountRef { profile.ref(entry) }
        /// What the facts were worked out from (not kept: worked out again
        /// when a change is compared with them).
        var inputs: PasswordFacts.Inputs? { PasswordFacts.Inputs(entry, profile) }
    }
    var records: [Record] = []
    var positions = PositionIndex()

    /// Where an entry's record is in `records`.
    func position(of id: String) -> Int? { positions.position(of: id) { records[$0].entry.id } }
    /// Entry ids by password (not sets: nearly every group has one member,
    /// and 100k one-element sets cost more than the rest of the index).
    var groups: [ReuseKey: ReuseMembers] = [:]
    /// The entries that sign in through each identity provider, by the
    /// provider's host (its issuer's): the blast radius of that account.
    var signIns: [String: Set<String>] = [:]

    /// The last report, patched for the entries in `stale` when the next is
    /// asked for (see SecurityAnalyzer+Report.swift).
    var kept: KeptReport?
    var stale = Set<String>()

    /// Passwords evaluated since creation (breach lookup and strength):
    /// how a test sees that an edit re-analyses one entry, not all.
    public private(set) var evaluations = 0
    /// Of those, the ones judged now (the rest came from the memo)…
    public private(set) var measured = 0
    /// …and of those, the ones a floor cleared, with no need of zxcvbn.
    public private(set) var floored = 0

    /// Strength estimates to reuse, from the vault, until the memo is
    /// taken back to be kept (then the vault holds it).
    private var memo: StrengthMemo
    /// Whether the estimates in use differ from the memo last handed out.
    private var memoChanged = false
    /// Passwords changed since the memo was last handed out: the app keeps
    /// the memo after many, not after each (it is 100k estimates, sealed).
    public private(set) var unkeptEstimates = 0

    public init(settings: AnalysisSettings = AnalysisSettings(), breaches: BreachCorpus, sharing: SharedCredentials = SharedCredentials(),
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
        var index = PositionIndex()
        index.reserve(all.count) { all[$0].id }
        for (at, entry) in all.enumerated() { index.set(entry.id, to: at) { all[$0].id } }
        let list = index.count == all.count ? all : index.positions.sorted().map { all[$0] }
        // Two passes across the cores, so that `analyze --timings` can say what each costs.
        let looked = try lookUp(list)
        phases.breach = lap()
        records = try evaluate(list, looked)
        phases.strength = lap()
        if index.count != all.count {
            index = PositionIndex()
            index.reserve(records.count) { records[$0].entry.id }
            for (at, record) in records.enumerated() { index.set(record.entry.id, to: at) { records[$0].entry.id } }
        }
        positions = index
        groups = [:]
        signIns = [:]
        for record in records { if let host = Self.providerHost(record.entry) { signIns[host, default: []].insert(record.entry.id) } }
        var remembered = Set<StrengthMemo.Key>()
        for record in records {
            guard let fact = record.facts else { continue }
            evaluations += 1
            if record.measured { countJudged(fact); memoChanged = true }
            if let key = fact.memoKey { remembered.insert(key) }
            join(fact.reuseKey, record.entry.id)
        }
        // Estimates for passwords no longer in the vault are dropped.
        if remembered.count != memo.count { memoChanged = true }
        phases.indexing = lap()
        lastLoad = phases
        kept = nil
        stale = []
    }

    typealias LookedUp = (profile: AccountProfile, inputs: PasswordFacts.Inputs?, found: PasswordFacts.LookedUp?)

    /// The first pass, on every core: each entry's profile and password's
    /// SHA-1, then the breach lookups in hash order (see BreachCorpus.lookup(sha1s:)).
    private func lookUp(_ list: [Entry]) throws -> [LookedUp] {
        let sharing = sharing, services = services
        let prepared = try Concurrently.map(list) { entry in
            let (profile, siteWord) = AccountProfile.made(entry, sharing: sharing, services: services)
            let inputs = PasswordFacts.Inputs(entry, siteWord: siteWord)
            return (profile, inputs, inputs.map { Digest.sha1(Array($0.password.utf8)) })
        }
        let hits = try breaches.lookup(sha1s: prepared.map { $0.1?.isPIN == false ? $0.2 : nil })
        return prepared.indices.map { index in
            let (profile, inputs, sha1) = prepared[index]
            return (profile, inputs, sha1.map { PasswordFacts.LookedUp(sha1: $0, breach: hits[index]) })
        }
    }

    private func countJudged(_ fact: PasswordFacts) {
        measured += 1
        if fact.strength?.isFloor == true { floored += 1 }
    }

    /// The second pass, on every core: each password's strength, remembered
    /// or judged now (a floor, or zxcvbn's estimate); a strength shared by
    /// several accounts (one password, and no account word that could
    /// change it) is judged once.
    private func evaluate(_ list: [Entry], _ looked: [LookedUp]) throws -> [Record] {
        let memo = memo, weakBelow = settings.weakBelowBits
        let keys = try Concurrently.map(Array(looked.indices)) { index in
            looked[index].found == nil ? nil : looked[index].inputs.flatMap(PasswordFacts.memoKey)
        }
        var firstWithKey: [StrengthMemo.Key: Int] = [:]
        var unmeasured: [Int] = []
        for (index, key) in keys.enumerated() {
            guard let key, memo.strength(key, weakBelow: weakBelow) == nil, firstWithKey[key] == nil else { continue }
            firstWithKey[key] = index
            unmeasured.append(index)
        }
        let measuredNow = try Concurrently.map(unmeasured) { index in
            let inputs = looked[index].inputs!
            return StrengthMeter.judge(inputs.password, accountWords: inputs.accountWords, weakBelow: weakBelow)
        }
        var fresh = [StrengthMemo.Key: Strength](minimumCapacity: unmeasured.count)
        for (index, strength) in zip(unmeasured, measuredNow) { fresh[keys[index]!] = strength }
        let measuredFirst = firstWithKey, measuredEstimates = fresh
        return try Concurrently.map(Array(list.indices)) { index in
            let (profile, inputs, found) = looked[index]
            guard let inputs, let found else { return Record(entry: list[index], profile: profile, facts: nil) }
            let key = keys[index]
            let facts = PasswordFacts(inputs, looked: found, memoKey: key, strength: key.flatMap { memo.strength($0, weakBelow: weakBelow) ?? measuredEstimates[$0] })
            return Record(entry: list[index], profile: profile, facts: facts, measured: key.map { measuredFirst[$0] == index } ?? false)
        }
    }

    /// Room for `count` accounts, made once before they are added in
    /// batches: grown by doubling, the records (some 160 bytes each) would
    /// briefly be held twice and keep a third more room than they use.
    /// Not the reuse index: it has one key per distinct password, fewer
    /// than the accounts, and room for all of them can be twice the buckets
    /// (a dictionary fills to three quarters: 100,000 keys take 262,144,
    /// 89,000 take 131,072, 4 MB less).
    public func reserve(_ count: Int) {
        records.reserveCapacity(count)
        positions.reserve(count) { records[$0].entry.id }
    }

    /// Adds entries not yet analysed, a batch at a time, on every core: the
    /// app analyses a large vault in the background this way, showing the
    /// recommendations found so far. The next report has them in place.
    public func add(_ batch: [Entry]) throws {
        let fresh = batch.filter { position(of: $0.id) == nil }
        let evaluated = try evaluate(fresh, try lookUp(fresh))
        var joined = Set<ReuseKey>()
        for record in evaluated {
            markStale(record.entry.id, before: nil, after: record.entry, profile: record.profile)
            store(record)
            guard let fact = record.facts else { continue }
            evaluations += 1
            if record.measured { countJudged(fact) }
            memoChanged = true
            unkeptEstimates += 1
            join(fact.reuseKey, record.entry.id)
            joined.insert(fact.reuseKey)
        }
        // The groups they joined name them now.
        guard kept != nil else { return }
        for key in joined { if let members = groups[key], members.count > 1 { stale.formUnion(members) } }
    }

    /// Adds or replaces one entry: only it is re-evaluated, and only if its
    /// password or what the strength depends on changed.
    public func update(_ entry: Entry) throws {
        let (profile, siteWord) = AccountProfile.made(entry, sharing: sharing, services: services)
        let before = position(of: entry.id).map { records[$0] }
        let previous = before?.facts
        let inputs = PasswordFacts.Inputs(entry, siteWord: siteWord)
        markStale(entry.id, before: before, after: entry, profile: profile)
        if let previous, before?.inputs == inputs {
            store(Record(entry: entry, profile: profile, facts: previous))
            return
        }
        if let previous { detach(entry.id, from: previous.reuseKey) }
        memoChanged = true
        unkeptEstimates += 1
        guard let inputs else {
            store(Record(entry: entry, profile: profile, facts: nil))
            return
        }
        let (fact, measuredNow) = try PasswordFacts.evaluate(inputs, breaches: breaches, memo: memo, weakBelow: settings.weakBelowBits)
        evaluations += 1
        if measuredNow { countJudged(fact) }
        store(Record(entry: entry, profile: profile, facts: fact, measured: measuredNow))
        join(fact.reuseKey, entry.id)
        // The group it joins names it now.
        if let members = groups[fact.reuseKey], members.count > 1 { stale.formUnion(members) }
    }

    private func store(_ record: Record) {
        if let index = position(of: record.entry.id) {
            if let host = Self.providerHost(records[index].entry) { leave(host, record.entry.id) }
            records[index] = record
        } else {
            positions.set(record.entry.id, to: records.count) { records[$0].entry.id }
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
        guard let index = position(of: id) else { return }
        markStale(id, before: records[index], after: nil, profile: nil)
        // The last record fills the gap, so positions stay dense. The index
        // is changed while both records are still where it says.
        positions.remove(id) { records[$0].entry.id }
        let removed = records[index], lastIndex = records.count - 1
        if let host = Self.providerHost(removed.entry) { leave(host, id) }
        if index < lastIndex {
            positions.set(records[lastIndex].entry.id, to: index) { records[$0].entry.id }
            records.swapAt(index, lastIndex)
        }
        records.removeLast()
        if let previous = removed.facts {
            detach(id, from: previous.reuseKey)
            memoChanged = true
            unkeptEstimates += 1
        }
    }

    /// The strength estimates of the passwords in use, when they changed
    /// since the memo given at creation or last taken: what the vault
    /// should keep. Nil when nothing changed.
    public func takeStrengthMemo() -> StrengthMemo? {
        guard memoChanged else { return nil }
        // The vault keeps the memo from here on: the analyzer lets its own
        // copy go (100k estimates, 4 MB) before making the new one. A
        // password changed later is measured again, about 20 µs. (Not
        // reserved for every record: accounts share estimates, and room
        // for 100,000 is twice the table 89,000 need.)
        memo = StrengthMemo()
        var current = StrengthMemo()
        for case let fact? in records.lazy.map(\.facts) {
            if let key = fact.memoKey, let strength = fact.strength { current[key] = strength }
        }
        memoChanged = false
        unkeptEstimates = 0
        return current
    }

    private func join(_ key: ReuseKey, _ id: String) {
        if groups[key]?.append(id) == nil { groups[key] = .one(id) }
    }

    private func detach(_ id: String, from key: ReuseKey) {
        groups[key] = groups[key]?.removing(id)
    }

    static func isInsecure(_ url: String) -> Bool {
        let start = url.utf8.drop { $0 == 0x20 || $0 == 0x09 }
        guard start.count > 7, start.prefix(7).map({ $0 | 0x20 }).elementsEqual("http://".utf8) else { return false }
        let host = Domain.normalize(url)
        return !(host == "localhost" || host.hasSuffix(".localhost") || host.hasPrefix("127.") || host == "[::1]")
    }
}
