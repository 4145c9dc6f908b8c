import Foundation

/// What to do with an incoming login for a site and user name the vault
/// already holds.
public enum ImportMatchChoice: String, Sendable, CaseIterable {
    /// One entry: the newer side's values stand; every differing value of
    /// the older side is kept on it (the password in history) and named.
    case merge
    /// Both entries, side by side.
    case keepBoth = "keep-both"
}

public enum ImportMerge {
    /// The two as one entry, keeping the existing entry's id: the side
    /// modified more recently gives the title, user name, password, notes,
    /// code generator and the values of fields both have. An incoming item
    /// whose file gave it no dates (most CSV rows) is never the newer: the
    /// vault's version stands. Nothing of the other side is lost: its
    /// password goes to history, and its differing title, notes, code and
    /// field values become fields named for where they came from
    /// (`LosingSide`); URLs, tags, fields, passkeys and history are joined.
    /// `kept` names what was kept of the older side, for the summary.
    public static func merged(_ existing: Entry, with incoming: Entry, incomingIsDated: Bool = true,
                              now: Date = Date()) -> (entry: Entry, kept: [String]) {
        let incomingIsNewer = incomingStands(existing, incoming, incomingIsDated: incomingIsDated)
        let (newer, older) = incomingIsNewer ? (incoming, existing) : (existing, incoming)
        // The vault's entry carries what only bulwark knows (its category,
        // hidden state, Sign in with Apple link, pending change): start there.
        var result = existing
        if incomingIsNewer {
            result.title = incoming.title
            result.username = incoming.username
            if let password = incoming.password { result.password = password }
            result.urls = incoming.urls
            result.fields = incoming.fields
            result.passkeys = incoming.passkeys
            result.history = incoming.history
        }
        // A note or code only one side has is not a difference: it is taken.
        if !newer.notes.isEmpty { result.notes = newer.notes } else if result.notes.isEmpty { result.notes = older.notes }
        if let code = newer.totpURI { result.totpURI = code } else if result.totpURI == nil { result.totpURI = older.totpURI }
        if result.password == nil { result.password = older.password }
        let label = keptLabel(incomingStands: incomingIsNewer)
        let kept = LosingSide.keep(older, in: &result, label: label, reason: "merged on import", at: older.passwordChanged)
        // Tags in the vault's order first, as before.
        var tags = existing.tags
        for tag in incoming.tags where !tags.contains(tag) { tags.append(tag) }
        result.tags = tags
        result.created = min(existing.created, incoming.created)
        result.passwordChanged = newer.password == older.password ? min(newer.passwordChanged, older.passwordChanged) : newer.passwordChanged
        result.modified = max(now, existing.modified)
        return (result, kept)
    }

    /// Whether the incoming item's values stand: only a dated one modified later.
    public static func incomingStands(_ existing: Entry, _ incoming: Entry, incomingIsDated: Bool) -> Bool {
        incomingIsDated && incoming.modified > existing.modified
    }

    /// How the fields holding the other side's values are marked.
    public static func keptLabel(incomingStands: Bool) -> String { incomingStands ? "before the import" : "from the import" }
}
