import Foundation

/// An edit that met another process's change to the same entry: what the
/// person chooses, never a silent overwrite. Whichever password does not
/// stand goes into the entry's history, so no choice loses one.
public enum ConflictChoice: String, Sendable, CaseIterable {
    case theirs, mine, both
}

extension Vault {
    public static let conflictReason = "changed at the same time in another bulwark"

    /// What settling a conflict did: the entry that now shows the person's
    /// choice (for `both`, the new copy of theirs), and what of the side
    /// that did not stand was kept on it (`LosingSide`), by name.
    public struct Settled: Sendable {
        public let entry: Entry?
        public let kept: [String]
    }

    /// Settles the edit `mine` (based on an older row) against the row as
    /// the file holds it now, in one write. Whichever side does not stand
    /// loses nothing: its password goes into history, its other differing
    /// values into fields named "… (your version)" or "… (their version)".
    @discardableResult
    public func resolveConflict(mine: Entry, choice: ConflictChoice, now: Date = Date()) throws -> Settled {
        let exists = version(of: mine.id) != nil
        var kept: [String] = []
        switch choice {
        case .theirs:
            guard exists else { return Settled(entry: nil, kept: []) }  // deleted there: the person agreed to let it go
            let entry = try update(mine.id) { theirs in
                kept = LosingSide.keep(mine, in: &theirs, label: "your version", reason: "not kept: " + Vault.conflictReason, at: now)
            }
            return Settled(entry: entry, kept: kept)
        case .mine:
            guard exists else {
                try save(mine, basedOn: nil)
                return Settled(entry: mine, kept: [])
            }
            let entry = try update(mine.id) { theirs in
                var standing = mine
                kept = LosingSide.keep(theirs, in: &standing, label: "their version", reason: "replaced: " + Vault.conflictReason, at: now)
                theirs = standing
            }
            return Settled(entry: entry, kept: kept)
        case .both:
            var copy = mine
            copy.id = EntryID.random()
            copy.title = mine.title + " (kept both)"
            copy.created = now
            copy.modified = now
            try save(copy, basedOn: nil)
            return Settled(entry: copy, kept: [])
        }
    }
}
