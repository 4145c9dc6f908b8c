import Foundation

// What a sync checks before it trusts the remote, and what it remembers
// having checked, so that the next sync reads only what changed.
extension SyncEngine {
    struct Fetched {
        var tree: SyncRepository.Tree
        /// Ids the remote holds exactly as this machine last synced them, in the buckets examined…
        var unchanged: Set<String>
        /// …the buckets read this time or gone from the root (nil: every one); a known
        /// entry in any other bucket is as this machine last synced it.
        var examined: Set<String>?
        /// The remote is sealed under a key this machine retired (its own
        /// re-key): every record was read, and the next push rewrites them all.
        var rewrite = false
        /// Tombstones this machine knew that the remote dropped once every machine had seen them.
        var collected: Set<String> = []
        /// The remote's files as fetched: a write goes on top of them.
        var files: GitSnapshot
    }

    /// Fetches the remote and checks what it holds (reading, of what this
    /// machine knew, only the buckets the remote changed).
    func fetchAndCheck(state: inout SyncState, header: SyncHeader) throws -> Fetched {
        var started = DispatchTime.now().uptimeNanoseconds
        let fetched = try git.run(["fetch", "-q", "origin"], in: paths.repository)
        Self.phase("fetch: git fetch", since: &started)
        guard fetched.status == 0 else {
            throw SyncError.git("cannot reach \(state.remote): \(fetched.firstError). Your changes stay here and go out at the next sync")
        }
        let head = try Self.remoteHead(git, paths)
        if head == nil, state.sequence > 0 {
            throw SyncError.untrusted("the remote's branch \(Self.branch) is gone, though this machine synced with it before")
        }
        let files = try GitSnapshot(git: git, repository: paths.repository, commit: head)
        Self.phase("fetch: list", since: &started)
        if let remoteHeader = try SyncHeader.read(from: files) {
            guard remoteHeader.vault == header.vault else {
                throw SyncError.anotherVault("its vault is \(remoteHeader.vault.prefix(8))…, this one is \(header.vault.prefix(8))…")
            }
        } else if state.sequence > 0 {
            throw SyncError.untrusted("the remote no longer holds \(SyncHeader.fileName)")
        }
        // The key the root opens with: this vault's, or one it retired at a re-key.
        let sealers = state.sealers(for: vault)
        var opening = 0
        if let root = try files.bytes("manifest/root") {
            guard let index = sealers.firstIndex(where: { (try? $0.openManifest(root, name: "root")) != nil }) else {
                // Sealed under another key: another machine changed the master password (its header says so).
                if let now = SyncHeader.digest(from: files), let seen = state.header, now != seen { throw SyncError.rekeyed }
                throw SyncError.untrusted("the manifest root does not open (altered, or sealed under another key)")
            }
            opening = index
        }
        let sealer = sealers[opening], current = opening == 0
        // Each known entry's file under the key the remote is sealed with.
        func file(_ id: String, _ known: SyncState.Known) -> String { current ? known.file : sealer.fileID(of: id) }
        // Each bucket's files and their vectors as known here, made when the bucket is read.
        var vectorsByBucket: [String: [String: String]] = [:]
        var known = state.known
        let repository = SyncRepository(files: files, sealer: sealer)
        var tree = try repository.read(verified: current ? state.buckets : [:], trees: files.bucketObjects) { file, listed in
            guard current else { return true }
            let bucket = SyncRepository.bucket(of: file)
            if vectorsByBucket[bucket] == nil {
                // A bucket that does not read here is opened whole; the walk below reports why.
                let entries = (try? known.entries(inBucket: bucket)) ?? [:]
                vectorsByBucket[bucket] = Dictionary(entries.values.map { ($0.file, $0.canonical) }) { a, _ in a }
            }
            return vectorsByBucket[bucket]?[file] != listed.vector
        }
        state.known = known
        Self.phase("fetch: read and check", since: &started)
        guard tree.sequence >= state.sequence else {
            throw SyncError.untrusted("the remote was rolled back: its manifest is at \(tree.sequence), this machine saw \(state.sequence)")
        }
        // Everything the remote held at the last sync is still there, at that version or a later one,
        // or was a tombstone every machine had seen (collected), or went while this machine was away.
        var unchanged = Set<String>(), collected = Set<String>()
        // Under this vault's key, only the buckets read or gone: the others are as last verified.
        let examined: Set<String>? = current
            ? Set(tree.listings.keys).union(state.known.bucketNames.filter { tree.buckets[$0] == nil }) : nil
        var walked: [String: SyncState.Known] = [:]
        if let examined {
            for bucket in examined { walked.merge(try state.known.entries(inBucket: bucket)) { _, new in new } }
        } else {
            walked = try state.known.all()
        }
        for (id, known) in walked {
            let name = file(id, known)
            let bucket = SyncRepository.bucket(of: name)
            let listing = tree.listings[bucket]
            guard tree.buckets[bucket] != nil, listing == nil || listing?[name] != nil else {
                if known.deleted {
                    collected.insert(id)
                } else if state.sequence < tree.collected {
                    // Deleted elsewhere and collected since this machine last synced: a deletion to take in.
                    tree.records[id] = SyncRecord(id: id, vector: known.vector.bumped(SyncEngine.collectedMachine), entry: nil, changedAt: .distantPast)
                } else {
                    throw SyncError.untrusted("an entry this machine synced is gone from the remote without a tombstone (file \(name))")
                }
                continue
            }
            guard let listing, let listed = listing[name] else { unchanged.insert(id); continue }
            guard let record = tree.records[id] else { unchanged.insert(id); continue }
            guard record.vector.compare(known.vector) != .older else {
                throw SyncError.untrusted("the entry file \(name) is older on the remote than this machine last saw it (a replayed version)")
            }
            if current && listed.vector == known.canonical { unchanged.insert(id) }
        }
        Self.phase("fetch: what is unchanged", since: &started)
        return Fetched(tree: tree, unchanged: unchanged, examined: examined, rewrite: !current, collected: collected, files: files)
    }

    /// The buckets not to read again while unchanged: those read or written
    /// this time whose every file is known here at its listed version, and
    /// those skipped this time (unchanged since they were clean).
    static func cleanBuckets(_ tree: SyncRepository.Tree, trees: [String: SyncRepository.GitObjects],
                             before: [String: SyncRepository.VerifiedBucket],
                             known: inout KnownTable) throws -> [String: SyncRepository.VerifiedBucket] {
        var clean: [String: SyncRepository.VerifiedBucket] = [:]
        for (bucket, digest) in tree.buckets {
            if let listing = tree.listings[bucket] {
                var vectorByFile: [String: String] = [:]
                for item in try known.entries(inBucket: bucket).values { vectorByFile[item.file] = item.canonical }
                if let objects = trees[bucket], listing.allSatisfy({ vectorByFile[$0.key] == $0.value.vector }) {
                    clean[bucket] = SyncRepository.VerifiedBucket(digest: digest, objects: objects)
                }
            } else if let previous = before[bucket], previous.digest == digest, previous.objects == trees[bucket] {
                clean[bucket] = previous
            }
        }
        return clean
    }
}

extension SyncEngine.Fetched {
    /// Whether the remote holds a known entry exactly as this machine last synced it.
    func isUnchanged(_ id: String, bucket: (String) -> String) -> Bool {
        if unchanged.contains(id) { return true }
        guard let examined else { return false }
        return !examined.contains(bucket(id))
    }
}
