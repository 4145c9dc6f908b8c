import BulwarkAssets
import Foundation

/// A password found in a breach corpus.
public struct BreachHit: Sendable, Equatable {
    /// Times seen in breaches; 0 when the corpus is a list of common
    /// passwords without counts (the built-in one).
    public let count: Int
    public let corpus: String
}

/// Every breach corpus bulwark searches: the built-in list of common
/// passwords (CommonPasswordList), then any Pwned Passwords files given by
/// flag or config.
public struct BreachCorpus: Sendable {
    public static let builtInName = "built-in list of common passwords"
    /// The built-in list (nil: left out, as the benches and some tests do).
    public let common: CommonPasswordList?
    public let files: [PwnedPasswordsFile]

    public init(common: CommonPasswordList? = nil, files: [PwnedPasswordsFile]) {
        self.common = common
        self.files = files
    }

    /// The built-in list plus the given files, each checked on open.
    public static func load(paths: [String], includeBuiltIn: Bool = true) throws -> BreachCorpus {
        BreachCorpus(common: includeBuiltIn ? .builtIn : nil, files: try paths.map { try PwnedPasswordsFile(path: $0) })
    }

    /// The same lists and one more file (the online check's cache).
    public func adding(_ file: PwnedPasswordsFile) -> BreachCorpus { BreachCorpus(common: common, files: files + [file]) }

    /// Every list's name, the built-in one first.
    public var names: [String] { (common.map { [$0.name] } ?? []) + files.map(\.name) }

    /// The largest count among the corpora that hold the password's SHA-1.
    public func lookup(sha1 digest: [UInt8]) throws -> BreachHit? {
        precondition(digest.count == 20)
        let key = PwnedPasswordsFile.key(digest)
        return try PwnedPasswordsFile.upperHex(digest).withUnsafeBufferPointer { target in
            var best: BreachHit? = common?.contains(key: key) == true ? BreachHit(count: 0, corpus: BreachCorpus.builtInName) : nil
            for file in files {
                if let count = try file.count(ofUpperHex: target, key: key), best.map({ count > $0.count }) ?? true {
                    best = BreachHit(count: count, corpus: file.name)
                }
            }
            return best
        }
    }

    public func lookup(password: String) throws -> BreachHit? {
        try lookup(sha1: Digest.sha1(Array(password.utf8)))
    }

    /// Many passwords at once (see `lookup(sha1s:)`). Results in the given order.
    public func lookup(passwords: [String]) throws -> [BreachHit?] {
        try lookup(sha1s: try Concurrently.map(passwords) { Digest.sha1(Array($0.utf8)) })
    }

    /// Many SHA-1s at once (nil: none to look up), on every core, in the
    /// order of the hashes: each core's probes then walk the sorted corpus
    /// files forward, which is what a corpus bigger than the page cache
    /// needs. Results in the given order.
    public func lookup(sha1s digests: [[UInt8]?]) throws -> [BreachHit?] {
        // Sorted by each hash's first 8 bytes as one number (comparing byte
        // arrays was a fifth of a second at 100k), the rest only on a tie.
        var keyed: [(prefix: UInt64, index: Int)] = []
        keyed.reserveCapacity(digests.count)
        for (index, digest) in digests.enumerated() {
            guard let digest else { continue }
            keyed.append((digest.prefix(8).reduce(0) { $0 << 8 | UInt64($1) }, index))
        }
        keyed.sort { $0.prefix != $1.prefix ? $0.prefix < $1.prefix : digests[$0.index]!.lexicographicallyPrecedes(digests[$1.index]!) }
        let order = keyed.map(\.index)
        let found = try Concurrently.map(order, chunk: max(64, order.count / 8)) { try lookup(sha1: digests[$0]!) }
        var hits = [BreachHit?](repeating: nil, count: digests.count)
        for (position, index) in order.enumerated() { hits[index] = found[position] }
        return hits
    }
}
