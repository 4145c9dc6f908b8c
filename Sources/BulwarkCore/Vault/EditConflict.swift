import Foundation

/// An edit that met another process's change to the same entry: what the
/// person chooses, never a silent overwrite. Whichever password does not
/// stand goes into the entry's history, so no choice loses one.
public enum ConflictChoice: String, Sendable, CaseIterable {
    case theirs, mine, both
}

extension Vault {
    public static let conflictReason = "changed at the same time in another bulwark"

    /// Settles the edit `mine` (based on an older row) against the row as
    /// the file holds it now, in one write; returns the entry that now
    /// shows the person's choice (for `both`, the new copy of theirs).
    @discardableResult
    public func resolveConflict(mine: Entry, choice: ConflictChoice, now: Date = Date()) throws -> Entry? {
        let exists = version(of: mine.id) != nil
        switch choice {
        case .theirs:
            guard exists else { return nil }  // deleted there: the person agreed to let it go
            return try update(mine.id) { theirs in
                Vault.keep(mine.password, inHistoryOf: &theirs, reason: "not kept: " + Vault.conflictReason, at: now)
                Vault.keep(mine.history, inHistoryOf: &theirs)
            }
        case .mine:
            guard exists else {
                try save(mine, basedOn: nil)
                return mine
            }
            return try update(mine.id) { theirs in
                var kept = mine
                Vault.keep(theirs.history, inHistoryOf: &kept)
                if theirs.password != mine.password {
                    Vault.keep(theirs.password, inHistoryOf: &kept, reason: "replaced: " + Vault.conflictReason, at: now)
                }
                theirs = kept
            }
        case .both:
            var copy = mine
            copy.id = EntryID.random()
            copy.title = mine.title + " (kept both)"
            copy.created = now
            copy.modified = now
            try save(copy, basedOn: nil)
            return copy
        }
    }

    private static func keep(_ password: String?, inHistoryOf entry: inout Entry, reason: String, at date: Date) {
        guard let password, password != entry.password, !entry.history.contains(where: { $0.password == password }) else { return }
        entry.history.insert(PasswordHistoryItem(password: password, changedAt: date, reason: reason), at: 0)
    }

    /// Adds the old passwords `entry` lacks, newest first.
    private static func keep(_ items: [PasswordHistoryItem], inHistoryOf entry: inout Entry) {
        let known = Set(entry.history.map(\.password) + [entry.password].compactMap { $0 })
        let missing = items.filter { !known.contains($0.password) }
        guard !missing.isEmpty else { return }
        entry.history = (entry.history + missing).sorted { $0.changedAt > $1.changedAt }
    }
}
