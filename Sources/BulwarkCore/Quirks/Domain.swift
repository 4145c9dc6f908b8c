import Foundation

/// Host names as bulwark compares them: lower-case, no trailing dot, no
/// scheme, path or port. `https://Login.Example.COM:443/x` → `login.example.com`.
public enum Domain {
    public static func normalize(_ text: String) -> String {
        // On UTF-8 bytes with the standard library only: the analysis runs
        // this for every account on every core, and Foundation's string
        // search is slow and takes locks.
        var bytes = Array(text.utf8)
        var low = 0, high = bytes.count
        func isBlank(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 }
        while low < high, isBlank(bytes[low]) { low += 1 }
        while high > low, isBlank(bytes[high - 1]) { high -= 1 }
        if high - low >= 3 {
            for i in low..<(high - 2) where bytes[i] == 0x3A && bytes[i + 1] == 0x2F && bytes[i + 2] == 0x2F {
                low = i + 3
                break
            }
        }
        if let end = (low..<high).first(where: { bytes[$0] == 0x2F || bytes[$0] == 0x3F || bytes[$0] == 0x23 }) { high = end }
        if let at = (low..<high).last(where: { bytes[$0] == 0x40 }) { low = at + 1 }
        if !(low..<high).contains(where: { bytes[$0] == 0x5D }), let colon = (low..<high).last(where: { bytes[$0] == 0x3A }) {
            high = colon
        }
        while high > low, bytes[high - 1] == 0x2E { high -= 1 }
        var ascii = true
        for i in low..<high {
            if bytes[i] >= 0x80 { ascii = false } else if bytes[i] >= 0x41 && bytes[i] <= 0x5A { bytes[i] += 0x20 }
        }
        let host = String(decoding: bytes[low..<high], as: UTF8.self)
        return ascii ? host : host.lowercased()
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
    public static func site(of host: String) -> String { site(ofNormalized: normalize(host)) }

    static func site(ofNormalized host: String) -> String {
        // On bytes for ASCII hosts with no empty label (nearly every real
        // one): this runs for every account of every analysis.
        let bytes = host.utf8
        var dots: [String.Index] = []
        var previous: String.Index?
        var wellFormed = !host.isEmpty
        for index in bytes.indices {
            if bytes[index] >= 0x80 { wellFormed = false; break }
            guard bytes[index] == 0x2E else { continue }
            if index == bytes.startIndex || previous.map({ bytes.index(after: $0) == index }) == true { wellFormed = false }
            previous = index
            dots.append(index)
        }
        if let last = dots.last, bytes.index(after: last) == bytes.endIndex { wellFormed = false }
        if wellFormed {
            guard dots.count >= 2 else { return host }
            let lastLabel = host[bytes.index(after: dots[dots.count - 1])...]
            let secondLabel = host[bytes.index(after: dots[dots.count - 2])..<dots[dots.count - 1]]
            let keep = lastLabel.utf8.count == 2 && registryLabels.contains(String(secondLabel)) ? 3 : 2
            guard dots.count >= keep else { return host }
            return String(host[bytes.index(after: dots[dots.count - keep])...])
        }
        return siteSplittingLabels(host)
    }

    /// The definition, on labels; `site(ofNormalized:)` agrees with it.
    static func siteSplittingLabels(_ host: String) -> String {
        let labels = host.split(separator: ".")
        guard labels.count > 2 else { return labels.joined(separator: ".") }
        let keep = labels.last!.count == 2 && registryLabels.contains(String(labels[labels.count - 2])) ? 3 : 2
        return labels.suffix(keep).joined(separator: ".")
    }
}
