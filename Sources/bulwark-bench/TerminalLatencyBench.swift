import BulwarkCore
import BulwarkTUI
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Key to frame as a person sees it, through a pseudo-terminal: the release
/// binary on a 100,000-entry vault at 200x60, each key written to the
/// terminal and the time taken until the bytes that show its result come
/// back. A change (an edit, an add, a delete, its undo, a hide, an old
/// password restored) is timed to its status line ("Saved", "Deleted", …),
/// which the app draws when the write is done; a move or a search keystroke
/// to the first bytes of its frame (drawn before the app reads another key).
/// Each status is a different word from the one before, so that the
/// terminal is sent the whole word, not the letters that changed.
enum TerminalLatencyBench {
    static let columns: UInt16 = 200, rows: UInt16 = 60

    static func run(bulwark: String, directory: URL, count: Int = 100_000) {
        guard FileManager.default.isExecutableFile(atPath: bulwark) else {
            say("key to frame through a terminal: no binary at \(bulwark); skipped")
            return
        }
        let path = directory.appendingPathComponent("latency-\(count).db")
        let vault = try! Vault.create(at: path, masterPassword: "bench", parameters: VaultBench.smallKDF)
        vault.backupPolicy = .none
        try! vault.save(AnalysisBench.entries(count).entries)
        vault.close()
        say("key to frame through a pseudo-terminal (\(bulwark), \(count) entries, \(columns)x\(rows); the time until the result's bytes are read back):")
        // The first keystrokes first: the vault as made, before any change.
        firstSearchKeystrokes(bulwark: bulwark, vault: path, directory: directory, count: count)
        steadyState(bulwark: bulwark, vault: path, directory: directory, count: count)
    }

    static func environment(_ directory: URL) -> [String: String] {
        let home = directory.appendingPathComponent("home")
        let runtime = directory.appendingPathComponent("run")
        try? FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        try? FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return ["HOME": home.path, "XDG_CONFIG_HOME": home.appendingPathComponent(".config").path,
                "XDG_DATA_HOME": home.appendingPathComponent(".local/share").path,
                "XDG_STATE_HOME": home.appendingPathComponent(".local/state").path, "XDG_RUNTIME_DIR": runtime.path,
                "BULWARK_CONFIG": "/nonexistent/bench-config", "TERM": "xterm-256color", "LANG": "C.UTF-8",
                "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]
    }

    /// The app started and unlocked: nil when it did not show the vault.
    static func unlocked(bulwark: String, vault: URL, directory: URL, count: Int) -> PseudoTerminal? {
        guard let terminal = PseudoTerminal([bulwark, "--vault", vault.path, "open"], environment: environment(directory), columns: columns, rows: rows),
              terminal.seconds(from: Measure.now(), until: "Master password") != nil else {
            say("    the app did not ask for the master password; skipped")
            return nil
        }
        terminal.drain()
        terminal.type("bench\r")
        guard terminal.seconds(from: Measure.now(), until: "\(Count.grouped(count)) items") != nil else {
            say("    the vault did not open; skipped")
            return nil
        }
        return terminal
    }

    /// Moves, searching, and each kind of change, on one unlocked app with its analysis done.
    static func steadyState(bulwark: String, vault: URL, directory: URL, count: Int) {
        guard let terminal = unlocked(bulwark: bulwark, vault: vault, directory: directory, count: count) else { return }
        // The analysis behind the first frame draws as it goes: done when the app has been quiet a while.
        terminal.drain(quiet: 1_500)
        func key(_ text: String) -> Double? {
            let start = Measure.now()
            terminal.type(text)
            defer { terminal.drain() }
            return terminal.secondsToFirstOutput(from: start)
        }
        func change(_ text: String, shows marker: String) -> Double? {
            let start = Measure.now()
            terminal.type(text)
            defer { terminal.drain() }
            return terminal.seconds(from: start, until: marker)
        }
        func open(_ text: String, until marker: String) -> Bool {
            terminal.type(text)
            defer { terminal.drain() }
            guard terminal.seconds(from: Measure.now(), until: marker, limit: 5) != nil else {
                say("    no \"\(marker)\" within 5 s of the key \(text.debugDescription)")
                return false
            }
            return true
        }
        var moves: [Double] = [], edits: [Double] = [], adds: [Double] = [], deletes: [Double] = [], undos: [Double] = []
        var hides: [Double] = [], restores: [Double] = [], passwords: [Double] = [], failed: [String] = []
        for _ in 0..<30 { if let time = key("j") { moves.append(time) } }
        for round in 0..<15 {
            // An edit of the selected entry's title, saved.
            if open("e", until: "Edit the entry") {
                terminal.type("x"); terminal.drain()
                edits += change("\r", shows: "Saved").map { [$0] } ?? { failed.append("edit"); return [] }()
            }
            // Its password changed, then the old one restored from its history.
            if open("e", until: "Edit the entry") {
                terminal.type("\t\t\t"); terminal.drain()
                terminal.type("\u{15}Bench-\(round)-Qx9#vT2m"); terminal.drain()
                passwords += change("\r", shows: "Saved").map { [$0] } ?? { failed.append("new password"); return [] }()
                if open("h", until: "Old passwords") {
                    restores += change("r", shows: "Restored").map { [$0] } ?? { failed.append("restore"); return [] }()
                    terminal.type("\u{1b}"); terminal.drain()
                }
            }
            // Deleted, then the delete undone.
            if open("d", until: "Delete ") {
                deletes += change("y", shows: "Deleted").map { [$0] } ?? { failed.append("delete"); return [] }()
                undos += change("z", shows: "Undid").map { [$0] } ?? { failed.append("undo"); return [] }()
            }
            // A new entry.
            if open("n", until: "Add an entry") {
                terminal.type("Added \(round)"); terminal.drain()
                adds += change("\r", shows: "Saved").map { [$0] } ?? { failed.append("add"); return [] }()
            }
            // A recommendation hidden.
            if open("r", until: "Security Recommendations"), open("h", until: "Hide the recommendation") {
                hides += change("\r", shows: "Hid the").map { [$0] } ?? { failed.append("hide"); return [] }()
            }
            _ = open("\t", until: "Vault")
            _ = key("j")
        }
        // Searching: "account 17" typed a key at a time, then rubbed out.
        var searches: [Double] = []
        _ = key("/")
        for character in "account 17" { if let time = key(String(character)) { searches.append(time) } }
        for _ in 0..<10 { if let time = key("\u{7f}") { searches.append(time) } }
        terminal.type("\u{1b}\u{1b}")
        report("a move (j), the first bytes of its frame", moves)
        report("a search keystroke (account 17 typed, then rubbed out)", searches)
        report("an edit saved (Enter to \"Saved\")", edits)
        report("a new password typed in the form (Enter to \"Saved\")", passwords)
        report("an old password restored (r to \"Restored\")", restores)
        report("a delete (y to \"Deleted\")", deletes)
        report("its undo (z to \"Undid\")", undos)
        report("an entry added (Enter to \"Saved\")", adds)
        report("a recommendation hidden (Enter to \"Hid the\")", hides)
        if !failed.isEmpty { say("    no result shown within 10 s: \(failed.joined(separator: ", "))") }
    }

    /// The first keystroke of a search right after unlock, with the analysis still running beside it.
    /// The first run is not timed: it reads how many entries "7" lists off its
    /// frame ("40,951" of the position line "1/40,951"), the others wait for that count.
    static func firstSearchKeystrokes(bulwark: String, vault: URL, directory: URL, count: Int) {
        var firsts: [Double] = [], seconds: [Double] = [], matches: String?
        let all = Count.grouped(count)
        for _ in 0..<7 {
            guard let terminal = unlocked(bulwark: bulwark, vault: vault, directory: directory, count: count) else { return }
            // As a person would: a moment after the vault shows.
            terminal.drain(quiet: 200)
            terminal.type("/")
            _ = terminal.secondsToFirstOutput(from: Measure.now())
            terminal.drain(quiet: 30)
            var start = Measure.now()
            terminal.type("7")
            guard let listed = matches else {
                _ = terminal.secondsToFirstOutput(from: start)
                terminal.drain(quiet: 300)
                matches = listedCount(terminal.lastDrained)
                guard matches != nil else { say("    the search's count was not found on its frame; skipped"); return }
                continue
            }
            if let time = terminal.seconds(from: start, until: listed) { firsts.append(time) }
            terminal.drain(quiet: 30)
            start = Measure.now()
            terminal.type("\u{7f}")
            if let time = terminal.seconds(from: start, until: all) { seconds.append(time) }
        }
        report("a search's first keystroke after unlock (analysis running)", firsts)
        report("    and the keystroke after it", seconds)
    }

    /// "40,951": the first count of thousands in a frame's bytes (the
    /// position line's count is written alone, "1/" being on screen already).
    static func listedCount(_ bytes: [UInt8]) -> String? {
        let text = String(decoding: bytes, as: UTF8.self)
        return text.range(of: #"[0-9]{1,3},[0-9]{3}"#, options: .regularExpression).map { String(text[$0]) }
    }

    /// A line out now, through a pipe too (this group takes minutes).
    static func say(_ line: String) {
        print(line)
        fflush(nil)
    }

    static func report(_ name: String, _ samples: [Double]) {
        guard !samples.isEmpty else { say("    \(name): no samples"); return }
        let sorted = samples.sorted()
        let median = sorted[sorted.count / 2], worst = sorted.last!
        say(String(format: "    %-58@ median %5.1f ms  worst %5.1f ms  (%d)  target < 16 ms", name as NSString, median * 1e3, worst * 1e3, samples.count))
    }
}
