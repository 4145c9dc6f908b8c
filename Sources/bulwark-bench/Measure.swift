import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Timing helpers for `make bench`: monotonic clock, many runs, median and p99.
enum Measure {
    static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    struct Stats {
        let median: Double   // seconds
        let p99: Double
        let runs: Int
    }

    static func repeated(_ runs: Int, _ body: () -> Void) -> Stats {
        var samples: [Double] = []
        samples.reserveCapacity(runs)
        for _ in 0..<runs {
            let start = now()
            body()
            samples.append(Double(now() - start) / 1e9)
        }
        samples.sort()
        return Stats(median: samples[samples.count / 2], p99: samples[min(samples.count - 1, samples.count * 99 / 100)], runs: runs)
    }

    /// Peak resident set size of this process so far, in MiB: VmHWM from
    /// /proc (getrusage's ru_maxrss survives exec, so a child would report
    /// its parent's peak).
    static func peakRSSMiB() -> Double {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kib = Double(line.split(separator: " ").dropFirst().first ?? "") else { return 0 }
        return kib / 1024
    }

    /// User and system CPU time of this process so far, every thread.
    static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    static func format(_ seconds: Double) -> String {
        if seconds < 1e-3 { return String(format: "%.1f µs", seconds * 1e6) }
        if seconds < 1 { return String(format: "%.2f ms", seconds * 1e3) }
        return String(format: "%.2f s", seconds)
    }

    static func report(_ name: String, _ stats: Stats, target: String? = nil) {
        let line = "\(name.count < 46 ? name.padding(toLength: 46, withPad: " ", startingAt: 0) : name) median \(format(stats.median))  p99 \(format(stats.p99))  (\(stats.runs) runs)"
        print(target.map { line + "  target \($0)" } ?? line)
    }
}
