import BulwarkCore
import BulwarkTUI
import BulwarkUpgrades
import Foundation

/// Many writers: what a backup, a re-keying `passwd` and one write cost,
/// and how long the app takes to take in another process's change at 100k
/// entries (its look each tick when nothing changed, and a reload).
enum WritersBench {
    static func run(directory: URL) {
        let sizes = (ProcessInfo.processInfo.environment["BULWARK_BENCH_SIZES"] ?? "10000,100000").split(separator: ",").compactMap { Int($0) }
        for count in sizes {
            let path = directory.appendingPathComponent("writers-\(count).db")
            let vault = try! Vault.create(at: path, masterPassword: "bench", parameters: VaultBench.smallKDF)
            vault.backupPolicy = .none
            try! vault.save(VaultBench.entries(count))
            var added = 0
            let write = Measure.repeated(20) {
                try! vault.save(Entry(title: "Added \(added)", password: "pw"))
                added += 1
            }
            Measure.report("one write (sync, row, index) at \(count)", write)
            let backup = Measure.repeated(5) { _ = try! vault.takeBackup() }
            let size = vault.backups.list().first?.size ?? 0
            Measure.report("backup of \(count) entries (\(size / 1_048_576) MiB)", backup)
            // The KDF at its small bench setting is timed apart and taken off: what is left is the re-keying.
            let kdf = Measure.repeated(5) { _ = try! Scrypt.derive(password: [1], salt: [UInt8](repeating: 0, count: 16), parameters: VaultBench.smallKDF) }
            let passwd = Measure.repeated(3) { try! vault.changeMasterPassword(to: "bench") }
            print("passwd at \(count) entries: re-keying \(Measure.format(passwd.median - kdf.median)) beside the KDF (median of 3; scrypt 2^17 adds \(Measure.format(standardKDF)))")
            if count >= 100_000 { appReload(path: path) }
            vault.close()
        }
    }

    static let standardKDF: Double = {
        let start = Measure.now()
        _ = try! Scrypt.derive(password: [1], salt: [UInt8](repeating: 0, count: 16), parameters: .standard)
        return Double(Measure.now() - start) / 1e9
    }()

    /// The app's session on the vault, and another process's writes to it.
    static func appReload(path: URL) {
        let session = AppSession(vaultPath: path, catalog: try! ServiceCatalog.builtIn(), breaches: BreachCorpus(files: []), backupPolicy: .none)
        var opened = try! session.unlock(masterPassword: "bench")
        while opened.analysis != nil { opened = session.analyseNextBatch() }  // analysed behind the first frame, as the app does
        let other = try! Vault.open(at: path, masterPassword: "bench")
        other.backupPolicy = .none
        let reader = try! Vault.open(at: path, masterPassword: "bench")
        let idle = Measure.repeated(200) { _ = session.pollExternalChanges() }
        Measure.report("app tick, nothing changed elsewhere (\(other.entries.count))", idle)
        var round = 0
        var samples: [Double] = [], vaultSamples: [Double] = []
        for _ in 0..<10 {
            try! other.update(other.entries[round * 97].id) { $0.changePassword(to: "changed-\(round)", reason: "bench") }
            try! other.save(Entry(title: "From elsewhere \(round)", password: "pw-\(round)"))
            round += 1
            var start = Measure.now()
            guard try! reader.refresh() != nil else { fatalError("the change was not seen") }
            vaultSamples.append(Double(Measure.now() - start) / 1e9)
            start = Measure.now()
            guard case .changed = session.pollExternalChanges() else { fatalError("the change was not seen") }
            samples.append(Double(Measure.now() - start) / 1e9)
        }
        samples.sort()
        vaultSamples.sort()
        Measure.report("vault refresh, 2 entries changed at \(other.entries.count)", Measure.Stats(median: vaultSamples[5], p99: vaultSamples[9], runs: 10))
        Measure.report("app reload of 2 changed entries at \(other.entries.count)", Measure.Stats(median: samples[5], p99: samples[9], runs: 10))
        other.close()
    }
}
