import Foundation

/// A sync repository's files (one commit, through `GitSnapshot`), read and written as the format says
/// (docs/manual/sync.md):
///
///     bulwark-sync.json        the vault id and wrapped key (plaintext)
///     entries/BB/FILEID        one sealed record per entry or tombstone
///     manifest/BB              sealed: each FILEID of bucket BB → its vector and the file's digest
///     manifest/root            sealed: a sequence number, the header's and every bucket's digest, the machines
///
/// One change rewrites its entry file, its bucket and the root. Reading
/// checks every digest it relies on, so a file dropped, swapped, replayed
/// or altered, or a root older than one already seen, is caught and named;
/// a bucket whose manifest and files are byte for byte the ones this
/// machine last verified (git's tree id of its directory says so) is not
/// read again.
struct SyncRepository {
    let files: GitSnapshot
    let sealer: SyncSealer

    struct Listed: Codable, Equatable {
        var vector: String
        var digest: String
        /// A tombstone: the root sequence that first carried it, and when it was pushed.
        var tombstone: Int64? = nil
        var pushed: Date? = nil
    }

    /// A tombstone outlives every machine's next sync, or this long.
    static let tombstoneLifetime: TimeInterval = 90 * 86_400

    /// A bucket as verified: its manifest's digest, and git's ids of its
    /// manifest file and of its entry files' directory (which change when
    /// any byte in them does).
    struct VerifiedBucket: Codable, Equatable, Sendable {
        var digest: String
        var objects: GitObjects
    }

    /// git's ids of a bucket's manifest file and entry directory at HEAD.
    struct GitObjects: Codable, Equatable, Sendable {
        var manifest: String?
        var entries: String?
    }

    /// What the manifest says, verified.
    struct Tree {
        var sequence: Int64 = 0
        var machines: [String: SyncMachine] = [:]
        /// Every bucket the root lists, with its digest.
        var buckets: [String: String] = [:]
        /// The listings of the buckets read this time (the others are as last verified).
        var listings: [String: [String: Listed]] = [:]
        /// Entry id → record, for the files opened.
        var records: [String: SyncRecord] = [:]
        /// For each record opened by `read`: its vector, the entry's digest and its file (as `SyncState.known` keeps them).
        var opened: [String: SyncState.Known] = [:]
        /// The newest sequence whose tombstones have been dropped (every machine had seen them, or they were old).
        var collected: Int64 = 0
        /// The buckets that hold a tombstone, where a write looks for ones to drop.
        var tombstoneBuckets: Set<String> = []
        /// The newest sequence a tombstone was pushed at: a machine that has
        /// not synced past it says so once (its `seen`), so the tombstone can go.
        var newestTombstone: Int64 = 0
        /// The paths the last write wrote or removed (for git to stage alone, not every file).
        var changedPaths: Set<String> = []
    }

    /// Buckets beyond those written that one write looks through for tombstones to drop.
    static let collectionsPerWrite = 8

    struct Root: Codable, Equatable {
        var format: Int
        var sequence: Int64
        var header: String
        var buckets: [String: String]
        var machines: [String: SyncMachine]
        var collected: Int64?
        var tombstoneBuckets: [String]?
        var newestTombstone: Int64?
    }

    static func bucket(of fileID: String) -> String { String(fileID.prefix(2)) }

    private func bytes(_ path: String) throws -> [UInt8]? { try files.bytes(path) }
    private func names(in path: String) throws -> [String] { try files.names(in: path) }

    // MARK: Reading

    /// Reads and checks the tree; an empty repository (no root and no entry)
    /// is an empty tree. `verified`: buckets as this machine last verified
    /// them, not read again while their manifest digest and `trees` (git's
    /// id of each bucket's directory now) are unchanged. `open`: whether a
    /// listed file must be opened (one this machine does not hold at that version).
    func read(verified: [String: VerifiedBucket] = [:], trees: [String: GitObjects] = [:],
              open: (String, Listed) -> Bool = { _, _ in true }) throws -> Tree {
        let headerBytes = try bytes(SyncHeader.fileName) ?? []
        guard let rootBytes = try bytes("manifest/root") else {
            guard try names(in: "entries").isEmpty, try names(in: "manifest").isEmpty else {
                throw SyncError.untrusted("the manifest's root is missing while entries are present")
            }
            return Tree()
        }
        guard let root = Self.decodeRoot(try sealer.openManifest(rootBytes, name: "root")) else {
            throw SyncError.untrusted("the manifest's root is malformed")
        }
        guard root.header == Digest.sha256(headerBytes).hex else {
            throw SyncError.untrusted("bulwark-sync.json is not the header the manifest was sealed with")
        }
        var tree = Tree(sequence: root.sequence, machines: root.machines, buckets: root.buckets, collected: root.collected ?? 0,
                        tombstoneBuckets: Set(root.tombstoneBuckets ?? []), newestTombstone: root.newestTombstone ?? 0)
        if let stray = Set(try names(in: "manifest").filter { $0 != "root" }).subtracting(root.buckets.keys).sorted().first {
            throw SyncError.untrusted("the manifest bucket \(stray) is not in the root")
        }
        // (git keeps no empty directory.)
        if let stray = Set(try names(in: "entries")).subtracting(root.buckets.keys).sorted().first {
            throw SyncError.untrusted("the entry files of bucket \(stray) are not in the manifest")
        }
        var started = DispatchTime.now().uptimeNanoseconds
        // The buckets to read, fetched from git in one go.
        let toRead = root.buckets.sorted(by: { $0.key < $1.key }).filter { bucket, digest in
            !(verified[bucket].map { $0.digest == digest && trees[bucket] == $0.objects } ?? false)
        }
        let paths = try self.files.files(under: toRead.map { "entries/\($0.key)" })
        SyncEngine.phase("read: list the buckets", since: &started)
        try self.files.load(toRead.map { "manifest/\($0.key)" } + paths)
        var toOpen: [ToOpen] = []
        SyncEngine.phase("read: load", since: &started)
        for (bucket, digest) in toRead {
            let files = try names(in: "entries/\(bucket)")
            let listed = try listing(of: bucket, digest: digest)
            tree.listings[bucket] = listed
            if let stray = Set(files).subtracting(listed.keys).sorted().first {
                throw SyncError.untrusted("the entry file \(stray) is not in the manifest")
            }
            for (fileID, expected) in listed.sorted(by: { $0.key < $1.key }) {
                guard Self.bucket(of: fileID) == bucket else { throw SyncError.untrusted("the entry file \(fileID) is listed in the wrong bucket") }
                guard let sealed = try bytes("entries/\(bucket)/\(fileID)") else {
                    throw SyncError.untrusted("the entry file \(fileID) is missing (dropped without a tombstone)")
                }
                guard Self.matches(sealed, expected.digest) else {
                    throw SyncError.untrusted("the entry file \(fileID) is not the version the manifest lists (replayed or altered)")
                }
                if open(fileID, expected) { toOpen.append(ToOpen(fileID: fileID, sealed: sealed, vector: expected.vector)) }
            }
        }
        SyncEngine.phase("read: listings and digests", since: &started)
        // Opening is the costly part (a clone opens every file): on every core.
        // (An AEAD context per slice.)
        let sealer = sealer, size = max(256, toOpen.count / (4 * ProcessInfo.processInfo.activeProcessorCount) + 1)
        let slices = stride(from: 0, to: toOpen.count, by: size).map { Array(toOpen[$0..<min(toOpen.count, $0 + size)]) }
        for slice in try Concurrently.map(slices, chunk: 1, { slice in
            let own = sealer.copy()
            return try slice.map { file in
                let record = try own.open(file.sealed, fileID: file.fileID)
                guard record.vector.canonical == file.vector else {
                    throw SyncError.untrusted("the entry file \(file.fileID) does not carry the version the manifest lists")
                }
                // What this machine will know of it, while the record is at hand on this core.
                return (record, SyncState.Known(vector: record.vector, digest: record.entry.map(SyncMerge.digest) ?? "", file: file.fileID))
            }
        }) {
            for (record, known) in slice {
                tree.records[record.id] = record
                tree.opened[record.id] = known
            }
        }
        SyncEngine.phase("read: open", since: &started)
        return tree
    }

    private struct ToOpen: Sendable {
        let fileID: String
        let sealed: [UInt8]
        let vector: String
    }

    /// A bucket's listing, checked against the digest the root gives it.
    func listing(of bucket: String, digest: String) throws -> [String: Listed] {
        guard let sealed = try bytes("manifest/\(bucket)") else { throw SyncError.untrusted("the manifest bucket \(bucket) is missing") }
        guard Self.matches(sealed, digest) else { throw SyncError.untrusted("the manifest bucket \(bucket) is not the one the root lists") }
        guard let listed = Self.decodeListing(try sealer.openManifest(sealed, name: bucket)) else {
            throw SyncError.untrusted("the manifest bucket \(bucket) is malformed")
        }
        return listed
    }

    // MARK: Writing

    /// Writes `changed` records into `tree`'s files, then their buckets and
    /// a root one sequence further on; returns the tree as written, with
    /// the listing of every bucket it wrote.
    func write(_ changed: [SyncRecord], over tree: Tree, header: SyncHeader, machines: [String: SyncMachine], now: Date = Date()) throws -> Tree {
        var next = tree
        next.sequence = tree.sequence + 1
        var touched = Set<String>()
        for record in changed {
            let fileID = sealer.fileID(of: record.id)
            let bucket = Self.bucket(of: fileID)
            if next.listings[bucket] == nil {
                next.listings[bucket] = try next.buckets[bucket].map { try listing(of: bucket, digest: $0) } ?? [:]
            }
            let sealed = try sealer.seal(record)
            files.write("entries/\(bucket)/\(fileID)", sealed)
            next.changedPaths.insert("entries/\(bucket)/\(fileID)")
            // A tombstone keeps the sequence and time it was first pushed at.
            let before = next.listings[bucket]?[fileID]
            var listed = Listed(vector: record.vector.canonical, digest: Self.digest(sealed))
            if record.isTombstone {
                listed.tombstone = before?.tombstone ?? next.sequence
                listed.pushed = before?.pushed ?? now
                next.newestTombstone = max(next.newestTombstone, listed.tombstone ?? 0)
            }
            next.listings[bucket]?[fileID] = listed
            next.records[record.id] = record
            touched.insert(bucket)
        }
        // Tombstones every machine has synced past (or older than their lifetime) go, in the buckets written anyway.
        let everyoneSaw = machines.values.map { $0.seen ?? 0 }.min() ?? 0
        var dropped = Set<String>()
        for bucket in next.tombstoneBuckets.subtracting(touched).sorted().prefix(Self.collectionsPerWrite) {
            guard next.listings[bucket] == nil, let digest = next.buckets[bucket] else { continue }
            next.listings[bucket] = try listing(of: bucket, digest: digest)
            touched.insert(bucket)
        }
        for bucket in touched {
            for (fileID, listed) in next.listings[bucket] ?? [:] {
                guard let sequence = listed.tombstone,
                      sequence <= everyoneSaw || now.timeIntervalSince(listed.pushed ?? now) > Self.tombstoneLifetime else { continue }
                next.listings[bucket]?[fileID] = nil
                files.remove("entries/\(bucket)/\(fileID)")
                next.changedPaths.insert("entries/\(bucket)/\(fileID)")
                next.collected = max(next.collected, sequence)
                dropped.insert(fileID)
            }
            if next.listings[bucket]?.isEmpty == true {
                next.listings[bucket] = nil
                next.buckets[bucket] = nil
                files.remove("manifest/\(bucket)")
                next.changedPaths.insert("manifest/\(bucket)")
            }
            if next.listings[bucket]?.values.contains(where: { $0.tombstone != nil }) == true {
                next.tombstoneBuckets.insert(bucket)
            } else {
                next.tombstoneBuckets.remove(bucket)
            }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        if !dropped.isEmpty { next.records = next.records.filter { !dropped.contains(sealer.fileID(of: $0.key)) } }
        for bucket in touched where next.listings[bucket] != nil {
            let sealed = sealer.sealManifest(Self.encodeListing(next.listings[bucket] ?? [:]), name: bucket)
            files.write("manifest/\(bucket)", sealed)
            next.changedPaths.insert("manifest/\(bucket)")
            next.buckets[bucket] = Self.digest(sealed)
        }
        // The header the repository was made with stays (each machine wraps
        // the same key under its own salt; only a re-key replaces it).
        let headerBytes: Data
        if let existing = try bytes(SyncHeader.fileName) {
            headerBytes = Data(existing)
        } else {
            headerBytes = try header.encoded()
            files.write(SyncHeader.fileName, Array(headerBytes))
        }
        next.machines = machines
        let root = Root(format: SyncHeader.currentFormat, sequence: next.sequence, header: Digest.sha256(Array(headerBytes)).hex,
                        buckets: next.buckets, machines: machines, collected: next.collected > 0 ? next.collected : nil,
                        tombstoneBuckets: next.tombstoneBuckets.isEmpty ? nil : next.tombstoneBuckets.sorted(),
                        newestTombstone: next.newestTombstone > 0 ? next.newestTombstone : nil)
        files.write("manifest/root", sealer.sealManifest(try Self.encodeRoot(root), name: "root"))
        next.changedPaths.formUnion(["manifest/root", SyncHeader.fileName])
        return next
    }
}

/// A machine that syncs the vault, by a random id: the name its person gave it, and when it last synced.
public struct SyncMachine: Codable, Sendable, Equatable {
    public var name: String
    public var lastSync: Date
    /// The root sequence this machine last synced at.
    public var seen: Int64?
    /// The highest change number this machine has pushed.
    public var counter: Int64?
    public init(name: String, lastSync: Date, seen: Int64? = nil, counter: Int64? = nil) {
        self.name = name
        self.lastSync = lastSync
        self.seen = seen
        self.counter = counter
    }
}
