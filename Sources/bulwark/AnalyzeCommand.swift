import BulwarkCore
import BulwarkUpgrades
import Foundation

/// `bulwark analyze`: Security Recommendations for the vault, as text or
/// JSON. Exit 0 when there is nothing to do, 10 when the worst is low or
/// medium, 11 when high, 12 when critical, so scripts can gate on it.
enum AnalyzeCommand {
    static func exitCode(for worst: Severity?) -> Int32 {
        switch worst {
        case nil: 0
        case .low?, .medium?: 10
        case .high?: 11
        case .critical?: 12
        }
    }

    static func run(_ parsed: ParsedCommandLine) -> Int32 {
        guard parsed.arguments.isEmpty else { Output.error("analyze takes no arguments."); return 2 }
        let context: AnalysisContext
        switch AnalysisContext.load(parsed) {
        case .failure(let exit): return exit.code
        case .success(let loaded): context = loaded
        }
        let rangeURL = parsed.options["--range-url"] ?? context.config.rangeURL
        guard let base = URL(string: rangeURL), ["http", "https"].contains(base.scheme ?? ""), base.host != nil else {
            Output.error("--range-url \(rangeURL): not an http or https URL.")
            return 2
        }
        let online = parsed.options["--online"] != nil || parsed.options["--range-url"] != nil || context.config.onlineBreachCheck
        return VaultCommands.withVault(parsed) { vault, _ in
            var corpus = context.breaches
            var onlineSeconds: Double?
            if online {
                let start = DispatchTime.now().uptimeNanoseconds
                let outcome = OnlineCheckSettings.check(vault: vault, base: base)
                if let found = outcome.corpus { corpus = BreachCorpus(files: corpus.files + [found]) }
                Output.stderr(OnlineBreachCheck.report(outcome, base: base))
                onlineSeconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            }
            let analyzer = SecurityAnalyzer(settings: context.config.analysis, breaches: corpus, sharing: .with(context.quirks),
                                            services: context.catalog, memo: vault.strengthMemo())
            try analyzer.load(vault.entries)
            vault.keepStrengthMemo(of: analyzer)
            var clock = DispatchTime.now().uptimeNanoseconds
            func lap() -> Double {
                let now = DispatchTime.now().uptimeNanoseconds
                defer { clock = now }
                return Double(now - clock) / 1e9
            }
            let report = analyzer.report()
            let ranking = lap()
            let includeHidden = parsed.options["--include-hidden"] != nil
            if parsed.options["--json"] != nil {
                Output.json(json(report, corpus: corpus, includeHidden: includeHidden))
            } else {
                print(text(report, includeHidden: includeHidden), terminator: "")
            }
            if parsed.options["--timings"] != nil {
                let output = lap()
                let phases = analyzer.lastLoad
                let rows = [("key derivation", vault.openTimings.keyDerivation), ("load", vault.openTimings.load)]
                    + (onlineSeconds.map { [("online", $0)] } ?? [])
                    + [("breach", phases.breach), ("strength", phases.strength), ("reuse", phases.indexing), ("ranking", ranking), ("output", output)]
                // Standard error, one phase a line: `phase<TAB>seconds`, to set beside another tool's.
                Output.stderr("timings (wall seconds, \(vault.entries.count) entries, \(ProcessInfo.processInfo.activeProcessorCount) cores):\n"
                              + rows.map { "\($0.0)\t" + String(format: "%.4f", $0.1) + "\n" }.joined())
            }
            return exitCode(for: report.worst)
        }
    }

    // MARK: JSON

    static func json(_ report: RecommendationsReport, corpus: BreachCorpus, includeHidden: Bool) -> [String: Any] {
        let summary: [String: Any] = [
            "total": report.recommendations.count,
            "high_priority": report.highPriorityCount,
            "hidden": report.hidden.count,
            "by_severity": Dictionary(uniqueKeysWithValues: Severity.allCases.map { ($0.label, report.count($0)) }),
            "by_kind": Dictionary(uniqueKeysWithValues: WarningKind.allCases.map { ($0.rawValue, report.count($0)) }),
            "corpora": corpus.files.map(\.name),
        ]
        // Each reuse group once, its accounts listed there; a recommendation
        // names its group by id. Linear in the vault: a password on 2,000
        // accounts is 2,000 lines, not 2,000 lists of 1,999.
        var groups = ReuseGroups()
        var rows = report.recommendations.map { json($0, groups: &groups) }
        if includeHidden { rows += report.hidden.map { json($0, groups: &groups) } }
        return ["summary": summary, "recommendations": rows, "reuse_groups": groups.list]
    }

    /// The reuse groups met so far, numbered `g1`, `g2`… in the order they appear.
    struct ReuseGroups {
        private var ids: [String: String] = [:]
        private(set) var list: [[String: Any]] = []

        mutating func id(of group: ReuseGroup) -> String {
            let key = group.members.first?.id ?? ""
            if let id = ids[key] { return id }
            let id = "g\(list.count + 1)"
            ids[key] = id
            list.append(["id": id, "accounts": group.members.map { ["entry": $0.id, "title": $0.title, "site": $0.site] }])
            return id
        }
    }

    static func json(_ r: Recommendation, groups: inout ReuseGroups) -> [String: Any] {
        var reuse: ReuseGroup?
        for case .reused(let group) in r.warnings { reuse = group }
        let groupID = reuse.map { groups.id(of: $0) }
        var object: [String: Any] = [
            "entry": r.id, "title": r.entry.title, "site": r.entry.site, "username": r.username,
            "category": r.category.rawValue, "severity": r.severity.label, "priority": r.priority.rawValue,
            "warnings": r.warnings.map { json($0, group: groupID) }, "group": groupID.map { $0 as Any } ?? NSNull(), "hidden": r.hidden,
        ]
        if let until = r.hiddenUntil { object["hidden_until"] = VaultCommands.iso.string(from: until) }
        return object
    }

    static func json(_ w: Warning, group: String?) -> [String: Any] {
        var object: [String: Any] = ["kind": w.kind.rawValue, "reason": w.reason]
        switch w {
        case .breached(let count, let corpus):
            object["count"] = count
            object["corpus"] = corpus
        case .reused(let reuse):
            object["group"] = group ?? ""
            object["others"] = reuse.otherCount
        case .weak(let bits, let pattern, _):
            object["bits"] = bits.map { ($0 * 10).rounded() / 10 as Any } ?? NSNull()
            object["pattern"] = pattern
        case .insecureURL(let url): object["url"] = url
        case .old(let changed, let days):
            object["changed"] = VaultCommands.iso.string(from: changed)
            object["days"] = days
        case .noTwoFactor(let method): object["method"] = method
        case .passkeyAvailable(let rpID): object["rp_id"] = rpID
        case .identityProvider(let accounts): object["accounts"] = accounts.map { ["id": $0.id, "title": $0.title, "site": $0.site] }
        }
        return object
    }

    // MARK: Text

    static func text(_ report: RecommendationsReport, includeHidden: Bool) -> String {
        let counts = Severity.allCases.reversed().map { "\(report.count($0)) \($0.label)" }.joined(separator: ", ")
        var out = "\(report.recommendations.count) recommendation\(report.recommendations.count == 1 ? "" : "s"), "
            + "\(report.highPriorityCount) high priority (\(counts)); \(report.hidden.count) hidden.\n"
        func section(_ title: String, _ rows: [Recommendation]) {
            guard !rows.isEmpty else { return }
            out += "\n\(title)\n"
            for r in rows {
                let who = [r.entry.title, r.username, r.entry.site].filter { !$0.isEmpty }.joined(separator: "  ")
                out += "  " + r.severity.label.uppercased().padding(toLength: 10, withPad: " ", startingAt: 0) + who + "\n"
                for w in r.warnings { out += "            " + w.reason + "\n" }
            }
        }
        section("High Priority", report.highPriority)
        section("Other", report.other)
        if includeHidden { section("Hidden", Array(report.hidden)) }
        return out
    }
}

/// `bulwark hide ENTRY [--until DATE]` and `bulwark unhide ENTRY`.
enum HideCommand {
    static func run(_ parsed: ParsedCommandLine, hide: Bool) -> Int32 {
        guard parsed.arguments.count == 1 else {
            Output.error(hide ? "usage: bulwark hide ENTRY [--until YYYY-MM-DD]" : "usage: bulwark unhide ENTRY")
            return 2
        }
        var until: Date?
        if let text = parsed.options["--until"] {
            guard let date = CalendarDay.parse(text) else { Output.error("--until takes a date as YYYY-MM-DD."); return 2 }
            until = date
        }
        return VaultCommands.withVault(parsed) { vault, _ in
            let entry = try vault.update(try vault.find(parsed.arguments[0]).id) { entry in
                entry.hiddenFromRecommendations = hide
                entry.hiddenUntil = hide ? until : nil
            }
            if hide {
                print("Hid recommendations for \(entry.title)" + (until.map { " until \(VaultCommands.iso.string(from: $0))" } ?? "") + ".")
            } else {
                print("Recommendations for \(entry.title) are shown again.")
            }
            return 0
        }
    }
}
