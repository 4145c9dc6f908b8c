import BulwarkCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The breach phase against a corpus bigger than the page cache keeps warm:
/// a generated 100-million-line Pwned Passwords file (about 4.4 GB), its
/// pages dropped from the cache (posix_fadvise DONTNEED after a sync; no
/// root needed), then 10,000 accounts looked up with the queries sorted by
/// hash (so each core's probes walk the file forward), and the same again
/// warm; and the same unsorted, cold, for comparison.
enum ColdCacheBench {
    static let lines = Int(ProcessInfo.processInfo.environment["BULWARK_BENCH_COLD_LINES"] ?? "") ?? 100_000_000

    static func run(directory: URL) {
        guard lines > 0 else { print("cold-cache breach bench: BULWARK_BENCH_COLD_LINES=0, skipped"); return }
        let (entries, breached) = AnalysisBench.entries(10_000)
        let passwords = entries.compactMap(\.password)
        let path = directory.appendingPathComponent("cold-corpus.txt").path
        let start = Measure.now()
        let bytes = AnalysisBench.writeCorpus(to: path, lines: lines, planted: Set(breached))
        print(String(format: "cold-cache corpus: %d lines, %.2f GB, generated in %.0f s", lines, Double(bytes) / 1e9, Double(Measure.now() - start) / 1e9))
        defer { try? FileManager.default.removeItem(atPath: path) }

        func cold(sorted: Bool) -> (Double, Int) {
            guard drop(path) else { return (.nan, 0) }
            let corpus = try! BreachCorpus.load(paths: [path], includeBuiltIn: false)
            let begin = Measure.now()
            let hits = sorted ? try! corpus.lookup(passwords: passwords)
                              : try! Concurrent.unsorted(corpus, passwords)
            return (Double(Measure.now() - begin) / 1e9, hits.compactMap { $0 }.count)
        }
        let (sortedCold, found) = cold(sorted: true)
        let corpus = try! BreachCorpus.load(paths: [path], includeBuiltIn: false)
        _ = try! corpus.lookup(passwords: passwords)
        let warm = Measure.repeated(5) { _ = try! corpus.lookup(passwords: passwords) }
        let (unsortedCold, _) = cold(sorted: false)
        precondition(found >= breached.count, "the planted breaches were not all found")
        print("breach phase, 10000 accounts, \(lines / 1_000_000)M-line corpus (SHA-1 + lookups, 2 cores): cold, queries sorted by hash "
              + "\(Measure.format(sortedCold)); warm \(Measure.format(warm.median)); cold, unsorted \(Measure.format(unsortedCold))")
        // The real corpus (about 900 million lines, 37 GB) by the same measure: a lookup in
        // a sorted file costs the pages its probes touch, which grow with the log of its size.
        let scale = log2(900e6) / log2(Double(lines))
        print(String(format: "    the full Pwned Passwords corpus (~900M lines) by the same measure: cold, sorted about %@ (%.2fx the probes' depth); warm about %@",
                     Measure.format(sortedCold * scale), scale, Measure.format(warm.median * scale)))
    }

    /// The file's pages out of the page cache (written back first). True when done.
    static func drop(_ path: String) -> Bool {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        fsync(fd)
        return posix_fadvise(fd, 0, 0, Int32(POSIX_FADV_DONTNEED)) == 0
    }

    /// The unsorted comparison: each password looked up in the order given, on both cores.
    enum Concurrent {
        static func unsorted(_ corpus: BreachCorpus, _ passwords: [String]) throws -> [BreachHit?] {
            let results = Results(count: passwords.count)
            DispatchQueue.concurrentPerform(iterations: 2) { half in
                let range = half == 0 ? 0..<(passwords.count / 2) : (passwords.count / 2)..<passwords.count
                for i in range { results.set(i, try? corpus.lookup(password: passwords[i])) }
            }
            return results.all
        }

        final class Results: @unchecked Sendable {  // guarded by lock
            private let lock = NSLock()
            private var values: [BreachHit?]
            init(count: Int) { values = Array(repeating: nil, count: count) }
            func set(_ i: Int, _ value: BreachHit??) { lock.withLock { values[i] = value ?? nil } }
            var all: [BreachHit?] { lock.withLock { values } }
        }
    }
}
