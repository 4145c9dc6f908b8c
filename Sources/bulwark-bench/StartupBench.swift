import BulwarkTUI
import BulwarkTerminal
import Foundation

/// Start-up to the first frame of the demo (`bulwark demo --no-lock` on a
/// kept demo directory, which the binary times itself from the top of main
/// and reports with the unlock's share), and the floor: a minimal program
/// that opens ncurses, draws one empty frame and exits, timed the same way
/// in the same run. Both run under `script`, which gives them a terminal;
/// neither figure includes exec and the dynamic loader, which are the same.
enum StartupBench {
    /// `bulwark-bench --curses-floor`: the minimal program.
    static func cursesFloor() {
        let start = Date().timeIntervalSince1970  // as bulwark does: from the top of main
        guard let terminal = try? CursesTerminal(allowColor: true) else { exit(2) }
        terminal.draw(Buffer(width: terminal.size.width, height: terminal.size.height))
        let ms = (Date().timeIntervalSince1970 - start) * 1000
        terminal.close()
        FileHandle.standardError.write(Data(String(format: "first_frame_ms=%.2f\n", ms).utf8))
        exit(0)
    }

    static func run(bulwark: String) {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), FileManager.default.isExecutableFile(atPath: bulwark) else {
            print("start-up: needs /usr/bin/script and \(bulwark); skipped")
            return
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bulwark-bench-demo-\(getpid())")
        defer { try? FileManager.default.removeItem(at: directory) }
        // The first run writes the demo; later runs reuse it, as a person's second start would.
        _ = runUnderScript("\(bulwark) demo --no-lock --dir \(directory.path)")
        var totals: [Double] = [], unlocks: [Double] = [], floors: [Double] = []
        for _ in 0..<15 {
            let output = runUnderScript("\(bulwark) demo --no-lock --dir \(directory.path)")
            if let total = value("first_frame_ms", in: output), let unlock = value("unlock_ms", in: output) {
                totals.append(total)
                unlocks.append(unlock)
            }
            let floor = runUnderScript("\(CommandLine.arguments[0]) --curses-floor")
            if let ms = value("first_frame_ms", in: floor) { floors.append(ms) }
        }
        guard !totals.isEmpty, !floors.isEmpty else { print("start-up: no figures came back; skipped"); return }
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        let withoutKDF = zip(totals, unlocks).map { $0 - $1 }
        print(String(format: "start-up to first frame, demo (median of %d): %.1f ms, of which unlocking (KDF N=2^14 + load + analysis) %.1f ms; without it %.1f ms  target < 30 ms",
                     totals.count, median(totals), median(unlocks), median(withoutKDF)))
        print(String(format: "floor: a minimal ncurses program to its first frame: %.1f ms", median(floors)))
        // As a person waits: `bulwark demo` (a new temporary demo, locked) from the spawn to its unlock screen, `script` included.
        var waits: [Double] = []
        for _ in 0..<15 {
            let spawned = Date().timeIntervalSince1970
            let output = runUnderScript("\(bulwark) demo")
            if let at = value("first_frame_at", in: output) { waits.append((at - spawned) * 1000) }
        }
        guard !waits.isEmpty else { print("demo to its unlock screen: no figures came back; skipped"); return }
        print(String(format: "`bulwark demo`, spawned to its unlock screen (median of %d, wall clock, `script` included): %.1f ms (max %.1f)  target ≤ 50 ms",
                     waits.count, median(waits), waits.max() ?? 0))
    }

    static func value(_ name: String, in text: String) -> Double? {
        guard let range = text.range(of: name + "=") else { return nil }
        return Double(text[range.upperBound...].prefix { $0.isNumber || $0 == "." })
    }

    /// Runs a command with a pseudo-terminal; returns what it printed.
    static func runUnderScript(_ command: String) -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qec", command, "/dev/null"]
        var environment = ProcessInfo.processInfo.environment
        environment["BULWARK_REPORT_FIRST_FRAME"] = "1"
        environment["TERM"] = environment["TERM"].flatMap { $0 == "dumb" ? nil : $0 } ?? "xterm-256color"
        environment["BULWARK_CONFIG"] = "/nonexistent/bench-config"
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return "" }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
