import Foundation

/// A password-manager-resources `quirks` directory: per-domain password
/// rules, change-password URLs, and groups of sites that share one
/// credential backend. Every file is optional; bulwark works without any.
public struct QuirksDirectory: Sendable {
    public struct RulesEntry: Sendable, Equatable {
        public let rules: String
        public let exactDomainMatchOnly: Bool
    }

    public private(set) var passwordRules: [String: RulesEntry] = [:]
    public private(set) var changePasswordURLs: [String: String] = [:]
    /// Groups of domains that share one credential backend.
    public private(set) var sharedCredentialGroups: [[String]] = []

    public init() {}

    /// What went wrong reading one of the directory's files.
    public struct LoadError: Error, CustomStringConvertible {
        public let file: String
        public let reason: String
        public var description: String { "cannot read \(file): \(reason)" }
    }

    /// Loads the files present in `directory`. A missing file is fine; a file
    /// that is not the expected JSON is an error naming it.
    public static func load(from directory: URL) throws -> QuirksDirectory {
        var quirks = QuirksDirectory()
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw LoadError(file: directory.path, reason: "no such directory")
        }
        if let object = try readJSON(directory, "password-rules.json") {
            guard let table = object as? [String: Any] else { throw LoadError(file: "password-rules.json", reason: "expected an object of domains") }
            for (domain, value) in table {
                guard let entry = value as? [String: Any], let rules = entry["password-rules"] as? String else {
                    throw LoadError(file: "password-rules.json", reason: "entry '\(domain)' has no \"password-rules\" string")
                }
                quirks.passwordRules[Domain.normalize(domain)] =
                    RulesEntry(rules: rules, exactDomainMatchOnly: entry["exact-domain-match-only"] as? Bool ?? false)
            }
        }
        if let object = try readJSON(directory, "change-password-URLs.json") {
            guard let table = object as? [String: String] else {
                throw LoadError(file: "change-password-URLs.json", reason: "expected an object of domain → URL strings")
            }
            for (domain, url) in table { quirks.changePasswordURLs[Domain.normalize(domain)] = url }
        }
        for name in ["shared-credentials.json", "shared-credentials-historical.json"] {
            let url = directory.appendingPathComponent(name)
            guard FileManager.default.fileExists(atPath: url.path) else { continue }
            do {
                quirks.sharedCredentialGroups += try SharedCredentials.parse(Data(contentsOf: url))
            } catch let error as LoadError {
                throw LoadError(file: name, reason: error.reason)
            } catch {
                throw LoadError(file: name, reason: "not valid JSON")
            }
        }
        return quirks
    }

    static func readJSON(_ directory: URL, _ name: String) throws -> Any? {
        let url = directory.appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        do {
            return try JSONSerialization.jsonObject(with: Data(contentsOf: url))
        } catch {
            throw LoadError(file: name, reason: "not valid JSON")
        }
    }

    /// The rules for a host: an exact entry, else the nearest parent's entry
    /// unless that entry is marked exact-domain-match-only. A leading `www.`
    /// counts as the bare domain.
    public func rulesEntry(for host: String) -> RulesEntry? {
        let host = Domain.normalize(host)
        if let exact = passwordRules[host] ?? passwordRules[host.hasPrefix("www.") ? String(host.dropFirst(4)) : host] {
            return exact
        }
        for parent in Domain.selfAndParents(host).dropFirst() {
            if let entry = passwordRules[parent], !entry.exactDomainMatchOnly { return entry }
        }
        return nil
    }

    /// The change-password URL for a host, from this host or its nearest parent.
    public func changePasswordURL(for host: String) -> String? {
        for candidate in Domain.selfAndParents(Domain.normalize(host)) {
            if let url = changePasswordURLs[candidate] { return url }
        }
        return nil
    }
}
