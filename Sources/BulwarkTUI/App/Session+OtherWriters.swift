import BulwarkCore
import Foundation

/// Other processes writing to the same vault: the app looks for their
/// changes on every tick, and settles an edit that met one.
extension AppSession {
    public enum PollResult: Sendable, Equatable {
        case unchanged
        /// Another process changed entries: the new snapshot, and a line
        /// saying what changed.
        case changed(SessionSnapshot, summary: String)
        /// The vault can no longer be read with this key or at all.
        case unreadable(String)
    }

    /// Cheap when nothing changed (SQLite's data version is compared);
    /// otherwise reads only the changed rows and re-analyses only them.
    public func pollExternalChanges() -> PollResult {
        lock.withLock {
            guard let vault else { return .unchanged }
            do {
                guard let changes = try vault.refresh() else { return .unchanged }
                refresh(changes.ids)
                return .changed(makeSnapshot(), summary: Self.describe(changes, in: vault))
            } catch {
                return .unreadable("\(error)")
            }
        }
    }

    /// When the app is idle: the vault's log folded into its file
    /// (`Vault.foldLog`), the backup the next change will want made ahead
    /// (`Vault.prepareBackup`) and the index a password change looks in
    /// made (`Vault.indexUserNames`), so that none falls inside a change.
    public func tidyWhileIdle() {
        lock.withLock {
            try? vault?.foldLog()
            vault?.prepareBackup()
            vault?.indexUserNames()
        }
    }

    /// "Updated from another bulwark: Alpha added; Beta changed; Gamma deleted."
    static func describe(_ changes: VaultChanges, in vault: Vault) -> String {
        var titles: [String: String] = [:]
        let ids = Set(changes.added + changes.changed)
        for entry in vault.entries where ids.contains(entry.id) { titles[entry.id] = entry.title }
        var parts: [String] = []
        var seen = Set<String>()
        for (list, verb) in [(changes.added, "added"), (changes.changed, "changed")] {
            for id in list where seen.insert(id).inserted { parts.append("\(titles[id] ?? "an entry") \(verb)") }
        }
        for removed in changes.removed where seen.insert(removed.id).inserted { parts.append("\(removed.title) deleted") }
        let shown = parts.prefix(3).joined(separator: "; ")
        return "Updated from another bulwark: " + shown + (parts.count > 3 ? "; and \(parts.count - 3) more" : "") + "."
    }

    /// The row as another process left it, when an edit met a conflict.
    public func current(id: String) -> Entry? {
        lock.withLock { vault?.entry(id: id) }
    }

    /// Settles an edit that met another process's change, as the person
    /// chose; returns the new snapshot and what was done.
    public func resolveConflict(mine: Entry, choice: ConflictChoice) throws -> (SessionSnapshot, String) {
        try lock.withLock {
            guard let vault else { throw VaultError.locked }
            let settled = try vault.resolveConflict(mine: mine, choice: choice, now: clock())
            let kept = settled.entry
            refresh(Set([mine.id] + (kept.map { [$0.id] } ?? [])))
            let whose = choice == .theirs ? "your" : "their"
            let saved = settled.kept.isEmpty ? "" : "; " + LosingSide.describe(settled.kept, whose: whose, label: "\(whose) version")
            let text: String
            switch choice {
            case .theirs: text = kept == nil ? "Left \(mine.title) deleted, as the other bulwark did." : "Kept the other version of \(mine.title)\(saved)."
            case .mine: text = "Saved your version of \(mine.title)\(saved)."
            case .both: text = "Kept both: your version is saved as \(kept?.title ?? mine.title)."
            }
            return (makeSnapshot(), text)
        }
    }
}
