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
        // A vault this size is analysed behind the first frame: the changes are timed once that is done.
        var opened = try! session.unlock(masterPassword: "bench")
        while opened.analysis != nil { opened = session.analyseNextBatch() }
        let store = Store(state: AppState(width: 200, height: 60, unlocked: true, snapshot: opened, lockLabel: "unlocked"))
        store.send(.key(.char("r")))
        var previous = store.frame()
        var screenPart: [Double] = []
        func shown(_ snapshot: @autoclosure () -> SessionSnapshot) {
            let made = snapshot()
            let start = Measure.now()
            store.send(.vault(.updated(made, banner: nil)))
            defer { screenPart.append(Double(Measure.now() - start) / 1e9) }
            let frame = store.frame()
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
        appMemory(path: path, count: count)
        // The binary people install (`make bench` names the one `make release` links), else the one beside this bench.
        let bulwark = ProcessInfo.processInfo.environment["BULWARK_BENCH_RELEASE_BINARY"]
            ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("bulwark").path
        ReleaseAppBench.run(bulwark: bulwark, vault: path, count: count)
    }

    /// The app's peak memory with the vault open, in a child process so that
    /// the figure is its own: unlock, analysis, the vault and recommendations
    /// screens, a search and an edit.
    static func appMemory(path: URL, count: Int) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = ["--app", path.path]
        let output = Pipe()
        process.standardOutput = output
        guard (try? process.run()) != nil else { return }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        print(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    static func app(_ path: String) {
        let session = AppSession(vaultPath: URL(fileURLWithPath: path), catalog: try! ServiceCatalog.builtIn(), breaches: BreachCorpus(files: []),
                                 backupPolicy: .none)
        // The KDF is the bench's small one (scrypt 2^10, about a millisecond): what is timed is what follows it.
        let start = Measure.now()
        let snapshot = try! session.unlock(masterPassword: "bench")
        let store = Store(state: AppState(width: 200, height: 60, unlocked: true, snapshot: snapshot, lockLabel: "unlocked"))
        _ = store.frame()
        let firstFrame = Double(Measure.now() - start) / 1e9
        var batches = 0
        while store.state.snapshot.analysis != nil {
            store.send(.unlock(.analysed(session.analyseNextBatch())))
            _ = store.frame()
            batches += 1
        }
        let analysed = Double(Measure.now() - start) / 1e9
        print("unlock of \(snapshot.entries.count) entries to the first frame of the vault list, after the KDF: \(Measure.format(firstFrame))  target ≤ 0.5 s")
        print("    the analysis behind it, in \(batches) batches with the recommendations shown after each: done \(Measure.format(analysed)) after the KDF")
        for key in [Key.char("r"), .char("j"), .tab, .char("/"), .char("1"), .char("7"), .escape] {
            store.send(.key(key))
            _ = store.frame()
        }
        var entry = store.state.snapshot.entries[store.state.snapshot.entries.count / 2]
        entry.changePassword(to: "Fresh-Qx9#vT2m-app", reason: "bench")
        store.send(.vault(.updated(try! session.save(entry, basedOn: store.state.snapshot.versions[entry.id]), banner: nil)))
        _ = store.frame()
        let peak = Measure.peakRSSMiB()
        print(String(format: "the app with %d entries open (unlock at the bench's KDF, analysis, both screens, a search, an edit): peak RSS %.1f MiB (%.1f MB)  target ≤ 150 MB",
                     store.state.snapshot.entries.count, peak, peak * 1.048576))
    }
}

