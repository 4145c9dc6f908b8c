import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Many processes on one vault: 8 writers doing 50 random adds, edits and
/// deletes each (some killed with SIGKILL at a random moment), readers
/// listing all the while, and the app open in tmux adding and editing
/// entries of its own. Afterwards the vault opens and checks clean, every
/// write whose command exited 0 is there, a killed write is there whole or
/// not at all, no reader was told the vault is damaged, and every refused
/// write said why.
@Suite(.serialized) struct ConcurrentWritersTests {
    static let writers = 8, operationsEach = 50

    /// What one writer expects of the entries it made: per title, the notes
    /// it may hold, or nil where it must be gone. `uncertain` titles were
    /// touched by a killed command: either outcome is right.
    struct Expectation {
        var notes: [String: Set<String>?] = [:]
        var uncertain: Set<String> = []
        var live: [String] { notes.compactMap { $0.value == nil || uncertain.contains($0.key) ? nil : $0.key }.sorted() }
    }

    struct Tally {
        var operations = 0, succeeded = 0, killed = 0, refused = 0, reads = 0
        var problems: [String] = []
    }

    final class Shared: @unchecked Sendable {  // guarded by lock
        let lock = NSLock()
        var tally = Tally()
        var expectations: [Expectation] = []
        func record(_ body: (inout Tally) -> Void) { lock.withLock { body(&tally) } }
    }

    @Test func manyWritersReadersKillsAndTheAppLoseNothing() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("bulwark-concurrent-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let vault = dir.appendingPathComponent("vault.db").path
        @Sendable func bulwark(_ args: [String], killAfter: Double? = nil) throws -> Binary.Result {
            try Binary.run(args + ["--vault", vault, "--password-stdin"], stdin: "master\n", killAfter: killAfter)
        }
        #expect(try Binary.run(["init", "--scrypt-log-n", "10", "--i-know-this-is-weak", "--vault", vault, "--password-stdin"], stdin: "master\nmaster\n").status == 0)

        let shared = Shared()
        shared.expectations = Array(repeating: Expectation(), count: Self.writers)
        let done = Shared()  // its tally.operations counts finished writers
        let group = DispatchGroup()
        let seed = UInt64(Date().timeIntervalSince1970)
        print("concurrent writers: seed \(seed)")

        for writer in 0..<Self.writers {
            DispatchQueue.global().async(group: group) {
                var rng = SplitMix64(seed: seed &+ UInt64(writer))
                var expectation = Expectation()
                for step in 0..<Self.operationsEach {
                    let live = expectation.live
                    let roll = Int.random(in: 0..<100, using: &rng)
                    let kill: Double? = Int.random(in: 0..<100, using: &rng) < 12 ? Double.random(in: 0.0...0.12, using: &rng) : nil
                    let note = "w\(writer)-op\(step)"
                    var result: Binary.Result
                    do {
                        if live.isEmpty || roll < 45 {
                            let title = "w\(writer)-entry\(step)"
                            result = try bulwark(["add", "--title", title, "--notes", note], killAfter: kill)
                            if result.killed { expectation.uncertain.insert(title); expectation.notes[title] = [note] }
                            else if result.status == 0 { expectation.notes[title] = [note] } else { expectation.notes[title] = .some(nil) }
                        } else if roll < 80 {
                            let title = live[Int.random(in: 0..<live.count, using: &rng)]
                            result = try bulwark(["edit", title, "--notes", note], killAfter: kill)
                            if result.killed { expectation.notes[title] = (expectation.notes[title] ?? []).map { $0.union([note]) } }
                            else if result.status == 0 { expectation.notes[title] = [note] }
                        } else {
                            let title = live[Int.random(in: 0..<live.count, using: &rng)]
                            result = try bulwark(["rm", title], killAfter: kill)
                            if result.killed { expectation.uncertain.insert(title) }
                            else if result.status == 0 { expectation.notes[title] = .some(nil) }
                        }
                    } catch {
                        shared.record { $0.problems.append("writer \(writer): cannot run bulwark: \(error)") }
                        continue
                    }
                    shared.record { tally in
                        tally.operations += 1
                        if result.killed { tally.killed += 1 } else if result.status == 0 { tally.succeeded += 1 } else {
                            tally.refused += 1
                            // A refused write says so, and says nothing was changed.
                            if !(result.stderr.hasPrefix("bulwark: ") && result.stderr.contains("nothing was changed")) || result.stderr.contains("damaged") {
                                tally.problems.append("writer \(writer) step \(step): exit \(result.status): \(result.stderr)")
                            }
                        }
                    }
                }
                shared.lock.withLock { shared.expectations[writer] = expectation }
                done.record { $0.operations += 1 }
            }
        }
        // Readers, until every writer is done: never an error, never "damaged".
        for reader in 0..<2 {
            DispatchQueue.global().async(group: group) {
                while done.lock.withLock({ done.tally.operations }) < Self.writers {
                    guard let result = try? bulwark(reader == 0 ? ["list"] : ["list", "--json"]) else { continue }
                    shared.record { tally in
                        tally.reads += 1
                        if result.status != 0 { tally.problems.append("reader \(reader): exit \(result.status): \(result.stderr)") }
                    }
                }
            }
        }
        // The app, open all the while, adding and editing entries of its own.
        let app = try TmuxSession(width: 100, height: 30, command: "\(Binary.path) open --vault \(vault)")
        defer { app.close() }
        try app.waitFor(text: "Unlock")
        for character in "master" { try app.send(String(character)) }
        try app.send("Enter")
        // The vault's footer, not the status line's hint: the other writers' news replaces the hint at once.
        try app.waitFor(text: "Tab recommendations", seconds: 20)
        var appSaved: [String] = [], sawUpdate = false, appRound = 0
        while done.lock.withLock({ done.tally.operations }) < Self.writers {
            let title = "appentry\(appRound)"
            appRound += 1
            try app.send("n")
            _ = try app.waitFor(text: "Add an entry")
            for character in title { try app.send(String(character)) }
            try app.send("Tab", "Tab", "Tab", "Tab")
            for character in "fromtheapp" { try app.send(String(character)) }
            try app.send("Enter")
            let screen = try app.waitFor("the save's result", seconds: 15) { $0.contains("Saved \(title).") || $0.contains("✗") }
            if screen.contains("Saved \(title).") { appSaved.append(title) }
            // A key clears the save's result; the next tick's look for other writers then says what they did.
            try app.send("j")
            if !sawUpdate, (try? app.waitFor(text: "Updated from another bulwark: ", seconds: 2.5)) != nil { sawUpdate = true }
        }
        group.wait()
        try app.send("q")
        #expect(try app.exitStatus() == 0)

        let tally = shared.tally
        print("concurrent writers: \(tally.operations) operations (\(tally.succeeded) done, \(tally.killed) killed, \(tally.refused) refused), \(tally.reads) reads, \(appSaved.count) of \(appRound) app saves")
        #expect(tally.problems.isEmpty, "\(tally.problems.joined(separator: "\n"))")
        #expect(tally.operations == Self.writers * Self.operationsEach && tally.killed > 0 && tally.reads > 0)
        #expect(!appSaved.isEmpty && sawUpdate)

        // The vault opens, checks clean, and holds exactly what was promised.
        let check = try bulwark(["check"])
        #expect(check.status == 0 && check.stdout.hasPrefix("No problems found: "), "\(check.stdout)\(check.stderr)")
        let listed = try bulwark(["list", "--json"])
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        var byTitle: [String: [String]] = [:]
        for entry in entries { byTitle[entry["title"] as? String ?? "", default: []].append(entry["id"] as? String ?? "") }
        for title in appSaved { #expect(byTitle[title]?.count == 1, "the app's \(title) is missing") }
        for (writer, expectation) in shared.expectations.enumerated() {
            for (title, notes) in expectation.notes {
                let found = byTitle[title] ?? []
                #expect(found.count <= 1, "\(title) appears \(found.count) times")
                guard let notes else {
                    if !expectation.uncertain.contains(title) { #expect(found.isEmpty, "writer \(writer): \(title) was deleted (or refused) but is there") }
                    continue
                }
                if found.isEmpty {
                    #expect(expectation.uncertain.contains(title), "writer \(writer): \(title) was written (exit 0) but is missing")
                    continue
                }
                let shown = try bulwark(["show", found[0], "--json"])
                let object = try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any]
                let held = object?["notes"] as? String ?? ""
                #expect(notes.contains(held), "writer \(writer): \(title) holds \(held), expected one of \(notes.sorted())")
            }
        }
    }
}

/// A small seeded generator, so a failing run can be repeated (its seed is printed).
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
}
