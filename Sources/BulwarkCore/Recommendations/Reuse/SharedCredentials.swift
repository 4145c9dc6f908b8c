import BulwarkAssets
import Foundation

/// Groups of sites that accept one set of credentials (one account on one
/// backend): the same password there is one account, not reuse. Read from
/// password-manager-resources' `shared-credentials.json` and
/// `shared-credentials-historical.json` (`{"shared": [...]}` or
/// `{"from": [...], "to": [...]}` objects), plus the groups the services
/// a vault speaks to declare (the demo's mock services have two). Groups
/// that share a domain merge.
public struct SharedCredentials: Sendable {
    private var groupOf: [String: Int] = [:]

    public init(groups: [[String]] = []) {
        for group in groups { add(group) }
    }

    /// A quirks directory's groups, and the services' own (`plus`).
    public static func with(_ quirks: QuirksDirectory?, plus services: [[String]] = []) -> SharedCredentials {
        var merged = SharedCredentials(groups: services)
        for group in quirks?.sharedCredentialGroups ?? [] { merged.add(group) }
        return merged
    }

    public mutating func add(_ domains: [String]) {
        let domains = domains.map(Domain.normalize).filter { !$0.isEmpty }
        guard !domains.isEmpty else { return }
        let existing = Set(domains.compactMap { groupOf[$0] })
        let id = existing.min() ?? (groupOf.values.max() ?? -1) + 1
        if existing.count > 1 {
            for (domain, group) in groupOf where existing.contains(group) { groupOf[domain] = id }
        }
        for domain in domains { groupOf[domain] = id }
    }

    /// What identifies an account's backend: its shared-credentials group
    /// when the host or a parent is in one, else its registrable site.
    public func backend(of host: String) -> String {
        backend(ofNormalized: Domain.normalize(host))
    }

    /// The same for a host already normalized (the analysis has it).
    func backend(ofNormalized host: String) -> String {
        backend(ofNormalized: host, site: Domain.site(ofNormalized: host))
    }

    /// The same when the host's registrable site is already known.
    func backend(ofNormalized host: String, site: String) -> String {
        if !groupOf.isEmpty {
            // The host and each parent with a dot left in it, on bytes (a
            // Substring's contains(".") is Foundation's locked search).
            var candidate = Substring(host)
            while let dot = candidate.utf8.firstIndex(of: 0x2E) {
                if let group = groupOf[String(candidate)] { return "shared#\(group)" }
                candidate = candidate[candidate.utf8.index(after: dot)...]
            }
        }
        return site
    }

    public func shareCredentials(_ a: String, _ b: String) -> Bool { backend(of: a) == backend(of: b) }

    /// Reads the JSON array of group objects.
    public static func parse(_ data: Data) throws -> [[String]] {
        guard let array = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] else {
            throw QuirksDirectory.LoadError(file: "shared-credentials.json", reason: "expected an array of objects")
        }
        return try array.enumerated().map { index, object in
            let shared = object["shared"] as? [String]
            let from = object["from"] as? [String], to = object["to"] as? [String]
            if let shared { return shared }
            if let from, let to { return from + to }
            throw QuirksDirectory.LoadError(file: "shared-credentials.json",
                                            reason: "group \(index + 1) has neither \"shared\" nor \"from\" and \"to\"")
        }
    }
}
