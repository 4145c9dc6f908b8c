import Foundation

/// What `bulwark watch` keeps so it can look for a vault's passwords in new
/// breach data without the master password: for each distinct password,
/// the first five hex digits of its SHA-1 (what a Pwned Passwords range
/// request sends anyway) and a salted digest of the whole SHA-1 (HMAC-SHA-256
/// under the vault's watch key, 16 bytes). Never a password, a title or a
/// user name. Also what the watch has already told, and what it has yet to.
public struct WatchList: Sendable, Equatable, Codable {
    public struct Item: Sendable, Equatable, Codable, Hashable {
        public let prefix: String
        public let digest: String  // base64 of the salted digest
    }

    /// The news not yet shown: how many passwords, first seen when, in which corpora.
    public struct News: Sendable, Equatable, Codable {
        public var passwords: Int
        public var since: Date
        public var corpora: [String]
    }

    public var vaultPath: String
    /// The vault's change counter when the items were made.
    public var revision: Int64
    public var items: [Item]
    /// Salted digests already found (told once, never again).
    public var reported: Set<String> = []
    /// Each corpus file's size and modification time at the last check: an unchanged one is not read again.
    public var corpora: [String: String] = [:]
    public var checked: Date?
    public var news: News?

    /// The salted digest of a SHA-1 under the watch key.
    static func digest(_ sha1: [UInt8], key: [UInt8]) -> String {
        Data(HMAC.authenticate(Array("bulwark/v1|watch|".utf8) + sha1, key: key, digest: .sha256).prefix(16)).base64EncodedString()
    }

    /// The items for these entries' passwords (the empty left out, each once).
    static func items(of entries: [Entry], key: [UInt8]) -> [Item] {
        var seen = Set<[UInt8]>()
        var items: [Item] = []
        for entry in entries {
            guard let password = entry.password, !password.isEmpty else { continue }
            let sha1 = Digest.sha1(Array(password.utf8))
            guard seen.insert(sha1).inserted else { continue }
            items.append(Item(prefix: sha1.hex.prefix(5).uppercased(), digest: digest(sha1, key: key)))
        }
        return items.sorted { ($0.prefix, $0.digest) < ($1.prefix, $1.digest) }
    }
}
