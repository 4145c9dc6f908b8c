import Foundation

extension SyncEngine {
    /// Where the vault's sync stands: what would go out and come in now
    /// (the remote fetched and checked, nothing written), the machines the
    /// remote has seen, and the conflicts kept.
    public struct Status: Sendable, Equatable {
        public var remote: String
        public var machineName: String
        public var lastSync: Date?
        public var outgoing: [String]
        /// nil when the remote could not be reached (`offline` says why).
        public var incoming: [Report.Change]?
        public var offline: String?
        public var machines: [SyncMachine]
        public var conflicts: [SyncConflict]
    }

    public func status() throws -> Status {
        guard var state = try SyncState.load(for: vault) else { throw SyncError.notLinked }
        let sealer = SyncSealer(vault: vault)
        var fetched: Fetched?
        var offline: String?
        do {
            if !Self.hasRepository(paths) {
                throw SyncError.git("the repository beside the vault is missing; `bulwark sync` makes it again")
            }
            fetched = try fetchAndCheck(state: &state, header: try vault.syncHeader())
        } catch let error as SyncError {
            if case .git = error { offline = error.description } else { throw error }
        }
        for id in fetched?.collected ?? [] where try state.known.known(id)?.deleted == true { try state.known.set(id, nil) }
        let known = try state.known.all(), table = state.known
        var local: [String: Entry] = [:]
        for entry in vault.entries { local[entry.id] = entry }
        // Without the remote, what it held at the last sync stands in for it.
        let names = (fetched?.tree.machines ?? [:]).mapValues(\.name).merging([state.machineID: state.machineName]) { _, mine in mine }
        let outcome = SyncMerge.merge(SyncMerge.Input(local: local, known: known, remote: fetched?.tree.records ?? [:],
                                                      isUnchanged: { id in fetched.map { $0.isUnchanged(id, bucket: table.bucket(of:)) } ?? (known[id] != nil) },
                                                      base: { _ in nil },
                                                      fileID: sealer.fileID(of:), me: state.machineID,
                                                      counter: max(state.counter, fetched?.tree.machines[state.machineID]?.counter ?? 0) + 1,
                                                      machineNames: names, now: clock()))
        return Status(remote: state.remote, machineName: state.machineName, lastSync: state.lastSync, outgoing: outcome.outgoing,
                      incoming: fetched == nil ? nil : outcome.incoming.map { Report.Change(title: $0.title, from: $0.from) },
                      offline: offline, machines: (fetched?.tree.machines.values).map { Array($0) }?.sorted { $0.name < $1.name } ?? [],
                      conflicts: state.conflicts)
    }
}
