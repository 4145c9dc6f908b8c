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
    /// The vault's rows at that merge (nil: not recorded, by an older bulwark): see `SyncScope`.
    var rowsAtMerge: Int?
    public var lastSync: Date?
    /// sha256 of the repository's header as of the last sync (a new one and a root that does not open: a re-key).
    public var header: String?
    /// Each entry as of the last sync, by bucket (see `KnownTable`).
    public var known = KnownTable()
    /// The file of the known table's buckets, and where each is in it.
    var knownName: String?
    var knownPlaces: [String: KnownFile.Place] = [:]
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
        var renamed: [String: Known] = [:]
        for (id, known) in try next.known.all() {
            var item = known
            item.file = sealer.fileID(of: id)
            renamed[id] = item
        }
        next.known = KnownTable(renamed, fileOf: Self.fileOf(vault))
        next.buckets = [:]
        try next.save(for: vault)
    }

    /// The entry id → repository file naming of the vault's current key.
    static func fileOf(_ vault: Vault) -> @Sendable (String) -> String {
        let sealer = SyncSealer(vault: vault)
        return { sealer.fileID(of: $0) }
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

    /// With every bucket of the table read now (before a re-key: they are sealed under the key of now).
    static func loadWhole(for vault: Vault) throws -> SyncState? {
        guard var state = try load(for: vault) else { return nil }
        state.known = KnownTable(try state.known.all(), fileOf: state.known.fileOf)
        return state
    }

    /// `withKnown` false: the entries' table is not opened. A reader that
    /// takes no lock (`sync status`) can read a state whose table a sync
    /// has just written anew and removed: it reads the state once more.
    private static func load(for vault: Vault, withKnown: Bool) throws -> SyncState? {
        do { return try loadOnce(for: vault, withKnown: withKnown) } catch {
            return try loadOnce(for: vault, withKnown: withKnown)
        }
    }

    private static func loadOnce(for vault: Vault, withKnown: Bool) throws -> SyncState? {
        let paths = Paths(vault: vault.path)
        guard let data = FileManager.default.contents(atPath: paths.state.path) else { return nil }
        guard let plain = vault.unsealed(Array(data), purpose: "sync-state"), var state = decode(plain, withKnown: withKnown) else {
            throw VaultError.damaged("the sync state \(paths.state.path) does not open; `bulwark sync init` links the vault again")
        }
        state.known.fileOf = fileOf(vault)
        if withKnown, let name = state.knownName {
            state.known = KnownTable(reading: try KnownFile.Reader(path: paths.directory.appendingPathComponent(name), places: state.knownPlaces,
                                                                   vault: vault), fileOf: fileOf(vault))
        }
        return state
    }

    // The state is JSON; the entries' table (100,000 of them in a large
    // vault) is in its own file by bucket (`KnownFile`). A state of the first
    // format carries the whole table after the JSON, as length-prefixed parts.
    private enum CodingKeys: String, CodingKey {
        case remote, machineID, machineName, sequence, counter, vaultCounter, lastSync, header, conflicts, retiredKeys, buckets
        case knownName, knownPlaces, rowsAtMerge
    }

    func encoded() throws -> [UInt8] {
        FieldCoding.encode(parts: [Array(try JSONEncoder().encode(self)), []])
    }

    static func decode(_ plain: [UInt8], withKnown: Bool = true) -> SyncState? {
        guard let halves = FieldCoding.decode(parts: plain), halves.count == 2,
              var state = try? JSONDecoder().decode(SyncState.self, from: Data(halves[0])) else { return nil }
        guard withKnown, !halves[1].isEmpty else { return state }
        guard let table = FieldCoding.decode(parts: Array(halves[1])), let all = KnownFile.decodeTable(table[...]) else { return nil }
        state.known = KnownTable(all, fileOf: state.known.fileOf)  // written by bucket at the next save
        return state
    }

    /// The table's changed buckets first (made durable), then the state,
    /// written whole under a temporary name and renamed over, so a kill
    /// leaves the old state or the new, each with the table it points at.
    public mutating func save(for vault: Vault) throws {
        let paths = Paths(vault: vault.path)
        try FileManager.default.createDirectory(at: paths.directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        var retired: URL?
        if known.whole || !known.changed.isEmpty {
            let current = try knownName.map { try KnownFile.Reader(path: paths.directory.appendingPathComponent($0), places: knownPlaces, vault: vault) }
            let saved = try KnownFile.save(known, currentName: knownName, current: current, directory: paths.directory, vault: vault)
            (knownName, knownPlaces, retired) = (saved.name, saved.places, saved.retired)
        }
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
        if let retired { unlink(retired.path) }
        if let knownName {
            known.saved(to: try KnownFile.Reader(path: paths.directory.appendingPathComponent(knownName), places: knownPlaces, vault: vault))
            // A compaction a kill cut short left a file nothing points at.
            for name in (try? FileManager.default.contentsOfDirectory(atPath: paths.directory.path)) ?? []
            where name.hasPrefix("known-") && name != knownName {
                unlink(paths.directory.appendingPathComponent(name).path)
            }
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
