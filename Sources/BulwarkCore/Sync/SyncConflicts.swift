import Foundation

/// The same-field conflicts a sync kept, until the person looks at them:
/// keep both (the merge as it stands), or let this machine's side or the
/// other's stand for the fields both changed (the values not kept stay on
/// the entry, as the merge keeps them).
public enum SyncConflicts {
    /// The conflicts the vault's sync state holds, oldest first.
    public static func pending(in vault: Vault) throws -> [SyncConflict] {
        (try SyncState.load(for: vault)?.conflicts ?? []).reversed()
    }

    /// Settles one; returns what was done, in a sentence. A choice of side
    /// is a local change the next sync sends out. An entry changed again
    /// since the merge is left as it is now.
    @discardableResult
    public static func settle(_ entryID: String, choice: ConflictChoice, vault: Vault, now: Date = Date()) throws -> String {
        guard var state = try SyncState.load(for: vault), let index = state.conflicts.firstIndex(where: { $0.entryID == entryID }) else {
            return "That conflict was already settled."
        }
        let conflict = state.conflicts[index]
        var text = "Kept both versions of \(conflict.title), as merged."
        if choice != .both, let versions = conflict.versions, let current = vault.entry(id: entryID) {
            if SyncMerge.digest(current) != conflict.merged {
                text = "\(conflict.title) changed again since the merge; it stays as it is now."
            } else {
                let base = conflict.base.flatMap { SyncConflict.entry($0, id: entryID) }
                var settled = FieldMerge.merge(base: base, local: versions.mine, remote: versions.theirs, localName: "this machine",
                                               remoteName: conflict.from, now: now, localWins: choice == .mine).entry
                settled.modified = now
                _ = try vault.update(entryID) { $0 = settled }
                text = choice == .mine ? "This machine's version of \(conflict.title) stands; \(conflict.from)'s values are kept on it."
                                       : "\(conflict.from)'s version of \(conflict.title) stands; this machine's values are kept on it."
            }
        }
        state.conflicts.remove(at: index)
        try state.save(for: vault)
        return text
    }
}
