import Foundation

/// Syncs a vault through a git remote: fetch, check, merge entry by entry
/// into the vault in one transaction, commit, push (again from the fetch
/// when another machine pushed first). The vault's write lock is held only
/// while merging; nothing local changes from a remote that fails a check;
/// this machine's state is saved only once the remote has its changes, so
/// a kill anywhere leaves the vault whole and the next sync completes it.
public final class SyncEngine {
    public let vault: Vault
    let git: Git
    let paths: SyncState.Paths
    var clock: () -> Date
    /// Push races retried before giving up.
    public var attempts = 5
    /// Runs just before each push (tests: another machine pushes first).
    var beforePush: (() throws -> Void)?
    /// How long a sync waits for another sync of this vault on this machine to end.
    public var lockWait: TimeInterval = 30

    public init(vault: Vault, git: Git, clock: @escaping () -> Date = { Date() }) {
        self.vault = vault
        self.git = git
        self.clock = clock
        paths = SyncState.Paths(vault: vault.path)
    }

    public static let branch = "main"

    /// `BULWARK_SYNC_TIMINGS=1`: each step's wall time on standard error (for `make bench` and profiling).
    static func phase(_ name: String, since start: inout UInt64) {
        guard ProcessInfo.processInfo.environment["BULWARK_SYNC_TIMINGS"] == "1" else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        FileHandle.standardError.write(Data(String(format: "sync %@: %.3f s\n", name, Double(now - start) / 1e9).utf8))
        start = now
    }
    /// The machine a deletion is credited to when its tombstone was collected before this machine saw it.
    static let collectedMachine = "collected"
    static let syncedRef = "refs/bulwark/synced"

    /// What a sync did, by entry title.
    public struct Report: Sendable, Equatable {
        public var incoming: [Change] = []
        public var outgoing: [String] = []
        public var conflicts: [SyncConflict] = []
        public var editsKeptOverDeletes: [String] = []
        public var waiting: [String] = []
        /// This machine's re-key reached the remote: every file sealed again under the new key.
        public var resealed = false

        public struct Change: Sendable, Equatable {
            public let title: String
            public let from: String
        }

        /// "2 changes from laptop (Mail, Bank)".
        public var incomingSummary: String {
            guard !incoming.isEmpty else { return "" }
            let machines = Array(Set(incoming.map(\.from))).sorted()
            let titles = incoming.map(\.title)
            return "\(incoming.count) change\(incoming.count == 1 ? "" : "s") from \(LosingSide.list(machines)) (\(titles.prefix(5).joined(separator: ", "))\(titles.count > 5 ? ", …" : ""))"
        }
    }

    // MARK: Linking

    /// Links the vault to `remote`: an empty remote gets the vault; one
    /// holding this vault is joined; anything else is refused.
    public func link(remote: String, machineName: String) throws -> Report {
        try holdingSyncLock { try linking(remote: remote, machineName: machineName) }
    }

    private func linking(remote: String, machineName: String) throws -> Report {
        if let state = try SyncState.load(for: vault) {
            throw SyncError.git("this vault is already linked to \(state.remote); `bulwark sync` syncs it")
        }
        try Self.prepare(git, paths, remote: remote, context: "cannot reach \(remote)")
        let files = try GitSnapshot(git: git, repository: paths.repository, commit: try Self.remoteHead(git, paths))
        if let header = try SyncHeader.read(from: files) {
            guard header.vault == (try vault.syncHeader()).vault else {
                throw SyncError.anotherVault("its vault is \(header.vault.prefix(8))…, this one is \((try vault.syncHeader()).vault.prefix(8))…")
            }
        } else {
            let others = try files.names(in: "")
            if !others.isEmpty {
                throw SyncError.notARepository("it holds other files (\(others.prefix(3).joined(separator: ", ")))")
            }
        }
        let state = SyncState(remote: remote, machineName: machineName)
        return try sync(state: state)
    }

    /// Sets up the vault at `path` from `remote`: only the master password is asked.
    public static func clone(remote: String, to path: URL, masterPassword: String, machineName: String, git: Git,
                             freshness: FreshnessRecord? = nil) throws -> (vault: Vault, entries: Int) {
        let paths = SyncState.Paths(vault: path)
        if FileManager.default.fileExists(atPath: path.path) { throw VaultError.alreadyExists(path.path) }
        if FileManager.default.fileExists(atPath: paths.directory.path) {
            throw SyncError.git("\(paths.directory.path) is in the way (a clone that did not finish?); remove it and clone again")
        }
        do {
            var started = DispatchTime.now().uptimeNanoseconds
            try prepare(git, paths, remote: remote, context: "cannot clone \(remote)")
            Self.phase("clone: git fetch", since: &started)
            guard let head = try remoteHead(git, paths) else {
                throw SyncError.notARepository("it has no branch \(branch) (an empty repository, or another kind)")
            }
            let files = try GitSnapshot(git: git, repository: paths.repository, commit: head)
            Self.phase("clone: git ls-tree", since: &started)
            guard let header = try SyncHeader.read(from: files) else {
                throw SyncError.notARepository("it holds no \(SyncHeader.fileName) (an empty repository, or another kind)")
            }
            let vault = try Vault.join(header, at: path, masterPassword: masterPassword, freshness: freshness)
            Self.phase("clone: key derivation and vault", since: &started)
            do {
                let repository = SyncRepository(files: files, sealer: SyncSealer(vault: vault))
                let tree = try repository.read()
                Self.phase("clone: read and check the repository", since: &started)
                var state = SyncState(remote: remote, machineName: machineName)
                let entries = tree.records.values.compactMap(\.entry).sorted { $0.id < $1.id }
                try vault.transaction(keepInMemory: true) { change in
                    try SyncFiles.pull(entries, from: files, into: vault)
                    try change.insert(entries)
                }
                Self.phase("clone: write the vault", since: &started)
                state.vaultCounter = vault.counter  // the vault is the remote as read: the first sync has nothing to merge
                state.rowsAtMerge = vault.rows.count
                state.known = KnownTable(tree.opened, fileOf: SyncState.fileOf(vault))
                state.buckets = try cleanBuckets(tree, trees: files.bucketObjects, before: [:], known: &state.known)
                Self.phase("clone: what this machine knows", since: &started)
                state.sequence = tree.sequence
                state.header = SyncHeader.digest(from: files)
                state.lastSync = Date()
                try git.must(["update-ref", syncedRef, head], in: paths.repository, "cannot record the sync")
                try state.save(for: vault)
                Self.phase("clone: save the state", since: &started)
                // Say to the remote that this machine exists, so tombstones wait for it (a remote it may not write to: later).
                _ = try? SyncEngine(vault: vault, git: git).sync()
                Self.phase("clone: first sync (the machine says it exists)", since: &started)
                return (vault, entries.count)
            } catch {
                vault.close()
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path.path + suffix) }
                throw error
            }
        } catch {
            try? FileManager.default.removeItem(at: paths.directory)
            throw error
        }
    }

    // MARK: Syncing

    public func sync() throws -> Report { try holdingSyncLock { try syncing() } }

    private func syncing() throws -> Report {
        var started = DispatchTime.now().uptimeNanoseconds
        guard let state = try SyncState.load(for: vault) else { throw SyncError.notLinked }
        Self.phase("load the state", since: &started)
        if !Self.hasRepository(paths) { try Self.prepare(git, paths, remote: state.remote, context: "cannot reach \(state.remote)") }
        return try sync(state: state)
    }

    private func sync(state initial: SyncState) throws -> Report {
        var state = initial
        state.known.fileOf = SyncState.fileOf(vault)
        let sealer = SyncSealer(vault: vault)
        let header = try vault.syncHeader()
        var started = DispatchTime.now().uptimeNanoseconds
        for attempt in 1...attempts {
            let fetched = try fetchAndCheck(state: &state, header: header)
            Self.phase("fetch and check", since: &started)
            KillPoint.reach("sync-fetched")
            let tree = fetched.tree
            let repository = SyncRepository(files: fetched.files, sealer: sealer)
            var synced = fetched.files.commit
            let names = tree.machines.mapValues(\.name).merging([state.machineID: state.machineName]) { _, mine in mine }
            let now = clock()
            // Above every change number this machine used, kept here or pushed before a kill lost the state.
            let counter = max(state.counter, tree.machines[state.machineID]?.counter ?? 0) + 1
            let sealers = state.sealers(for: vault)
            // Tombstones the remote dropped once every machine had seen them: nothing more to say of them.
            for id in fetched.collected where try state.known.known(id)?.deleted == true { try state.known.set(id, nil) }
            // An entry whose row is no newer than the last sync's merge is as that sync left it
            // (unless the vault went back: a restore, where every digest is compared).
            let lastMerge = state.vaultCounter
            let bucketOf = state.known.bucket(of:)
            func merge() throws -> SyncMerge.Outcome {
                // The entries changed on either side since the last merge, when they can be told
                // without a walk of every entry (see `SyncScope`); else every entry.
                let scope = try SyncScope.changed(in: vault, since: lastMerge, rowsThen: state.rowsAtMerge, known: &state.known,
                                                  remote: tree.records.keys, rewrite: fetched.rewrite)
                var input = SyncMerge.Input(local: scope?.local ?? Self.byID(vault.entries),
                                            known: try scope?.known ?? state.known.all(), remote: tree.records,
                                            isUnchanged: { fetched.isUnchanged($0, bucket: bucketOf) },
                                            base: { [self] id in base(id, sealers) }, fileID: sealer.fileID(of:),
                                            me: state.machineID, counter: counter, machineNames: names, now: now)
                if lastMerge > 0, vault.counter >= lastMerge {
                    input.untouchedSinceLastSync = { [vault] entry in (vault.version(of: entry.id) ?? .max) <= lastMerge }
                }
                return SyncMerge.merge(input)
            }
            // Decided first without the write lock; when the vault takes
            // something, decided again under it, from the file as it is then.
            _ = try vault.refresh()
            var outcome = try merge()
            var mergedAt = vault.counter, rowsAtMerge = vault.rows.count
            if !outcome.puts.isEmpty || !outcome.deletes.isEmpty {
                try vault.transaction { change in
                    outcome = try merge()
                    // The files the incoming entries hold, in the same transaction as the entries.
                    try SyncFiles.pull(outcome.puts, from: fetched.files, into: vault)
                    for entry in outcome.puts {
                        if change.entry(id: entry.id) != nil { try change.update([entry.id]) { $0 = entry } } else { try change.insert([entry]) }
                    }
                    for id in outcome.deletes { try change.remove(id: id) }
                }
                (mergedAt, rowsAtMerge) = (vault.counter, vault.rows.count)
            }
            Self.phase("merge (and the vault's write)", since: &started)
            KillPoint.reach("sync-merged")
            var written = tree
            var machines = tree.machines
            // A push when there is something to send, this machine is new to the remote (or renamed), or a
            // tombstone waits for it to say it has seen it.
            let acknowledges = (machines[state.machineID]?.seen ?? 0) < tree.newestTombstone
            if !outcome.push.isEmpty || machines[state.machineID]?.name != state.machineName || tree.sequence == 0 || fetched.rewrite
                || acknowledges {
                machines[state.machineID] = SyncMachine(name: state.machineName, lastSync: now, seen: tree.sequence + 1,
                                                        counter: max(counter, machines[state.machineID]?.counter ?? 0))
                if fetched.rewrite {
                    // This machine changed the master password: every record sealed again under the new key, afresh.
                    var all = tree.records
                    for record in outcome.push { all[record.id] = record }
                    fetched.files.removeAll()
                    let fresh = SyncRepository.Tree(sequence: tree.sequence, collected: tree.collected)
                    written = try repository.write(all.values.sorted { $0.id < $1.id }, over: fresh, header: header, machines: machines, now: now)
                } else {
                    written = try repository.write(outcome.push, over: tree, header: header, machines: machines, now: now)
                }
                // The files the pushed entries hold (after a re-key, every file: the tree was written afresh).
                try SyncFiles.push(fetched.rewrite ? vault.entries : outcome.push.compactMap(\.entry), from: vault, into: fetched.files)
                // One commit, by the machine's random id only, with a message that says nothing.
                synced = try fetched.files.commit(to: Self.localRef, author: "bulwark <\(state.machineID)@bulwark.invalid>", at: now)
                Self.phase("write the repository and commit", since: &started)
                KillPoint.reach("sync-committed")
                try beforePush?()
                // The commit this sync made, by its id: another bulwark syncing the same vault
                // meanwhile may have moved the local branch, never what this one pushes.
                // git maps the pack it sends a gibibyte at a time by default: a
                // large attached file would count whole in its memory; 16 MiB windows bound it.
                let pushed = try git.run(["-c", "core.packedGitWindowSize=16m", "-c", "core.packedGitLimit=64m",
                                          "push", "-q", "origin", "\(synced ?? Self.localRef):refs/heads/\(Self.branch)"], in: paths.repository)
                if pushed.status != 0 {
                    if Self.isRace(pushed.errors), attempt < attempts { continue }
                    throw SyncError.git("the remote refused the push: \(pushed.firstError); check that this machine may write to \(state.remote). Your changes stay here and go out at the next sync")
                }
                Self.phase("push", since: &started)
                KillPoint.reach("sync-pushed")
            }
            if let synced { try git.must(["update-ref", Self.syncedRef, synced], in: paths.repository, "cannot record the sync") }
            KillPoint.reach("sync-recorded")
            state.sequence = written.sequence
            state.counter = counter
            state.vaultCounter = mergedAt
            state.rowsAtMerge = rowsAtMerge
            state.header = SyncHeader.digest(from: fetched.files)
            for (id, known) in outcome.known.sorted(by: { $0.key < $1.key }) { try state.known.set(id, known) }
            // A new commit is listed by git; the fetched one was listed already.
            let trees = synced == fetched.files.commit ? fetched.files.bucketObjects : try Self.bucketTrees(git, paths, at: synced)
            state.buckets = try Self.cleanBuckets(written, trees: trees, before: fetched.rewrite ? [:] : state.buckets,
                                                  known: &state.known)
            state.lastSync = now
            // Conflicts settled meanwhile (in the app) stay settled.
            state.conflicts = outcome.conflicts + (SyncState.conflicts(for: vault) ?? state.conflicts)
            try state.save(for: vault)
            Self.phase("record the sync", since: &started)
            return Report(incoming: outcome.incoming.map { Report.Change(title: $0.title, from: $0.from) }.sorted { $0.title < $1.title },
                          outgoing: outcome.outgoing.sorted(),
                          conflicts: outcome.conflicts, editsKeptOverDeletes: outcome.editsKeptOverDeletes, waiting: outcome.waiting,
                          resealed: fetched.rewrite)
        }
        throw SyncError.git("other machines kept pushing first (\(attempts) tries); sync again in a moment")
    }

    static func byID(_ entries: [Entry]) -> [String: Entry] {
        var local: [String: Entry] = [:]
        for entry in entries { local[entry.id] = entry }
        return local
    }

    static func isRace(_ errors: String) -> Bool {
        errors.contains("[rejected]") || errors.contains("non-fast-forward") || errors.contains("fetch first")
            || errors.contains("cannot lock ref")
    }

    /// The entry as of the last sync, from the repository's history
    /// (sealed under the key of then, which a re-key may have retired).
    private func base(_ id: String, _ sealers: [SyncSealer]) -> Entry? {
        for sealer in sealers {
            let fileID = sealer.fileID(of: id)
            let object = "\(Self.syncedRef):entries/\(SyncRepository.bucket(of: fileID))/\(fileID)"
            guard let run = try? git.run(["cat-file", "blob", object], in: paths.repository), run.status == 0 else { continue }
            return try? sealer.open(Array(run.data), fileID: fileID).entry
        }
        return nil
    }

    /// Follows another machine's change of the master password: the new
    /// one unwraps the key the repository's header now holds, and the vault
    /// here changes to it (a wrong password changes nothing).
    public func followRekey(masterPassword: String) throws {
        try holdingSyncLock { try following(masterPassword: masterPassword) }
    }

    private func following(masterPassword: String) throws {
        let files = try GitSnapshot(git: git, repository: paths.repository, commit: try Self.remoteHead(git, paths))
        guard let header = try SyncHeader.read(from: files) else {
            throw SyncError.notARepository("it holds no \(SyncHeader.fileName)")
        }
        var (_, key) = try header.unwrap(masterPassword: masterPassword)
        defer { key.wipe() }
        try vault.changeMasterPassword(to: masterPassword, parameters: header.kdf, key: key)
    }

}
