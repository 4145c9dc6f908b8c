import Foundation

/// Host names as bulwark compares them: lower-case, no trailing dot, no
/// scheme, path or port. `https://Login.Example.COM:443/x` → `login.example.com`.
public enum Domain {
    public static func normalize(_ text: String) -> String {
        var host = Substring(text.trimmingCharacters(in: .whitespaces).lowercased())
        if let scheme = host.range(of: "://") { host = host[scheme.upperBound...] }
        if let at = host.lastIndex(of: "@") { host = host[host.index(after: at)...] }
        if let end = host.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) { host = host[..<end] }
        if let colon = host.lastIndex(of: ":"), !host.contains("]") { host = host[..<colon] }
        while host.hasSuffix(".") { host = host.dropLast() }
        return String(host)
    }

    /// The domain and each parent with at least two labels, nearest first:
    /// `a.b.example.com` → `a.b.example.com`, `b.example.com`, `example.com`.
    public static func selfAndParents(_ host: String) -> [String] {
        let labels = host.split(separator: ".")
        guard labels.count >= 2 else { return host.isEmpty ? [] : [host] }
        return (0...(labels.count - 2)).map { labels[$0...].joined(separator: ".") }
    }
}

extension Domain {
    /// Second-level labels under which country registries sell names
    /// (`bank.co.uk`, `shop.com.au`).
    static let registryLabels: Set<String> = ["co", "com", "org", "net", "gov", "ac", "edu", "ne", "or", "go", "gob"]

    /// The registrable part of a host, which decides whether two accounts
    /// are on the same site: the last two labels, or three under a country
    /// registry's second level. An approximation of the public suffix list,
    /// which bulwark does not ship.
    public static func site(of host: String) -> String {
        let labels = normalize(host).split(separator: ".")
        guard labels.count > 2 else { return labels.joined(separator: ".") }
        let keep = labels.last!.count == 2 && registryLabels.contains(String(labels[labels.count - 2])) ? 3 : 2
        return labels.suffix(keep).joined(separator: ".")
    }
}
