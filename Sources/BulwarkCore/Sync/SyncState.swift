import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What this machine knows of its sync, kept beside the vault
/// (`VAULT.sync/state`, sealed under the vault key): the remote, this
/// machine's random id and name, the newest root it has seen (an older one
/// later is a rollback), and each entry's version vector and digest as of
/// the last sync, from which it tells what changed here since.
public struct SyncState: Codable, Sendable, Equatable {
    public var remote: String
    public var machineID: String
    public var machineName: String
    /// The highest root sequence seen on the remote.
    public var sequence: Int64 = 0
    /// The highest change number this machine has used.
    public var counter: Int64 = 0
    /// The vault's change counter as of the last sync's merge: an entry whose
    /// row is no newer is as that sync left it (no digest of it is needed). 0: unknown.
    public var vaultCounter: Int64 = 0
    public var lastSync: Date?
    /// sha256 of the repository's header as of the last sync (a new one and a root that does not open: a re-key).
    public var header: String?
    public var known: [String: Known] = [:]
    /// Same-field conflicts kept, newest first (titles and what was kept), until looked at.
    public var conflicts: [SyncConflict] = []
    /// The vault keys of before each re-key, hex, newest last: the repository, and the history
    /// the merge reads its common ancestors from, may still be sealed under one.
    var retiredKeys: [String] = []

    /// The buckets this machine verified whose every file it holds at the listed version, not read again while unchanged.
    var buckets: [String: SyncRepository.VerifiedBucket] = [:]

    public struct Known: Sendable, Equatable {
        public var vector: VersionVector { didSet { canonical = vector.canonical } }
        /// sha256 of the entry's box as last synced; empty for a tombstone.
        public var digest: String
        /// The entry's file in the repository.
        public var file: String
        /// The vector's text, made once (a sync compares 100,000 of them with the listings').
        public private(set) var canonical: String
        /// The vector of the entry's last change of content (`SyncRecord.edited`).
        public var edited: VersionVector
        public var deleted: Bool { digest.isEmpty }

        init(vector: VersionVector, digest: String, file: String, canonical: String? = nil, edited: VersionVector? = nil) {
            self.vector = vector
            self.digest = digest
            self.file = file
            self.canonical = canonical ?? vector.canonical
            self.edited = edited ?? vector
        }
    }

    public init(remote: String, machineID: String = SecureRandom.bytes(8).hex, machineName: String) {
        self.remote = remote
        self.machineID = machineID
        self.machineName = machineName
    }

    /// Where a vault's sync lives: `VAULT.sync/` holds `repo.git/` (a bare repository) and `state`.
    public struct Paths: Sendable {
        public let directory: URL
        public init(vault: URL) { directory = URL(fileURLWithPath: vault.path + ".sync") }
        /// A bare git repository (no working tree).
        public var repository: URL { directory.appendingPathComponent("repo.git") }
        /// The working copy an older bulwark kept, removed when found.
        var legacyWorkingCopy: URL { directory.appendingPathComponent("repo") }
        public var state: URL { directory.appendingPathComponent("state") }
    }

    /// After `bulwark passwd` (or following another machine's): sealed again
    /// under the new key, the old one kept, each entry's file named as the new key names it.
    func rekeyed(from oldKey: [UInt8], vault: Vault) throws {
        var next = self
        next.retiredKeys.append(oldKey.hex)
        let sealer = SyncSealer(vault: vault)
        for (id, known) in known {
            var renamed = known
            renamed.file = sealer.fileID(of: id)
            next.known[id] = renamed
        }
        next.buckets = [:]
        try next.save(for: vault)
    }

    /// The sealers of the current key and of each retired one, newest first.
    func sealers(for vault: Vault) -> [SyncSealer] {
        [SyncSealer(vault: vault)] + retiredKeys.reversed().compactMap { [UInt8](hex: $0) }.map { SyncSealer(vaultID: vault.vaultID, key: $0) }
    }

    /// The conflicts alone (a sync's end reads them again: the app may have settled some meanwhile).
    static func conflicts(for vault: Vault) -> [SyncConflict]? {
        (try? load(for: vault, withKnown: false))??.conflicts
    }

    public static func load(for vault: Vault) throws -> SyncState? { try load(for: vault, withKnown: true) }

    /// `withKnown` false: the entries' table is not decoded (it is most of the file).
    private static func load(for vault: Vault, withKnown: Bool) throws -> SyncState? {
        let paths = Paths(vault: vault.path)
        guard let data = FileManager.default.contents(atPath: paths.state.path) else { return nil }
        guard let plain = vault.unsealed(Array(data), purpose: "sync-state"), let state = decode(plain, withKnown: withKnown) else {
            throw VaultError.damaged("the sync state \(paths.state.path) does not open; `bulwark sync init` links the vault again")
        }
        return state
    }

    // The state is JSON but for `known` (an entry each, 100,000 of them in a
    // large vault), which is length-prefixed parts: JSON took seconds a sync.
    private enum CodingKeys: String, CodingKey {
        case remote, machineID, machineName, sequence, counter, vaultCounter, lastSync, header, conflicts, retiredKeys, buckets
    }

    func encoded() throws -> [UInt8] {
        var table: [[UInt8]] = []
        table.reserveCapacity(known.count * 5)
        for (id, item) in known {
            table += [Array(id.utf8), Array(item.file.utf8), Array(item.digest.utf8), Array(item.canonical.utf8),
                      Array((item.edited == item.vector ? "" : item.edited.canonical).utf8)]
        }
        return FieldCoding.encode(parts: [Array(try JSONEncoder().encode(self)), FieldCoding.encode(parts: table)])
    }

    static func decode(_ plain: [UInt8], withKnown: Bool = true) -> SyncState? {
        guard let halves = FieldCoding.decode(parts: plain), halves.count == 2,
              var state = try? JSONDecoder().decode(SyncState.self, from: Data(halves[0])) else { return nil }
        guard withKnown else { return state }
        guard let table = FieldCoding.decode(parts: Array(halves[1])), table.count % 5 == 0 else { return nil }
        state.known.reserveCapacity(table.count / 5)
        var index = 0
        while index < table.count {
            let text = String(decoding: table[index + 3], as: UTF8.self), editedText = String(decoding: table[index + 4], as: UTF8.self)
            guard let vector = VersionVector(canonical: text), let edited = editedText.isEmpty ? vector : VersionVector(canonical: editedText) else {
                return nil
            }
            state.known[String(decoding: table[index], as: UTF8.self)] = Known(vector: vector, digest: String(decoding: table[index + 2], as: UTF8.self),
                                                                              file: String(decoding: table[index + 1], as: UTF8.self), canonical: text,
                                                                              edited: edited)
            index += 5
        }
        return state
    }

    /// Written whole under a temporary name and renamed over, so a kill leaves the old state or the new.
    public func save(for vault: Vault) throws {
        let paths = Paths(vault: vault.path)
        try FileManager.default.createDirectory(at: paths.directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let sealed = vault.sealed(try encoded(), purpose: "sync-state")
        let temporary = paths.directory.appendingPathComponent(".state-\(getpid())")
        let fd = Glibc.open(temporary.path, O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw VaultError.storage("cannot write \(temporary.path): \(String(cString: strerror(errno)))") }
        let written = sealed.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        let synced = fsync(fd)
        Glibc.close(fd)
        guard written == sealed.count, synced == 0, rename(temporary.path, paths.state.path) == 0 else {
            unlink(temporary.path)
            throw VaultError.storage("cannot write \(paths.state.path): \(String(cString: strerror(errno)))")
        }
    }
}

/// A same-field conflict a sync settled: the value kept and where the
/// other went, and both sides as they were (sealed with the rest of the
/// state), so the person can still choose one until they have looked at it.
public struct SyncConflict: Codable, Sendable, Equatable {
    public var entryID: String
    public var title: String
    /// What was kept of the other side, as a person reads it.
    public var kept: String
    public var at: Date
    /// The other machine's name.
    public var from: String = ""
    /// The entry's boxes: this machine's side, the other's, their common ancestor; and the merge's digest.
    var mine: Data?
    var theirs: Data?
    var base: Data?
    var merged: String = ""

    public init(entryID: String, title: String, kept: String, at: Date) {
        self.entryID = entryID
        self.title = title
        self.kept = kept
        self.at = at
    }

    /// This machine's side and the other's, as they were when they met.
    public var versions: (mine: Entry, theirs: Entry)? {
        guard let mine = mine.flatMap({ Self.entry($0, id: entryID) }), let theirs = theirs.flatMap({ Self.entry($0, id: entryID) }) else { return nil }
        return (mine, theirs)
    }

    static func entry(_ box: Data, id: String) -> Entry? {
        guard let parts = FieldCoding.decode(parts: Array(box)), Vault.isEntryShape(parts.count) else { return nil }
        return Vault.decode(id: id, parts)
    }
}
