import Foundation

/// The entries one sync must decide, told without a walk of every entry:
/// the rows written here since the last merge (their version is above the
/// vault's counter then), the ones with an upgrade in flight, and the ones
/// the remote changed. A one-change sync of 100,000 entries decides one.
///
/// A deletion here leaves no row to see, so it is told by counting: every
/// row of the last merge that is still here is either untouched since
/// (version at most the counter then) or rewritten since and known to the
/// last sync as alive. So when the rows then equal the rows now less the
/// rewritten ones that sync did not know alive, none has gone. Any other
/// count (a deletion, or a new entry the last sync left waiting) and a
/// vault that went back (a restore) walk every entry, as does a remote
/// this machine must rewrite.
struct SyncScope {
    var local: [String: Entry]
    var known: [String: SyncState.Known]

    static func changed(in vault: Vault, since lastMerge: Int64, rowsThen: Int?, known: inout KnownTable,
                        remote: some Sequence<String>, rewrite: Bool) throws -> SyncScope? {
        guard lastMerge > 0, vault.counter >= lastMerge, let rowsThen, !rewrite else { return nil }
        var local: [String: Entry] = [:]
        var rewritten: [String] = []
        vault.rows.forEachElement { row in
            let written = row.version == 0 || row.version > lastMerge
            if written { rewritten.append(row.entry.id) }
            if written || row.entry.pendingChange != nil { local[row.entry.id] = row.entry }
        }
        var unknownThen = 0
        for id in rewritten where try known.known(id).map({ $0.deleted }) ?? true { unknownThen += 1 }
        guard rowsThen == vault.rows.count - unknownThen else { return nil }
        // What the remote changed, as this machine holds it (unchanged here, or changed too).
        for id in remote where local[id] == nil {
            if let entry = vault.entry(id: id) { local[id] = entry }
        }
        let ids = Set(local.keys).union(remote)
        return SyncScope(local: local, known: try known.subset(ids))
    }
}
