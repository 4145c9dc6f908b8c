import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Where the watch lists live: `$XDG_STATE_HOME/bulwark/watch` (else
/// `~/.local/state/bulwark/watch`), one file per vault (named by a hash of
/// its path), each holding the vault's watch key wrapped under this
/// machine's wrapping key (`key`, 32 random bytes, 0600) and the list sealed
/// under the watch key (AES-256-GCM). The watch key is derived from the
/// vault key at each unlock, so the list's digests stay the same from one
/// unlock to the next and a re-keyed vault gets a new one.
public struct WatchStore: Sendable {
    public let directory: URL

    public init(directory: URL) { self.directory = directory }

    public static func standard(environment: [String: String] = ProcessInfo.processInfo.environment) -> WatchStore {
        WatchStore(directory: StateDirectory.url("watch", environment: environment))
    }

    public enum Failure: Error, Equatable, CustomStringConvertible {
        case notWatched(String)
        case unreadable(String)
        public var description: String {
            switch self {
            case .notWatched(let path): "\(path) is not watched: 'bulwark watch --install' starts (it asks for the master password once)"
            case .unreadable(let why): "the watch list does not open (\(why)): the next unlock writes it again"
            }
        }
    }

    static func canonical(_ vaultPath: URL) -> String { vaultPath.standardizedFileURL.resolvingSymlinksInPath().path }

    public func file(for vaultPath: URL) -> URL {
        directory.appendingPathComponent(String(Digest.sha256(Array("bulwark-watch|\(Self.canonical(vaultPath))".utf8)).hex.prefix(32)) + ".watch")
    }

    public func isWatched(_ vaultPath: URL) -> Bool { FileManager.default.fileExists(atPath: file(for: vaultPath).path) }

    private var keyFile: URL { directory.appendingPathComponent("key") }
    private static func aad(_ what: String, _ path: String) -> [UInt8] { Array("bulwark/v1|watch|\(what)|\(path)".utf8) }

    /// This machine's wrapping key, made on first use.
    private func wrappingKey(create: Bool) throws -> [UInt8] {
        if let data = FileManager.default.contents(atPath: keyFile.path), data.count == 32 { return [UInt8](data) }
        guard create else { throw Failure.unreadable("no wrapping key in \(directory.path)") }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let key = SecureRandom.bytes(32)
        try Self.write(Data(key), to: keyFile)
        return key
    }

    /// Writes a new list for the vault (or its newer self), sealed under the vault's watch key.
    public func save(_ list: WatchList, vault: Vault) throws {
        try save(list, key: vault.subkey("watch"))
    }

    public func save(_ list: WatchList, key watchKey: [UInt8]) throws {
        let wrapping = try wrappingKey(create: true)
        let path = list.vaultPath
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        let plain = [UInt8](try encoder.encode(list))
        let aead = AEAD()
        let wrapped = aead.seal(watchKey, key: wrapping, associatedData: Self.aad("key", path))
        let sealed = aead.seal(plain, key: watchKey, associatedData: Self.aad("list", path))
        var out = Data([UInt8(wrapped.count >> 8), UInt8(wrapped.count & 0xFF)])
        out.append(contentsOf: wrapped)
        out.append(contentsOf: sealed)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try Self.write(out, to: file(for: URL(fileURLWithPath: path)))
    }

    /// The list and its watch key, opened without the master password.
    public func load(_ vaultPath: URL) throws -> (list: WatchList, key: [UInt8]) {
        let path = Self.canonical(vaultPath)
        guard let data = FileManager.default.contents(atPath: file(for: vaultPath).path) else { throw Failure.notWatched(vaultPath.path) }
        let bytes = [UInt8](data)
        guard bytes.count > 2 else { throw Failure.unreadable("too short") }
        let wrappedCount = Int(bytes[0]) << 8 | Int(bytes[1])
        guard bytes.count > 2 + wrappedCount else { throw Failure.unreadable("too short") }
        let aead = AEAD()
        guard let key = try? aead.open(Array(bytes[2..<2 + wrappedCount]), key: try wrappingKey(create: false), associatedData: Self.aad("key", path)),
              let plain = try? aead.open(Array(bytes[(2 + wrappedCount)...]), key: key, associatedData: Self.aad("list", path)) else {
            throw Failure.unreadable("altered, or sealed on another machine")
        }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        guard let list = try? decoder.decode(WatchList.self, from: Data(plain)) else { throw Failure.unreadable("not a watch list") }
        return (list, key)
    }

    /// Called at each unlock of a watched vault: the list made again when
    /// the vault changed since (or was re-keyed), keeping what was told.
    /// A password new to the list that the corpus files already hold is
    /// marked told: the unlock's analysis shows it, so it is no news.
    /// Best effort: a list that cannot be written costs the watch, never the command.
    @discardableResult
    public func refresh(_ vault: Vault, corpora: [String] = [], force: Bool = false) -> Bool {
        guard force || isWatched(vault.path) else { return false }
        let key = vault.subkey("watch")
        let existing = try? load(vault.path)
        if let existing, existing.key == key, existing.list.revision == vault.counter, !force { return true }
        var list = WatchList(vaultPath: Self.canonical(vault.path), revision: vault.counter, items: WatchList.items(of: vault.entries, key: key))
        if let old = existing?.list, existing?.key == key {
            list.reported = old.reported.intersection(list.items.map(\.digest))
            list.corpora = old.corpora
            list.checked = old.checked
            list.news = old.news
        }
        let known = Set((existing?.key == key ? existing?.list.items : nil) ?? [])
        var fresh = list
        fresh.items = list.items.filter { !known.contains($0) }
        fresh.reported = []
        fresh.corpora = [:]
        if !fresh.items.isEmpty {
            list.reported.formUnion(WatchCheck.corpora(corpora, list: &fresh, key: key, force: true).found.keys)
            for (path, stamp) in fresh.corpora where list.corpora[path] == nil { list.corpora[path] = stamp }
        }
        return (try? save(list, key: key)) != nil
    }

    /// Forgets the vault's list.
    public func remove(_ vaultPath: URL) { unlink(file(for: vaultPath).path) }

    private static func write(_ data: Data, to target: URL) throws {
        let temporary = target.path + ".tmp-\(getpid())"
        guard FileManager.default.createFile(atPath: temporary, contents: data, attributes: [.posixPermissions: 0o600]) else {
            throw Failure.unreadable("cannot write \(target.deletingLastPathComponent().path)")
        }
        guard rename(temporary, target.path) == 0 else {
            unlink(temporary)
            throw Failure.unreadable("cannot write \(target.path)")
        }
    }
}
