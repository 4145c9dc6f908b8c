import BulwarkCore
import Foundation

/// Runs `keepassxc-cli analyze --hibp` on the same entries and corpus as
/// bulwark's breach check, and reports the ratio. The entries go in through
/// `keepassxc-cli import` of a KeePass 2 XML file, with a key file and no
/// password so nothing prompts.
enum KeePassXCComparison {
    static let cli = "/usr/bin/keepassxc-cli"

    static func run(samples: [(Int, [Entry])], corpusPath: String, directory: URL, corpus: BreachCorpus) {
        guard FileManager.default.isExecutableFile(atPath: cli) else {
            print("keepassxc-cli: not installed (apt-get install keepassxc); comparison skipped")
            return
        }
        let key = directory.appendingPathComponent("kpx.key")
        try! Data((0..<64).map { _ in UInt8.random(in: 0...255) }).write(to: key)
        for (count, entries) in samples where count <= 10_000 {
            let xml = directory.appendingPathComponent("kpx-\(count).xml")
            let database = directory.appendingPathComponent("kpx-\(count).kdbx")
            try? FileManager.default.removeItem(at: database)
            try! Data(keepassXML(entries).utf8).write(to: xml)
            guard run([cli, "import", "-q", "--set-key-file", key.path, xml.path, database.path]) != nil else {
                print("keepassxc-cli import failed; comparison skipped")
                return
            }
            let start = Measure.now()
            guard let output = run([cli, "analyze", "-q", "--no-password", "-k", key.path, "--hibp", corpusPath, database.path]) else {
                print("keepassxc-cli analyze failed; comparison skipped")
                return
            }
            let theirs = AnalysisBench.seconds(since: start)
            let flagged = output.split(separator: "\n").count { $0.contains("been seen") || $0.contains("pwned") || $0.contains("Password for") }
            // bulwark's method: the SHA-1 of each password, then a binary search of each sorted
            // corpus file, memory-mapped (no index built, nothing loaded), on both cores; one line
            // of the built-in common-password list as well.
            let serialStart = Measure.now()
            var serial = 0
            for entry in entries where try! corpus.lookup(password: entry.password!) != nil { serial += 1 }
            let oneCore = AnalysisBench.seconds(since: serialStart)
            let ourStart = Measure.now()
            let ours = try! corpus.lookup(passwords: entries.map { $0.password! }).count { $0 != nil }
            let mine = AnalysisBench.seconds(since: ourStart)
            print("breach check, \(count) entries: keepassxc-cli \(Measure.format(theirs)) (\(flagged) flagged),"
                  + " bulwark \(Measure.format(mine)) on both cores (\(ours) found; one core \(Measure.format(oneCore)), \(serial) found):"
                  + " \(Int(theirs / mine))x faster  target ≥ 200x")
            endToEnd(count, entries, database: database, key: key, theirAnalyze: theirs, corpusPath: corpusPath, directory: directory)
        }
    }

    /// `analyze` as a person runs it, net of each tool's unlock: bulwark's
    /// release binary on a vault of the same entries (its key derivation,
    /// as `--timings` reports it, taken off its wall time), beside
    /// keepassxc-cli's `analyze --hibp` less its `db-info` on the same
    /// database (which starts, unlocks and prints a few lines; the fastest of three).
    static func endToEnd(_ count: Int, _ entries: [Entry], database: URL, key: URL, theirAnalyze: Double, corpusPath: String, directory: URL) {
        let bulwark = ProcessInfo.processInfo.environment["BULWARK_BENCH_RELEASE_BINARY"]
            ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("bulwark").path
        guard FileManager.default.isExecutableFile(atPath: bulwark) else {
            print("analyze end to end: no binary at \(bulwark); skipped")
            return
        }
        var theirUnlock = Double.infinity
        for _ in 0..<3 {
            let start = Measure.now()
            guard run([cli, "db-info", "-q", "--no-password", "-k", key.path, database.path]) != nil else {
                print("keepassxc-cli db-info failed; analyze end to end skipped")
                return
            }
            theirUnlock = min(theirUnlock, AnalysisBench.seconds(since: start))
        }
        let path = directory.appendingPathComponent("analyze-\(count).db")
        try? FileManager.default.removeItem(at: path)
        let vault = try! Vault.create(at: path, masterPassword: "bench", parameters: VaultBench.smallKDF)
        vault.backupPolicy = .none
        try! vault.save(entries)
        vault.close()
        var runs: [(wall: Double, unlock: Double, phases: String)] = []
        for _ in 0..<3 {
            let start = Measure.now()
            guard let (status, errors) = runWithInput([bulwark, "--vault", path.path, "--password-stdin", "analyze", "--breach-corpus", corpusPath, "--timings"],
                                                      input: "bench\n", environment: TerminalLatencyBench.environment(directory)),
                  [0, 10, 11, 12].contains(status), let derivation = errors.split(separator: "\n").first(where: { $0.hasPrefix("key derivation\t") })
                    .flatMap({ Double($0.split(separator: "\t")[1]) }) else {
                print("bulwark analyze failed; analyze end to end skipped")
                return
            }
            runs.append((AnalysisBench.seconds(since: start), derivation,
                         errors.split(separator: "\n").filter { $0.contains("\t") }.map { $0.replacingOccurrences(of: "\t", with: " ") }.joined(separator: ", ")))
        }
        let best = runs.min { $0.wall - $0.unlock < $1.wall - $1.unlock }!
        let ours = best.wall - best.unlock, theirs = theirAnalyze - theirUnlock
        print("analyze end to end, \(count) entries, net of each tool's unlock: keepassxc-cli \(Measure.format(theirs))"
              + " (analyze \(Measure.format(theirAnalyze)) less db-info \(Measure.format(theirUnlock))),"
              + " bulwark \(Measure.format(ours)) (\(Measure.format(best.wall)) less key derivation \(Measure.format(best.unlock)); best of three):"
              + " \(Int(theirs / ours))x faster  target ≥ 50x")
        print("    bulwark's phases (--timings, seconds): \(best.phases)")
    }

    /// Runs a command with `input` on its standard input; its exit status and standard error.
    static func runWithInput(_ arguments: [String], input: String, environment: [String: String]) -> (Int32, String)? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        process.environment = environment
        let stdin = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = FileHandle.nullDevice
        process.standardError = stderr
        guard (try? process.run()) != nil else { return nil }
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try? stdin.fileHandleForWriting.close()
        let errors = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: errors, as: UTF8.self))
    }

    /// Runs a command; its standard output, or nil when it fails.
    static func run(_ arguments: [String]) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return process.terminationStatus == 0 ? String(decoding: data, as: UTF8.self) : nil
    }

    static func keepassXML(_ entries: [Entry]) -> String {
        func escape(_ s: String) -> String {
            s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
        }
        func uuid() -> String { Data((0..<16).map { _ in UInt8.random(in: 0...255) }).base64EncodedString() }
        func field(_ key: String, _ value: String) -> String { "<String><Key>\(key)</Key><Value>\(escape(value))</Value></String>" }
        var xml = "<?xml version=\"1.0\" encoding=\"utf-8\" standalone=\"yes\"?>\n<KeePassFile><Meta><Generator>bulwark-bench</Generator></Meta><Root>"
        xml += "<Group><UUID>\(uuid())</UUID><Name>Root</Name>\n"
        for e in entries {
            xml += "<Entry><UUID>\(uuid())</UUID>" + field("Title", e.title) + field("UserName", e.username)
                + field("Password", e.password ?? "") + field("URL", e.urls.first ?? "") + "</Entry>\n"
        }
        return xml + "</Group></Root></KeePassFile>\n"
    }
}
