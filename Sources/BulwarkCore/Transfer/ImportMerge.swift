import Foundation

/// What to do with an incoming login for a site and user name the vault
/// already holds.
public enum ImportMatchChoice: String, Sendable, CaseIterable {
    /// One entry: the newer side's fields win, the older password goes to history.
    case merge
    /// Both entries, side by side.
    case keepBoth = "keep-both"
}

public enum ImportMerge {
    /// The two as one entry, keeping the existing entry's id: the side
    /// modified more recently gives the title, password, notes, TOTP and
    /// the values of fields both have; URLs, tags, fields and history are
    /// the union; the other side's password, if different, goes to history.
    public static func merged(_ existing: Entry, with incoming: Entry, now: Date = Date()) -> Entry {
        let incomingIsNewer = incoming.modified > existing.modified
        let (newer, older) = incomingIsNewer ? (incoming, existing) : (existing, incoming)
        var result = existing
        result.title = newer.title
        result.username = newer.username
        result.password = newer.password ?? older.password
        result.notes = newer.notes.isEmpty ? older.notes : newer.notes
        result.totpURI = newer.totpURI ?? older.totpURI
        result.urls = newer.urls + older.urls.filter { !newer.urls.contains($0) }
        result.tags = existing.tags + incoming.tags.filter { !existing.tags.contains($0) }
        var fields = newer.fields
        for field in older.fields where !fields.contains(where: { $0.name == field.name }) { fields.append(field) }
        result.fields = fields
        // Passkeys are credentials, never "newer wins": both sides' are kept.
        result.passkeys = newer.passkeys + older.passkeys.filter { key in !newer.passkeys.contains { $0.credentialID == key.credentialID } }
        var history = newer.history
        for item in older.history where !history.contains(where: { $0.password == item.password }) { history.append(item) }
        if let old = older.password, !old.isEmpty, old != result.password, !history.contains(where: { $0.password == old }) {
            history.append(PasswordHistoryItem(password: old, changedAt: older.passwordChanged, reason: "merged on import"))
        }
        result.history = history.sorted { $0.changedAt > $1.changedAt }
        result.created = min(existing.created, incoming.created)
        result.passwordChanged = newer.password == older.password ? min(newer.passwordChanged, older.passwordChanged) : newer.passwordChanged
        result.modified = max(now, existing.modified)
        return result
    }
}
