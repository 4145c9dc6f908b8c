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

    static func isLoopback(_ host: String) -> Bool {
        let name = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        return name == "localhost" || name == "::1" || name.hasPrefix("127.")
    }

    static func run(_ parsed: ParsedCommandLine) -> Int32 {
        guard parsed.arguments.isEmpty else { Output.error("analyze takes no arguments."); return 2 }
        let context: AnalysisContext
        switch AnalysisContext.load(parsed) {
        case .failure(let exit): return exit.code
        case .success(let loaded): context = loaded
        }
        let rangeURL = parsed.value("--range-url") ?? context.config.rangeURL
        guard let base = URL(string: rangeURL), ["http", "https"].contains(base.scheme ?? ""), base.host != nil else {
            Output.error("--range-url \(rangeURL): not an http or https URL.")
            return 2
        }
        // Plain http shows every prefix asked to anyone on the path: loopback only, unless asked for.
        if base.scheme == "http", !Self.isLoopback(base.host ?? ""), !parsed.flag("--insecure-http") {
            Output.error("--range-url \(rangeURL): plain http would show the prefixes asked to anyone on the way; only loopback may use it (--insecure-http allows it, or use https).")
            return 2
        }
        let online = parsed.flag("--online") || parsed.flag("--range-url") || context.config.onlineBreachCheck
        return VaultCommands.withVault(parsed) { vault, _ in
            ServiceWiring.refreshAppleIDStates(parsed, vault)
            var corpus = context.breaches
            var onlineSeconds: Double?
            if online {
                let start = DispatchTime.now().uptimeNanoseconds
                let outcome = OnlineCheckSettings.check(vault: vault, base: base)
                if let found = outcome.corpus { corpus = corpus.adding(found) }
                Output.stderr(OnlineBreachCheck.report(outcome, base: base))
                onlineSeconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            }
            let analyzer = SecurityAnalyzer(settings: context.config.analysis, breaches: corpus, sharing: context.catalog.sharing(context.quirks),
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
            let includeHidden = parsed.flag("--include-hidden")
            if parsed.flag("--json") {
                guard AnalyzeJSON.write(report, corpus: corpus, includeHidden: includeHidden, to: ByteSink(descriptor: STDOUT_FILENO)) else {
                    Output.error("cannot write the recommendations: standard output was closed or full.")
                    return 1
                }
            } else {
                print(text(report, includeHidden: includeHidden), terminator: "")
            }
            if parsed.flag("--timings") {
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

    // MARK: Text

    static func text(_ report: RecommendationsReport, includeHidden: Bool) -> String {
        let counts = Severity.allCases.reversed().map { "\(report.count($0)) \($0.label)" }.joined(separator: ", ")
        var out = "\(report.recommendations.count) recommendation\(report.recommendations.count == 1 ? "" : "s"), "
            + "\(report.highPriorityCount) high priority (\(counts)); \(report.hidden.count) hidden.\n"
        // Each severity's column made once, and each row appended in place: padded per row
        // through NSString, and joined from arrays, the text of 10,000 entries took 19 ms.
        let columns = Dictionary(uniqueKeysWithValues: Severity.allCases.map { severity -> (Severity, String) in
            let label = String(severity.label.uppercased().prefix(10))
            return (severity, "  " + label + String(repeating: " ", count: 10 - label.count))
        })
        func section(_ title: String, _ rows: [Recommendation]) {
            guard !rows.isEmpty else { return }
            out.reserveCapacity(out.utf8.count + rows.count * 160)
            out += "\n\(title)\n"
            for r in rows {
                out += columns[r.severity]!
                var separator = ""
                for part in [r.entry.title, r.username, r.entry.site] where !part.isEmpty {
                    out += separator
                    out += part
                    separator = "  "
                }
                out += "\n"
                for w in r.warnings {
                    out += "            "
                    out += w.reason
                    out += "\n"
                }
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
        if parsed.takes("--until"), let text = parsed.value("--until") {
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
