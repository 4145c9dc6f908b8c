import BulwarkCore
import BulwarkUpgrades
import Foundation

/// Security Recommendations figures: a 10-million-line Pwned Passwords
/// corpus generated here (never committed), analyses of 1k, 10k and 100k
/// entries with each phase timed, warm lookups per second, and
/// `keepassxc-cli analyze --hibp` on the same entries and corpus when it is
/// installed (Debian package keepassxc).
enum AnalysisBench {
    static let corpusLines = Int(ProcessInfo.processInfo.environment["BULWARK_BENCH_CORPUS_LINES"] ?? "") ?? 10_000_000

    /// A realistic mix: most passwords strong and unique, some reused in
    /// pairs, one habit password on 1% of the accounts, some weak, some
    /// breached (planted in the corpus); changed in the last year or two.
    static func entries(_ count: Int) -> (entries: [Entry], breached: [String]) {
        var generator = try! PasswordGenerator()
        var entries: [Entry] = [], breached: [String] = []
        let words = ["sunflower", "mercury", "blanket", "harbour", "pickle", "rocket", "violet", "walnut"]
        for i in 0..<count {
            let password: String
            switch i % 10 {
            case 0 where i % 100 == 0: password = "Habit-Pass-2019"                   // one password on 1%
            case 0: password = "\(words[i % words.count])\(i)"                        // weak
            case 1: password = "Breached-\(i)-x"; breached.append(password)          // in the corpus
            case 2, 3: password = "shared-\(i / 10)-Zq8#pL"                           // reused in pairs
            default: password = generator.next()                                      // strong, unique
            }
            entries.append(Entry(id: "e\(i)", title: "Account \(i)", urls: ["https://site\(i).example/login"],
                                 username: "user\(i)@mail.example", password: password,
                                 created: Date(timeIntervalSinceNow: -Double(i % 700) * 86_400)))
        }
        return (entries, breached)
    }

    static func run(directory: URL) {
        let sizes = (ProcessInfo.processInfo.environment["BULWARK_BENCH_SIZES"] ?? "1000,10000,100000").split(separator: ",").compactMap { Int($0) }
        let samples = sizes.map { entries($0) }
        let planted = Set(samples.flatMap(\.breached))
        let corpusPath = directory.appendingPathComponent("pwned-\(corpusLines).txt").path
        let start = Measure.now()
        let size = writeCorpus(to: corpusPath, lines: corpusLines, planted: planted)
        print("corpus: \(corpusLines) lines, \(size / 1_000_000) MB, generated in \(Measure.format(seconds(since: start)))")
        let corpus = try! BreachCorpus.load(paths: [corpusPath])

        lookups(corpus, planted: Array(planted))
        for (count, sample) in zip(sizes, samples) {
            analyse(count, sample.entries, corpus: corpus, expectBreached: sample.breached.count)
        }
        KeePassXCComparison.run(samples: Array(zip(sizes, samples.map(\.entries))), corpusPath: corpusPath, directory: directory, corpus: corpus)
    }

    static func seconds(since start: UInt64) -> Double { Double(Measure.now() - start) / 1e9 }

    static func analyse(_ count: Int, _ entries: [Entry], corpus: BreachCorpus, expectBreached: Int) {
        var start = Measure.now()
        var hits = 0
        for entry in entries where try! corpus.lookup(password: entry.password!) != nil { hits += 1 }
        let breach = seconds(since: start)
        start = Measure.now()
        for entry in entries { _ = StrengthMeter.measure(entry.password!, accountWords: [entry.username]) }
        let strength = seconds(since: start)
        start = Measure.now()
        for entry in entries { _ = StrengthFloor.bits(entry.password!, accountWords: [entry.username]) }
        let floors = seconds(since: start)
        let cold = timedAnalysis(entries, corpus: corpus, memo: StrengthMemo())
        precondition(hits >= expectBreached && cold.report.count(.breached) >= expectBreached, "planted breaches not found")
        print("analyse \(count) entries, first time (no strength memo): total \(Measure.format(cold.total)) (2 cores)"
              + (count == 100_000 ? "  target ≤ 1.0 s" : ""))
        print("    one core: SHA-1 + breach lookups \(Measure.format(breach)), zxcvbn on every password \(Measure.format(strength)),"
              + " its floor on every password \(Measure.format(floors))")
        print("    strengths judged \(cold.analyzer.measured): \(cold.analyzer.floored) cleared the weak line on their floor,"
              + " \(cold.analyzer.measured - cold.analyzer.floored) measured by zxcvbn")
        cold.printPhases()
        sameFindingsAsZxcvbnAlone(entries, corpus: corpus, cold.report)

        // A vault opened again: the strength memo the first analysis left,
        // sealed as the vault keeps it, is opened and decoded inside the timing.
        let memo = cold.analyzer.takeStrengthMemo()!
        let key = SecureRandom.bytes(AEAD.keySize)
        let sealed = AEAD().seal(memo.encoded(), key: key, associatedData: [])
        start = Measure.now()
        let opened = StrengthMemo(decoding: try! AEAD().open(sealed, key: key, associatedData: []))!
        let unsealing = seconds(since: start)
        let warm = timedAnalysis(entries, corpus: corpus, memo: opened)
        precondition(warm.analyzer.measured == 0 && warm.report == cold.report, "the memo changed the analysis")
        print("analyse \(count) entries, vault opened again (strength memo of \(sealed.count / 1_000) kB): total"
              + " \(Measure.format(unsealing + warm.total)) (2 cores)" + (count == 100_000 ? "  target < 2 s" : ""))
        print("    memo opened and decoded \(Measure.format(unsealing))")
        warm.printPhases()

        var edited = entries[entries.count / 2]
        edited.changePassword(to: "shared-0-Zq8#pL", reason: "bench")
        start = Measure.now()
        try! warm.analyzer.update(edited)
        let updating = seconds(since: start)
        _ = warm.analyzer.report()
        let incremental = seconds(since: start)
        print("    (update \(Measure.format(updating)))")
        print("    one edit re-analysed and re-ranked: \(Measure.format(incremental)); \(warm.report.recommendations.count) recommendations")
    }

    /// The findings with floors are those of zxcvbn alone: an analysis
    /// with its weak line out of reach measures every password, and its
    /// memo (every estimate zxcvbn's) makes a third analysis, at the usual
    /// line, that must report exactly what the first did.
    static func sameFindingsAsZxcvbnAlone(_ entries: [Entry], corpus: BreachCorpus, _ report: RecommendationsReport) {
        let measuringAll = SecurityAnalyzer(settings: AnalysisSettings(weakBelowBits: .infinity), breaches: corpus, services: services)
        try! measuringAll.load(entries)
        precondition(measuringAll.floored == 0, "a floor cleared an unreachable line")
        let estimates = measuringAll.takeStrengthMemo()!
        let fromZxcvbnAlone = timedAnalysis(entries, corpus: corpus, memo: estimates)
        precondition(fromZxcvbnAlone.analyzer.measured == 0 && fromZxcvbnAlone.report == report, "floors changed the findings")
        print("    the same findings as with zxcvbn's estimate of every password (\(report.recommendations.count) recommendations compared)")
    }

    struct TimedAnalysis {
        let analyzer: SecurityAnalyzer
        let report: RecommendationsReport
        let total: Double, reporting: Double, cpu: Double

        func printPhases() {
            let phases = analyzer.lastLoad
            print("    analyzer on 2 cores: per account \(Measure.format(phases.passwords)) (site, SHA-1, lookups \(Measure.format(phases.breach));"
                  + " strength \(Measure.format(phases.strength))),"
                  + " indexing \(Measure.format(phases.indexing)), reuse + severity + ranking \(Measure.format(reporting));"
                  + " used \(Measure.format(cpu)) of CPU")
        }
    }

    static let services = try! ServiceCatalog.builtIn()

    static func timedAnalysis(_ entries: [Entry], corpus: BreachCorpus, memo: StrengthMemo) -> TimedAnalysis {
        let cpuBefore = Measure.cpuSeconds()
        var start = Measure.now()
        // With the built-in services, as the app and `analyze` have them.
        let analyzer = SecurityAnalyzer(breaches: corpus, services: services, memo: memo)
        try! analyzer.load(entries)
        let loaded = seconds(since: start)
        start = Measure.now()
        let report = analyzer.report()
        let reporting = seconds(since: start)
        return TimedAnalysis(analyzer: analyzer, report: report, total: loaded + reporting, reporting: reporting,
                             cpu: Measure.cpuSeconds() - cpuBefore)
    }

    static func lookups(_ corpus: BreachCorpus, planted: [String]) {
        var rng = SystemRandomNumberGenerator()
        let present = planted.prefix(100_000).map { Digest.sha1(Array($0.utf8)) }
        let absent = (0..<100_000).map { _ in (0..<20).map { _ in UInt8.random(in: 0...255, using: &rng) } }
        let probes = (present + absent).shuffled()
        for (label, searched) in [("built-in list only", BreachCorpus(common: corpus.common, files: [])),
                                  ("10M-line file only", BreachCorpus(files: corpus.files)),
                                  ("both, as the analysis searches", corpus)] {
            for digest in probes { _ = try! searched.lookup(sha1: digest) }  // warm the pages
            let start = Measure.now()
            var found = 0
            for digest in probes where try! searched.lookup(sha1: digest) != nil { found += 1 }
            let each = seconds(since: start) / Double(probes.count)
            print("warm lookup, \(label) (\(probes.count) probes, half present): \(Measure.format(each)) each,"
                  + " \(Int(1 / each)) lookups/s  target < 5 µs")
        }
    }

    /// Random SHA-1s, sorted, with the planted passwords' SHA-1s among
    /// them, written in HIBP's format (CRLF). Sorting 64-bit prefixes keeps
    /// it to a few seconds; the rest of each hash is random.
    static func writeCorpus(to path: String, lines: Int, planted: Set<String>) -> Int {
        var rng = SystemRandomNumberGenerator()
        var plantedByPrefix: [UInt64: [UInt8]] = [:]
        for password in planted {
            let digest = Digest.sha1(Array(password.utf8))
            plantedByPrefix[digest.prefix(8).reduce(0) { $0 << 8 | UInt64($1) }] = digest
        }
        var prefixes = [UInt64](repeating: 0, count: lines - plantedByPrefix.count)
        for i in prefixes.indices { prefixes[i] = rng.next() }
        prefixes += plantedByPrefix.keys
        prefixes.sort()
        FileManager.default.createFile(atPath: path, contents: nil)
        let handle = FileHandle(forWritingAtPath: path)!
        defer { try? handle.close() }
        let hex = Array("0123456789ABCDEF".utf8)
        var buffer = [UInt8](repeating: 0, count: 1 << 22)
        var used = 0, written = 0
        func flush() {
            handle.write(Data(buffer[0..<used]))
            written += used
            used = 0
        }
        func put(_ value: UInt64, nibbles: Int) {
            for n in stride(from: nibbles - 1, through: 0, by: -1) {
                buffer[used] = hex[Int((value >> (4 * UInt64(n))) & 15)]
                used += 1
            }
        }
        for prefix in prefixes {
            if used > buffer.count - 64 { flush() }
            if let digest = plantedByPrefix[prefix] {
                for byte in digest { buffer[used] = hex[Int(byte >> 4)]; buffer[used + 1] = hex[Int(byte & 15)]; used += 2 }
            } else {
                put(prefix, nibbles: 16)
                put(rng.next(), nibbles: 16)
                put(rng.next(), nibbles: 8)
            }
            buffer[used] = 0x3A
            used += 1
            for digit in String(1 + Int(prefix % 5000)).utf8 { buffer[used] = digit; used += 1 }
            buffer[used] = 0x0D; buffer[used + 1] = 0x0A
            used += 2
        }
        flush()
        return written
    }
}
