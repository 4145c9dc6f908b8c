import BulwarkCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

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
            endToEnd(count, entries, database: database, key: key, corpusPath: corpusPath, directory: directory)
        }
    }

    /// `analyze` as a person runs it, net of each tool's unlock, each
    /// measured the same way: the wall time of the tool's `analyze` less
    /// that of its `show` of one entry (which starts, unlocks the database,
    /// decrypting it whole, and prints a few lines), each the fastest of
    /// five, started with posix_spawn: keepassxc-cli's `analyze --hibp` and
    /// `show`, bulwark's release binary's `analyze --breach-corpus` and
    /// `show` on a vault of the same entries.
    static func endToEnd(_ count: Int, _ entries: [Entry], database: URL, key: URL, corpusPath: String, directory: URL) {
        let bulwark = ProcessInfo.processInfo.environment["BULWARK_BENCH_RELEASE_BINARY"]
            ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("bulwark").path
        guard FileManager.default.isExecutableFile(atPath: bulwark), let title = entries.first?.title else {
            print("analyze end to end: no binary at \(bulwark); skipped")
            return
        }
        let path = directory.appendingPathComponent("analyze-\(count).db")
        try? FileManager.default.removeItem(at: path)
        let vault = try! Vault.create(at: path, masterPassword: "bench", parameters: VaultBench.smallKDF)
        vault.backupPolicy = .none
        try! vault.save(entries)
        vault.close()
        let input = directory.appendingPathComponent("password"), errors = directory.appendingPathComponent("errors")
        try! Data("bench\n".utf8).write(to: input)
        let environment = TerminalLatencyBench.environment(directory)
        /// The fastest of five runs that end with one of `statuses`; nil when one does not.
        func fastest(_ arguments: [String], _ statuses: Set<Int32>, environment: [String: String]) -> Double? {
            var best = Double.infinity
            for _ in 0..<5 {
                guard let (status, seconds) = timed(arguments, input: input, errors: errors, environment: environment), statuses.contains(status) else { return nil }
                best = min(best, seconds)
            }
            return best
        }
        let inherited = ProcessInfo.processInfo.environment
        let ours = [bulwark, "--vault", path.path, "--password-stdin"]
        guard let theirAnalyze = fastest([cli, "analyze", "-q", "--no-password", "-k", key.path, "--hibp", corpusPath, database.path], [0, 1], environment: inherited),
              let theirUnlock = fastest([cli, "show", "-q", "--no-password", "-k", key.path, database.path, title], [0], environment: inherited),
              let ourUnlock = fastest(ours + ["show", title], [0], environment: environment),
              let ourAnalyze = fastest(ours + ["analyze", "--breach-corpus", corpusPath, "--timings"], [0, 10, 11, 12], environment: environment) else {
            print("analyze end to end: a command failed; skipped")
            return
        }
        let phases = ((try? String(contentsOf: errors, encoding: .utf8)) ?? "").split(separator: "\n").filter { $0.contains("\t") }
            .map { $0.replacingOccurrences(of: "\t", with: " ") }.joined(separator: ", ")
        let theirs = theirAnalyze - theirUnlock, mine = ourAnalyze - ourUnlock
        print("analyze end to end, \(count) entries, net of each tool's unlock (its show of one entry; fastest of five): keepassxc-cli \(Measure.format(theirs))"
              + " (analyze \(Measure.format(theirAnalyze)) less show \(Measure.format(theirUnlock))),"
              + " bulwark \(Measure.format(mine)) (analyze \(Measure.format(ourAnalyze)) less show \(Measure.format(ourUnlock))):"
              + " \(Int(theirs / mine))x faster  target ≥ 50x;"
              + " whole commands \(Int(theirAnalyze / ourAnalyze))x")
        print("    bulwark's analyze phases (--timings, seconds, the last run): \(phases)")
    }

    /// One run: standard input from `input`, standard output thrown away,
    /// standard error into `errors`; its exit status and wall time.
    static func timed(_ arguments: [String], input: URL, errors: URL, environment: [String: String]) -> (Int32, Double)? {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, input.path, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, errors.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let start = Measure.now()
        guard let pid = try? Spawn.start(arguments[0], arguments, environment: environment, actions: &actions) else { return nil }
        let status = Spawn.wait(pid)
        return (status, AnalysisBench.seconds(since: start))
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
