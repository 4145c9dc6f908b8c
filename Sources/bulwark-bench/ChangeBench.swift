import BulwarkCore
import BulwarkTUI
import BulwarkUpgrades
import Foundation

/// A change in the app at 100k entries, from the session call to the frame:
/// hiding and unhiding a recommendation, a new password (joining a reuse
/// group and leaving it), a delete and the entry added back. The vault's
/// own write (sync, row, index, commit) is timed apart, on a second
/// connection doing the same writes, so that the app's part can be read off.
enum ChangeBench {
    static func run(directory: URL, count: Int = 100_000) {
        let path = directory.appendingPathComponent("changes-\(count).db")
        let vault = try! Vault.create(at: path, masterPassword: "bench", parameters: VaultBench.smallKDF)
        vault.backupPolicy = .none
        let entries = AnalysisBench.entries(count).entries
        try! vault.save(entries)
        vault.close()
        let session = AppSession(vaultPath: path, catalog: try! ServiceCatalog.builtIn(), breaches: BreachCorpus(files: []), backupPolicy: .none)
        let store = Store(state: AppState(width: 200, height: 60, unlocked: true, snapshot: try! session.unlock(masterPassword: "bench"),
                                          lockLabel: "unlocked"))
        store.send(.key(.char("r")))
        var previous = AppView.render(store.state)
        var screenPart: [Double] = []
        func shown(_ snapshot: @autoclosure () -> SessionSnapshot) {
            let made = snapshot()
            let start = Measure.now()
            store.send(.updated(made, banner: nil))
            defer { screenPart.append(Double(Measure.now() - start) / 1e9) }
            let frame = AppView.render(store.state)
            _ = frame.changes(since: previous).count
            previous = frame
        }
        let ids = entries.map(\.id)
        var round = 0
        let hide = Measure.repeated(40) {
            let id = ids[(round * 7919) % ids.count]
            round += 1
            shown(try! session.setHidden(id: id, round % 2 == 1))
        }
        Measure.report("hide / unhide, the session to the frame, \(count)", hide)
        let edit = Measure.repeated(40) {
            let id = ids[(round * 7919) % ids.count]
            round += 1
            var entry = store.state.snapshot.entry(id: id)!
            entry.changePassword(to: round % 2 == 0 ? "shared-0-Zq8#pL" : "Fresh-\(round)-Qx9#vT2m", reason: "bench")
            shown(try! session.save(entry, basedOn: store.state.snapshot.versions[id]))
        }
        Measure.report("a new password, the session to the frame, \(count)", edit)
        var removed: [Entry] = []
        let delete = Measure.repeated(20) {
            let id = ids[(round * 7919) % ids.count]
            round += 1
            removed.append(store.state.snapshot.entry(id: id)!)
            shown(try! session.delete(id: id, basedOn: store.state.snapshot.versions[id]))
        }
        Measure.report("a delete, the session to the frame, \(count)", delete)
        let add = Measure.repeated(20) { shown(try! session.save(removed.removeLast(), basedOn: nil)) }
        Measure.report("an entry added, the session to the frame, \(count)", add)
        screenPart.sort()
        Measure.report("of which the screen's part (apply, render, diff)", Measure.Stats(median: screenPart[screenPart.count / 2], p99: screenPart[screenPart.count * 99 / 100], runs: screenPart.count))
        session.lockVault()
        let other = try! Vault.open(at: path, masterPassword: "bench")
        other.backupPolicy = .none
        let write = Measure.repeated(40) {
            let id = ids[(round * 7919) % ids.count]
            round += 1
            try! other.update(id) { $0.hiddenFromRecommendations.toggle() }
        }
        Measure.report("the vault's write alone, \(count)", write)
        other.close()
    }
}
