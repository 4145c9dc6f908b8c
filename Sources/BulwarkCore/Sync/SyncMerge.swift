import Foundation

/// One sync's decision for every entry, from what this machine holds, what
/// it knew at the last sync, and what the remote holds: which side is newer
/// by the version vectors, or, when both changed, a merge field by field.
/// Pure: the sync writes what it decides in one vault transaction.
public struct SyncMerge {
    public struct Input {
        public var local: [String: Entry]
        public var known: [String: SyncState.Known]
        /// The remote's records this machine does not hold at their version (opened)…
        public var remote: [String: SyncRecord]
        /// …and the ids the remote holds exactly as this machine last synced them (not opened).
        public var isUnchanged: (String) -> Bool = { _ in false }
        /// The entry as last synced (the common ancestor of both sides), when the repository still has it.
        public var base: (String) -> Entry?
        /// The repository file of an entry id.
        public var fileID: (String) -> String
        public var me: String
        /// This sync's change number for this machine: above every number it may have used before.
        public var counter: Int64
        /// Whether an entry is, by its row's version, as the last sync left it (nil: compare digests).
        public var untouchedSinceLastSync: ((Entry) -> Bool)? = nil
        /// Machine id → name, for "from laptop".
        public var machineNames: [String: String]
        public var now: Date
    }

    public struct Outcome {
        /// What the vault takes: entries to save and ids to delete.
        public var puts: [Entry] = []
        public var deletes: [String] = []
        /// What the remote takes.
        public var push: [SyncRecord] = []
        public var known: [String: SyncState.Known] = [:]
        /// Changes taken in, and sent out: (title, machine name).
        public var incoming: [(title: String, from: String)] = []
        public var outgoing: [String] = []
        public var conflicts: [SyncConflict] = []
        /// An edit on one side met a delete on the other: the edit was kept.
        public var editsKeptOverDeletes: [String] = []
        /// Entries with an upgrade in flight, left for the next sync.
        public var waiting: [String] = []
    }

    public static func digest(_ entry: Entry) -> String { Digest.sha256(Vault.box(entry)).hex }

    public static func merge(_ input: Input) -> Outcome {
        var out = Outcome()
        let ids = Set(input.local.keys).union(input.known.keys).union(input.remote.keys)
        // Most syncs touch few entries: one that neither side changed needs no decision.
        var changed: [String] = []
        for id in ids {
            if input.isUnchanged(id), let known = input.known[id], let local = input.local[id], !known.deleted,
               local.pendingChange == nil, unchangedLocally(local, known, input) { continue }
            if input.isUnchanged(id), let known = input.known[id], known.deleted, input.local[id] == nil { continue }
            changed.append(id)
        }
        for id in changed.sorted() {
            decide(id, input, &out)
        }
        return out
    }

    private static func decide(_ id: String, _ input: Input, _ out: inout Outcome) {
        let local = input.local[id], known = input.known[id]
        // Unchanged on the remote: its record is the one this machine last synced.
        let remote = input.remote[id] ?? (input.isUnchanged(id) ? known.map {
            SyncRecord(id: id, vector: $0.vector, entry: $0.deleted ? nil : local, changedAt: .distantPast, edited: $0.edited)
        } : nil)
        if let local, local.pendingChange != nil {
            // Never synced half-way: the staged upgrade settles first.
            out.waiting.append(local.title)
            if let known { out.known[id] = known }
            return
        }
        // This machine's side: its vector, bumped when it changed since the last sync.
        var localVector: VersionVector?
        var localEdited: VersionVector?
        var localChangedAt = input.now
        if let local {
            if let known, !known.deleted, unchangedLocally(local, known, input) {
                localVector = known.vector
                localEdited = known.edited
            } else {
                localVector = (known?.vector ?? VersionVector()).setting(input.me, to: input.counter)
            }
            localChangedAt = local.modified
        } else if let known {
            localVector = known.deleted ? known.vector : known.vector.setting(input.me, to: input.counter)
        }
        guard let localVector else {
            if let remote { take(remote, over: nil, input, &out) }
            return
        }
        let mine = SyncRecord(id: id, vector: localVector, entry: local, changedAt: localChangedAt, edited: localEdited)
        guard let remote else {
            send(mine, title: local?.title ?? input.base(id)?.title, input, &out)
            return
        }
        switch localVector.compare(remote.vector) {
        case .same:
            out.known[id] = knownOf(remote, input)
        case .newer:
            send(mine, title: local?.title ?? remote.entry?.title ?? input.base(id)?.title, input, &out)
        case .older:
            take(remote, over: local, input, &out)
        case .concurrent:
            concurrent(mine: mine, theirs: remote, input, &out)
        }
    }

    /// The entry is what this machine last synced: by its row's version when the vault says, else by its digest.
    private static func unchangedLocally(_ local: Entry, _ known: SyncState.Known, _ input: Input) -> Bool {
        input.untouchedSinceLastSync?(local) == true || known.digest == digest(local)
    }

    private static func knownOf(_ record: SyncRecord, _ input: Input) -> SyncState.Known {
        SyncState.Known(vector: record.vector, digest: record.entry.map(digest) ?? "", file: input.known[record.id]?.file ?? input.fileID(record.id),
                        edited: record.edited)
    }

    private static func send(_ record: SyncRecord, title: String?, _ input: Input, _ out: inout Outcome) {
        out.push.append(record)
        out.known[record.id] = knownOf(record, input)
        out.outgoing.append(record.isTombstone ? "\(title ?? "an entry") (deleted)" : title ?? "an entry")
    }

    private static func take(_ record: SyncRecord, over local: Entry?, _ input: Input, _ out: inout Outcome) {
        out.known[record.id] = knownOf(record, input)
        let from = author(of: record.vector, over: input.known[record.id]?.vector, input)
        if let entry = record.entry {
            if entry != local { out.puts.append(entry) }
            out.incoming.append((entry.title, from))
        } else if let local {
            out.deletes.append(local.id)
            out.incoming.append(("\(local.title) (deleted)", from))
        }
    }

    /// The name of a machine whose changes `vector` has and `over` lacks.
    static func author(of vector: VersionVector, over: VersionVector?, _ input: Input) -> String {
        let ahead = vector.counters.filter { $0.value > (over?.counters[$0.key] ?? 0) && $0.key != input.me }.keys.sorted()
        return ahead.first.flatMap { input.machineNames[$0] } ?? "another machine"
    }

    private static func concurrent(mine: SyncRecord, theirs: SyncRecord, _ input: Input, _ out: inout Outcome) {
        let vector = mine.vector.merged(with: theirs.vector).setting(input.me, to: input.counter)
        let from = author(of: theirs.vector, over: input.known[mine.id]?.vector, input)
        // A delete wins over a copy whose content it had seen (a merge elsewhere moved the copy's
        // vector on, not its content); a change it had not seen stands against it, and is said.
        func seen(_ delete: SyncRecord, _ copy: SyncRecord) -> Bool { [.same, .newer].contains(delete.vector.compare(copy.edited)) }
        let joined = mine.vector.merged(with: theirs.vector)
        switch (mine.entry, theirs.entry) {
        case (nil, nil):
            send(SyncRecord(id: mine.id, vector: joined, entry: nil, changedAt: max(mine.changedAt, theirs.changedAt)), title: nil, input, &out)
        case (nil, let edited?):
            guard !seen(mine, theirs) else {
                send(SyncRecord(id: mine.id, vector: joined, entry: nil, changedAt: mine.changedAt), title: edited.title, input, &out)
                return
            }
            out.puts.append(edited)
            out.editsKeptOverDeletes.append("\(edited.title): deleted here and changed on \(from); the change was kept")
            send(SyncRecord(id: mine.id, vector: joined, entry: edited, changedAt: theirs.changedAt, edited: theirs.edited), title: edited.title, input, &out)
        case (let edited?, nil):
            guard !seen(theirs, mine) else {
                take(SyncRecord(id: mine.id, vector: joined, entry: nil, changedAt: theirs.changedAt), over: edited, input, &out)
                out.push.append(SyncRecord(id: mine.id, vector: joined, entry: nil, changedAt: theirs.changedAt))
                return
            }
            out.editsKeptOverDeletes.append("\(edited.title): deleted on \(from) and changed here; the change was kept")
            send(SyncRecord(id: mine.id, vector: joined, entry: edited, changedAt: mine.changedAt, edited: mine.edited), title: edited.title, input, &out)
        case (let local?, let remote?):
            let merged = FieldMerge.merge(base: input.base(mine.id), local: local, remote: remote,
                                          localName: input.machineNames[input.me] ?? "this machine", remoteName: from, now: input.now)
            if merged.entry != local { out.puts.append(merged.entry) }
            if !merged.kept.isEmpty {
                var conflict = SyncConflict(entryID: local.id, title: merged.entry.title, kept: merged.kept, at: input.now)
                conflict.from = from
                conflict.mine = Data(Vault.box(local))
                conflict.theirs = Data(Vault.box(remote))
                conflict.base = input.base(mine.id).map { Data(Vault.box($0)) }
                conflict.merged = digest(merged.entry)
                out.conflicts.append(conflict)
            }
            out.incoming.append((merged.entry.title, from))
            send(SyncRecord(id: mine.id, vector: vector, entry: merged.entry, changedAt: max(mine.changedAt, theirs.changedAt)),
                 title: merged.entry.title, input, &out)
        }
    }
}
