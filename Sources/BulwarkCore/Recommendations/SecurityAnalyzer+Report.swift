import Foundation

/// The report, kept between changes: a change marks the entries whose
/// recommendation it touches (the entry, the reuse groups it leaves and
/// joins, the identity provider it signs in through), and the next report
/// works out only those again and moves them in the ranking. The rest of a
/// recommendation depends on the clock only through the password's age and
/// a hiding's end, so the kept report also knows until when it holds.
extension SecurityAnalyzer {
    struct KeptReport {
        var report: RecommendationsReport
        /// The latest clock reading it was worked out at (a clock that goes
        /// back means a whole new report)…
        var at: Date
        /// …and the first moment any of its recommendations would change.
        var until: Date
    }

    public func report() -> RecommendationsReport {
        let now = clock()
        // Patching a few is cheap; when much has changed (a batch of a large
        // vault's first analysis), ranking the whole again is cheaper.
        guard var kept, now >= kept.at, now < kept.until, stale.count * 8 < max(records.count, 64) else { return wholeReport(now: now) }
        var reuse: [ReuseKey: ReusedPassword?] = [:]
        for id in stale {
            guard let record = position(of: id).map({ records[$0] }) else {
                kept.report.replace(entry: id, with: nil)
                continue
            }
            var group: ReusedPassword?
            if let key = record.facts?.reuseKey {
                if let known = reuse[key] { group = known } else {
                    group = groups[key].flatMap(reusedPassword)
                    reuse[key] = group
                }
            }
            kept.report.replace(entry: id, with: recommendation(for: record, reuse: group, now: now))
            kept.until = min(kept.until, nextChange(of: record.entry, now: now))
        }
        stale = []
        kept.at = now
        self.kept = kept
        return kept.report
    }

    /// Every recommendation worked out, ranked and kept.
    private func wholeReport(now: Date) -> RecommendationsReport {
        var reuse: [ReuseKey: ReusedPassword] = [:]
        for (key, members) in groups where members.count > 1 {
            if let group = reusedPassword(members) { reuse[key] = group }
        }
        // The screen holds the previous report while this one is made (each
        // batch of a large vault's first analysis makes a whole one): a
        // recommendation that has not changed is that report's, shared,
        // rather than a second copy of it.
        let previous = kept?.report
        kept = nil
        // Worked out on every core, a run of records each (the analyzer is
        // only read meanwhile), then joined in order.
        nonisolated(unsafe) let analyzer = self
        let reused = reuse, run = 2048
        let runs = try! Concurrently.map(Array(stride(from: 0, to: records.count, by: run)), chunk: 1) { start in
            var visible: [Recommendation] = [], hidden: [Recommendation] = []
            var until = Date.distantFuture
            for record in analyzer.records[start..<min(start + run, analyzer.records.count)] {
                until = min(until, analyzer.nextChange(of: record.entry, now: now))
                let group = record.facts.flatMap { reused[$0.reuseKey] }
                guard var recommendation = analyzer.recommendation(for: record, reuse: group, now: now) else { continue }
                if let old = previous?.anyRecommendation(forEntry: recommendation.id), old == recommendation { recommendation = old }
                if recommendation.hidden { hidden.append(recommendation) } else { visible.append(recommendation) }
            }
            return (visible, hidden, until)
        }
        var visible: [Recommendation] = [], hidden: [Recommendation] = []
        visible.reserveCapacity(runs.reduce(0) { $0 + $1.0.count })
        hidden.reserveCapacity(runs.reduce(0) { $0 + $1.1.count })
        var until = Date.distantFuture
        for (runVisible, runHidden, runUntil) in runs {
            visible += runVisible
            hidden += runHidden
            until = min(until, runUntil)
        }
        let report = RecommendationsReport(recommendations: Recommendation.ranked(visible), hidden: Recommendation.ranked(hidden))
        kept = KeptReport(report: report, at: now, until: until)
        stale = []
        return report
    }

    /// When an entry's recommendation next changes with the clock alone:
    /// each day the password's age grows once it counts as old (the
    /// warning names the days), and when a hiding ends.
    private func nextChange(of entry: Entry, now: Date) -> Date {
        var next = Date.distantFuture
        if entry.password != nil {
            let days = Int(now.timeIntervalSince(entry.passwordChanged) / 86_400)
            next = entry.passwordChanged.addingTimeInterval(Double(max(days, settings.oldAfterDays) + 1) * 86_400)
        }
        if entry.hiddenFromRecommendations, let until = entry.hiddenUntil, until > now { next = min(next, until) }
        return next
    }

    /// Marks what a change to one entry touches (`after` nil: removed).
    /// Called before the records change, so `before` is the entry as the kept report saw it.
    func markStale(_ id: String, before: Record?, after: Entry?, profile: AccountProfile?) {
        guard kept != nil else { return }  // the next report is worked out whole anyway
        stale.insert(id)
        // What the other members of a reuse group, and the accounts of an
        // identity provider, show of this entry.
        var seenAlike = false
        if let before, let after, let profile {
            seenAlike = before.ref == profile.ref(after) && before.profile.titleKey == profile.titleKey
                && before.profile.backend == profile.backend && before.profile.isSensitive == profile.isSensitive
        }
        if let before, let fact = before.facts, let members = groups[fact.reuseKey], members.count > 1 {
            let samePassword = after.flatMap { entry in profile.map { PasswordFacts.Inputs(entry, $0) == before.inputs } } ?? false
            if !(seenAlike && samePassword) { stale.formUnion(members) }
        }
        let oldHost = before.flatMap { Self.providerHost($0.entry) }, newHost = after.flatMap(Self.providerHost)
        if oldHost != newHost || (oldHost != nil && !seenAlike) {
            let hosts = Set([oldHost, newHost].compactMap { $0 })
            for record in records where hosts.contains(record.entry.site) { stale.insert(record.entry.id) }
        }
    }

    /// The recommendation for one entry, or nil when nothing is wrong.
    public func recommendation(forEntry id: String) -> Recommendation? {
        guard let record = position(of: id).map({ records[$0] }) else { return nil }
        let group = record.facts.flatMap { groups[$0.reuseKey] }.flatMap(reusedPassword)
        return recommendation(for: record, reuse: group, now: clock())
    }

    /// One password's accounts, when they span at least two backends (the
    /// same site, or sites of one shared-credentials group, are one
    /// account, not reuse). Then every member has another backend in it.
    struct ReusedPassword {
        let members: [AccountRef]
        let sensitive: Bool
        /// How many accounts (backends) it is on, counted once for the whole group.
        let accounts: Int
    }

    func reusedPassword(_ ids: ReuseMembers) -> ReusedPassword? {
        guard ids.count > 1 else { return nil }
        let members = ids.compactMap { id in position(of: id).map { (id, records[$0]) } }
        guard let first = members.first?.1.profile.backend, members.contains(where: { $0.1.profile.backend != first }) else { return nil }
        let sorted = members.sorted { ($0.1.profile.titleKey, $0.0) < ($1.1.profile.titleKey, $1.0) }
        let refs = sorted.map(\.1.ref)
        return ReusedPassword(members: refs, sensitive: members.contains { $0.1.profile.isSensitive }, accounts: ReuseGroup.accounts(refs))
    }

    func recommendation(for record: Record, reuse: ReusedPassword?, now: Date) -> Recommendation? {
        let entry = record.entry, profile = record.profile
        // Notes, cards and identities hold no password to recommend about.
        guard entry.kind.holdsPassword else { return nil }
        var warnings: [Warning] = []
        var sensitiveGroup = false
        if let fact = record.facts {
            if let hit = fact.breach { warnings.append(.breached(count: hit.count, corpus: hit.corpus)) }
            if let reuse {
                warnings.append(.reused(ReuseGroup(members: reuse.members, owner: entry.id, accounts: reuse.accounts)))
                sensitiveGroup = reuse.sensitive
            }
            if let weak = fact.weakness(below: settings.weakBelowBits) { warnings.append(weak) }
            // An identity provider's password at risk puts every account that signs in through it at risk.
            if !warnings.isEmpty, let ids = signIns[entry.site], !ids.isEmpty {
                let accounts = ids.compactMap { id in position(of: id).map { records[$0] } }.filter { $0.entry.id != entry.id }
                    .sorted { ($0.profile.titleKey, $0.entry.id) < ($1.profile.titleKey, $1.entry.id) }.map(\.ref)
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
        return Recommendation(entry: record.ref, usernameOf: entry, category: entry.category, severity: severity,
                              warnings: warnings.sorted { $0.kind < $1.kind }, hidden: isHidden,
                              hiddenUntil: isHidden ? entry.hiddenUntil : nil, titleKey: profile.titleKey)
    }
}
