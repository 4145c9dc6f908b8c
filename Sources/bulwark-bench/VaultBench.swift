import BulwarkCore
import Foundation

/// Vault figures: the KDF at the product's parameters, then opening vaults
/// of 1k, 10k and 100k entries (decrypt and load, KDF excluded), each in a
/// child process so that its peak memory is its own.
enum VaultBench {
    static func entries(_ count: Int) -> [Entry] {
        (0..<count).map { (i: Int) -> Entry in
            let password: String = "pw-\(i)-\((i &* 7919) % 100_000)"
            let notes: String = i % 10 == 0 ? "A note for account \(i)." : ""
            let tags: [String] = i % 3 == 0 ? ["work"] : []
            let created = Date(timeIntervalSince1970: 1_600_000_000 + Double(i))
            return Entry(title: "Account \(i)", urls: ["https://site\(i % 5000).example/login"], username: "user\(i)@mail.example",
                         password: password, notes: notes, tags: tags, created: created)
        }
    }

    static let smallKDF = ScryptParameters(logN: 10)

    static func run() {
        let start = Measure.now()
        _ = try! Scrypt.derive(password: Array("benchmark".utf8), salt: SecureRandom.bytes(16), parameters: .standard)
        let kdf = Double(Measure.now() - start) / 1e9
        print("scrypt N=2^17 r=8 p=1 (unlock KDF)".padding(toLength: 46, withPad: " ", startingAt: 0) + " " + Measure.format(kdf))

        // BULWARK_BENCH_KEEP=DIR keeps the generated vaults there (for profiling).
        let keep = ProcessInfo.processInfo.environment["BULWARK_BENCH_KEEP"]
        let directory = keep.map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("bulwark-bench-\(getpid())")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { if keep == nil { try? FileManager.default.removeItem(at: directory) } }
        let sizes = (ProcessInfo.processInfo.environment["BULWARK_BENCH_SIZES"] ?? "1000,10000,100000").split(separator: ",").compactMap { Int($0) }
        for count in sizes {
            try? FileManager.default.removeItem(at: directory.appendingPathComponent("vault-\(count).db"))
            let path = directory.appendingPathComponent("vault-\(count).db")
            let writeStart = Measure.now()
            let vault = try! Vault.create(at: path, masterPassword: "bench", parameters: smallKDF)
            try! vault.save(entries(count))
            vault.close()
            let write = Double(Measure.now() - writeStart) / 1e9
            let child = Process()
            child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
            child.arguments = ["--load", path.path]
            let pipe = Pipe()
            child.standardOutput = pipe
            try! child.run()
            let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            child.waitUntilExit()
            print("vault \(count) entries: write \(Measure.format(write)); \(output.trimmingCharacters(in: .whitespacesAndNewlines))")
        }
    }

    /// In the child: open (small KDF, timed apart), load, report.
    static func load(_ path: String) {
        let kdfStart = Measure.now()
        _ = try! Scrypt.derive(password: Array("bench".utf8), salt: [UInt8](repeating: 1, count: 16), parameters: smallKDF)
        let kdf = Double(Measure.now() - kdfStart) / 1e9
        let start = Measure.now()
        let vault = try! Vault.open(at: URL(fileURLWithPath: path), masterPassword: "bench")
        let total = Double(Measure.now() - start) / 1e9
        let loaded = vault.entries.count
        print("open+decrypt+load \(loaded) in \(Measure.format(max(0, total - kdf))) after the KDF; peak RSS \(String(format: "%.1f", Measure.peakRSSMiB())) MiB")
    }
}
