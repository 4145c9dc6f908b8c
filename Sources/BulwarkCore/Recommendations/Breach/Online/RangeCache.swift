import Foundation

/// The range API's answers kept on this machine, so that a second
/// analysis asks again only for prefixes it has not seen lately. Sealed
/// under a key derived from the vault's (the prefixes asked say a little
/// about the vault's passwords), written 0600 by rename, and read as empty
/// when it is missing, damaged or another vault's.
public struct RangeCache: Sendable {
    /// Answers older than this are asked again (breaches keep coming).
    public static let maximumAge: TimeInterval = 7 * 86_400
    static let purpose = "pwned-range-cache"

    public struct Range: Sendable, Equatable {
        public let fetched: Date
        public let hits: [String: Int]
    }

    public let file: URL
    public private(set) var ranges: [String: Range] = [:]

    /// `$XDG_CACHE_HOME/bulwark`, else `~/.cache/bulwark`.
    public static func directory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let base = environment["XDG_CACHE_HOME"], base.hasPrefix("/") { return URL(fileURLWithPath: base).appendingPathComponent("bulwark") }
        return URL(fileURLWithPath: environment["HOME"] ?? NSHomeDirectory()).appendingPathComponent(".cache/bulwark")
    }

    /// The cache of `vault`'s answers, without those older than `maximumAge`.
    public static func load(for vault: Vault, in directory: URL, now: Date = Date()) -> RangeCache {
        var cache = RangeCache(file: directory.appendingPathComponent("pwned-ranges-\(vault.shortID).sealed"))
        guard let box = FileManager.default.contents(atPath: cache.file.path),
              let plain = vault.unsealed([UInt8](box), purpose: purpose) else { return cache }
        cache.ranges = decode(plain).filter { now.timeIntervalSince($0.value.fetched) < maximumAge && $0.value.fetched <= now }
        return cache
    }

    /// The answers for `prefixes` that are in the cache and fresh.
    public func answered(_ prefixes: Set<String>) -> [String: [String: Int]] {
        var found: [String: [String: Int]] = [:]
        for prefix in prefixes { if let range = ranges[prefix] { found[prefix] = range.hits } }
        return found
    }

    public mutating func keep(_ hits: [String: Int], for prefix: String, fetched: Date) {
        ranges[prefix] = Range(fetched: fetched, hits: hits)
    }

    /// Written whole under a temporary name, then renamed over the old.
    public func save(for vault: Vault) throws {
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let temporary = file.path + ".tmp-\(getpid())"
        guard FileManager.default.createFile(atPath: temporary, contents: Data(vault.sealed(Self.encode(ranges), purpose: Self.purpose)),
                                             attributes: [.posixPermissions: 0o600]) else {
            throw VaultError.storage("cannot write \(temporary)")
        }
        guard rename(temporary, file.path) == 0 else {
            unlink(temporary)
            throw VaultError.storage("cannot write \(file.path)")
        }
    }

    /// `PREFIX SECONDS` then its `SUFFIX:COUNT` lines, a blank line after each range.
    static func encode(_ ranges: [String: Range]) -> [UInt8] {
        var text = ""
        for (prefix, range) in ranges.sorted(by: { $0.key < $1.key }) {
            text += "\(prefix) \(Int64(range.fetched.timeIntervalSince1970))\n"
            for (suffix, count) in range.hits.sorted(by: { $0.key < $1.key }) { text += "\(suffix):\(count)\n" }
            text += "\n"
        }
        return Array(text.utf8)
    }

    static func decode(_ bytes: [UInt8]) -> [String: Range] {
        var ranges: [String: Range] = [:]
        for block in String(decoding: bytes, as: UTF8.self).components(separatedBy: "\n\n") {
            let lines = block.split(separator: "\n")
            guard let head = lines.first?.split(separator: " "), head.count == 2, head[0].count == 5,
                  let seconds = Int64(head[1]) else { continue }
            var hits: [String: Int] = [:]
            for line in lines.dropFirst() {
                let parts = line.split(separator: ":")
                if parts.count == 2, let count = Int(parts[1]) { hits[String(parts[0])] = count }
            }
            ranges[String(head[0])] = Range(fetched: Date(timeIntervalSince1970: TimeInterval(seconds)), hits: hits)
        }
        return ranges
    }
}
