import BulwarkCore
import Foundation

/// `analyze --json`, written as it is made: each recommendation becomes
/// its bytes and goes to standard output, instead of one tree of
/// dictionaries handed to JSONSerialization (20,000 recommendations took
/// it about 3 s, and the tree was held whole). Keys are written in sorted
/// order, as JSONSerialization's `.sortedKeys` wrote them.
///
/// `{"recommendations": [...], "reuse_groups": [...], "summary": {...}}`;
/// each reuse group once, its accounts listed there, and a recommendation
/// names its group by id: linear in the vault, so a password on 2,000
/// accounts is 2,000 lines, not 2,000 lists of 1,999.
enum AnalyzeJSON {
    /// False when the output refused the bytes (a closed pipe, a full disk).
    static func write(_ report: RecommendationsReport, corpus: BreachCorpus, includeHidden: Bool, to sink: ByteSink) -> Bool {
        var json = JSONWriter(terminalSafe: true)
        var groups = ReuseGroups()
        json.beginObject()
        json.key("recommendations")
        json.beginArray()
        func rows(_ list: some Sequence<Recommendation>) {
            for r in list {
                json.value(recommendation(r, groups: &groups))
                if json.bytes.count >= 1 << 16 { json.move(to: sink) }
            }
        }
        rows(report.recommendations)
        if includeHidden { rows(report.hidden) }
        json.endArray()
        json.key("reuse_groups")
        json.value(.array(groups.list))
        json.key("summary")
        json.value(summary(report, corpus: corpus))
        json.endObject()
        json.raw("\n")
        json.move(to: sink)
        return sink.flush()
    }

    static func summary(_ report: RecommendationsReport, corpus: BreachCorpus) -> JSONValue {
        sorted([
            ("total", .int(Int64(report.recommendations.count))),
            ("high_priority", .int(Int64(report.highPriorityCount))),
            ("hidden", .int(Int64(report.hidden.count))),
            ("by_severity", sorted(Severity.allCases.map { ($0.label, .int(Int64(report.count($0)))) })),
            ("by_kind", sorted(WarningKind.allCases.map { ($0.rawValue, .int(Int64(report.count($0)))) })),
            ("corpora", .array(corpus.names.map { .string($0) })),
        ])
    }

    /// The reuse groups met so far, numbered `g1`, `g2`… in the order they appear.
    struct ReuseGroups {
        private var ids: [String: String] = [:]
        private(set) var list: [JSONValue] = []

        mutating func id(of group: ReuseGroup) -> String {
            let key = group.members.first?.id ?? ""
            if let id = ids[key] { return id }
            let id = "g\(list.count + 1)"
            ids[key] = id
            list.append(sorted([("id", .string(id)), ("accounts", .array(group.members.map(account(entryKey: "entry"))))]))
            return id
        }
    }

    static func account(entryKey: String) -> (AccountRef) -> JSONValue {
        { sorted([(entryKey, .string($0.id)), ("title", .string($0.title)), ("site", .string($0.site))]) }
    }

    static func recommendation(_ r: Recommendation, groups: inout ReuseGroups) -> JSONValue {
        var reuse: ReuseGroup?
        for case .reused(let group) in r.warnings { reuse = group }
        let groupID = reuse.map { groups.id(of: $0) }
        var members: [(String, JSONValue)] = [
            ("entry", .string(r.id)), ("title", .string(r.entry.title)), ("site", .string(r.entry.site)), ("username", .string(r.username)),
            ("category", .string(r.category.rawValue)), ("severity", .string(r.severity.label)), ("priority", .string(r.priority.rawValue)),
            ("warnings", .array(r.warnings.map { warning($0, group: groupID) })), ("group", .optional(groupID)), ("hidden", .bool(r.hidden)),
        ]
        if let until = r.hiddenUntil { members.append(("hidden_until", .string(VaultCommands.iso.string(from: until)))) }
        return sorted(members)
    }

    static func warning(_ w: Warning, group: String?) -> JSONValue {
        var members: [(String, JSONValue)] = [("kind", .string(w.kind.rawValue)), ("reason", .string(w.reason))]
        switch w {
        case .breached(let count, let corpus):
            members += [("count", .int(Int64(count))), ("corpus", .string(corpus))]
        case .reused(let reuse):
            members += [("group", .string(group ?? "")), ("others", .int(Int64(reuse.otherCount)))]
        case .weak(let bits, let pattern, _):
            // One decimal: the estimate is no finer than that.
            members += [("bits", bits.map { .number(($0 * 10).rounded() / 10) } ?? .null), ("pattern", .string(pattern))]
        case .insecureURL(let url): members.append(("url", .string(url)))
        case .old(let changed, let days):
            members += [("changed", .string(VaultCommands.iso.string(from: changed))), ("days", .int(Int64(days)))]
        case .noTwoFactor(let method): members.append(("method", .string(method)))
        case .passkeyAvailable(let rpID): members.append(("rp_id", .string(rpID)))
        case .identityProvider(let accounts): members.append(("accounts", .array(accounts.map(account(entryKey: "id")))))
        }
        return sorted(members)
    }

    /// An object with its keys in order (bulwark's keys are lower-case ASCII and "_").
    static func sorted(_ members: [(String, JSONValue)]) -> JSONValue {
        .object(members.sorted { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) })
    }
}
