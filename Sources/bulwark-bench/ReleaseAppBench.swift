import Foundation

/// The release binary's own peak memory with a large vault open, as a
/// person meets it: `bulwark --vault V open` under `script` (a terminal of
/// 200x60), the master password typed, the analysis left to finish, then
/// the keys of the in-process figure (the recommendations, a step, Tab, a
/// search, Esc); the binary's VmHWM is read from /proc before Ctrl-C ends it.
enum ReleaseAppBench {
    static func run(bulwark: String, vault: URL, count: Int) {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), FileManager.default.isExecutableFile(atPath: bulwark) else {
            print("the release binary with \(count) entries open: needs /usr/bin/script and \(bulwark); skipped")
            return
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qec", "\(bulwark) --vault \(vault.path) open", "/dev/null"]
        var environment = ProcessInfo.processInfo.environment
        environment["TERM"] = "xterm-256color"
        environment["COLUMNS"] = "200"
        environment["LINES"] = "60"
        environment["BULWARK_CONFIG"] = "/nonexistent/bench-config"
        process.environment = environment
        let keys = Pipe()
        process.standardInput = keys
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        signal(SIGPIPE, SIG_IGN)  // a binary that ended early fails the writes below, not this bench
        guard (try? process.run()) != nil else { print("the release binary: did not start; skipped"); return }
        func type(_ text: String, wait: Double) {
            try? keys.fileHandleForWriting.write(contentsOf: Data(text.utf8))
            Thread.sleep(forTimeInterval: wait)
        }
        Thread.sleep(forTimeInterval: 1.5)
        type("bench\r", wait: 8)  // the unlock at the bench's KDF, the first frame, the analysis behind it
        for key in ["r", "j", "\t", "/", "1", "7", "\u{1b}"] { type(key, wait: 0.4) }
        Thread.sleep(forTimeInterval: 1)
        let peak = child(of: process.processIdentifier).flatMap(peakKiB)
        type("\u{03}", wait: 0.5)
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        guard let peak else { print("the release binary with \(count) entries open: no figure came back; skipped"); return }
        let mib = Double(peak) / 1024
        // Unlocked, 100,000 entries take some 90 MiB to load alone: a smaller peak is a vault that never opened.
        guard mib > Double(count) / 2_000 else { print(String(format: "the release binary with %d entries open: only %.1f MiB, so the vault did not open; skipped", count, mib)); return }
        print(String(format: "the release binary with %d entries open (%@ under script, 200x60: unlock, analysis, r j Tab, a search, Esc): peak RSS %.1f MiB (%.1f MB)  target ≤ 150 MB",
                     count, bulwark, mib, mib * 1.048576))
    }

    /// The process `script` started (its child), by the parent ids in /proc.
    static func child(of parent: Int32) -> Int32? {
        let ids = (try? FileManager.default.contentsOfDirectory(atPath: "/proc"))?.compactMap { Int32($0) } ?? []
        return ids.first { id in
            guard let stat = try? String(contentsOfFile: "/proc/\(id)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return false }
            // After the command's name in parentheses: the state, then the parent's id.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 1 && Int32(fields[1]) == parent
        }
    }

    static func peakKiB(_ id: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(id)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return nil }
        return Int(line.split(separator: " ").dropFirst().first ?? "")
    }
}
