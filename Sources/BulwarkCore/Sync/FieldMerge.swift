import Foundation

/// Two machines changed one entry without seeing each other's change: a
/// field changed on one side only takes that side's value; a field both
/// changed takes the later change's value (by each entry's own
/// modification time), and the other value is kept on the entry as
/// `LosingSide` keeps it (a password in history, any other text in a
/// field marked with the machine's name, lists joined). Old passwords are
/// the union of both histories. Deterministic, so two machines merging the
/// same pair reach the same entry.
enum FieldMerge {
    struct Result {
        var entry: Entry
        /// What was kept of the earlier change, as a person reads it; empty when nothing conflicted.
        var kept: String
    }

    /// `localWins`: the person's choice of side for the fields both changed; else the later change.
    static func merge(base: Entry?, local: Entry, remote: Entry, localName: String, remoteName: String, now: Date,
                      localWins chosen: Bool? = nil) -> Result {
        // The later change wins a field both changed; a tie goes to the greater digest, the same on every machine.
        let localWins = chosen ?? (local.modified != remote.modified ? local.modified > remote.modified
                                                                     : SyncMerge.digest(local) > SyncMerge.digest(remote))
        let winner = localWins ? local : remote, loser = localWins ? remote : local
        var merged = winner
        var loserView = winner
        var conflicting = false

        func field<T: Equatable>(_ path: WritableKeyPath<Entry, T>) {
            let mine = winner[keyPath: path], theirs = loser[keyPath: path]
            guard mine != theirs else { return }
            if let base, base[keyPath: path] == mine {
                merged[keyPath: path] = theirs       // only the losing side changed it
                loserView[keyPath: path] = theirs
            } else if let base, base[keyPath: path] == theirs {
                return                               // only the winning side changed it
            } else {
                loserView[keyPath: path] = theirs    // both changed it: kept below
                conflicting = true
            }
        }
        field(\.title)
        field(\.username)
        field(\.password)
        field(\.urls)
        field(\.notes)
        field(\.totpURI)
        field(\.tags)
        field(\.fields)
        field(\.passkeys)
        field(\.category)
        field(\.categoryIsManual)
        field(\.hiddenFromRecommendations)
        field(\.hiddenUntil)
        field(\.expires)
        field(\.signInWithApple)
        field(\.kind)
        field(\.passwordChanged)

        // Old passwords: every one either side has.
        // One item per old password (both sides keep the one they replaced, each with its own time).
        var history = winner.history
        for item in loser.history where !history.contains(where: { $0.password == item.password }) { history.append(item) }
        merged.history = history.sorted { $0.changedAt != $1.changedAt ? $0.changedAt > $1.changedAt : $0.password < $1.password }
        loserView.history = merged.history
        // Earlier versions: every one either side has, oldest first.
        merged.snapshots = (winner.snapshots + loser.snapshots.filter { !winner.snapshots.contains($0) }).sorted { $0.at < $1.at }
        loserView.snapshots = merged.snapshots
        merged.attachments = attachments(base: base?.attachments, winner.attachments, loser.attachments)
        loserView.attachments = merged.attachments
        loserView.modified = merged.modified

        var kept = ""
        if conflicting {
            let label = "from \(localWins ? remoteName : localName)"
            let names = LosingSide.keep(loserView, in: &merged, label: label, reason: "changed on two machines at once", at: now)
            if !names.isEmpty {
                kept = "the change made on \(localWins ? localName : remoteName) was kept; "
                    + LosingSide.describe(names, whose: "\(localWins ? remoteName : localName)'s", label: label)
            }
        }
        merged.modified = max(local.modified, remote.modified)
        return Result(entry: merged, kept: kept)
    }

    /// Files: each one either side added, less each one either side took
    /// away (as the base had it); without a base, every file either has.
    /// Two files of one name: the later change's keeps it, the other's is
    /// named "NAME (2)". Nothing attached on either machine is lost.
    static func attachments(base: [Attachment]?, _ winner: [Attachment], _ loser: [Attachment]) -> [Attachment] {
        func same(_ a: Attachment, _ b: Attachment) -> Bool { a.blob == b.blob && a.name == b.name }
        func had(_ a: Attachment) -> Bool { base?.contains { same($0, a) } ?? false }
        var result = winner.filter { file in !had(file) || loser.contains { same($0, file) } }
        for file in loser where !result.contains(where: { same($0, file) }) && !had(file) {
            var added = file
            var number = 2
            while result.contains(where: { $0.name == added.name }) {
                added.name = "\(file.name) (\(number))"
                number += 1
            }
            result.append(added)
        }
        return result
    }
}
