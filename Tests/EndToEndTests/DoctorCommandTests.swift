import Foundation
import Testing

/// `bulwark doctor` against a set-up that works and ones that do not:
/// each problem named with its fix, exit 1; warnings alone exit 0.
@Suite struct DoctorCommandTests {
    typealias Fixture = VaultCommandTests.Fixture

    /// Pwned Passwords lines (SHA-1s of "a", "c" and "b"), in no order.
    static let hashes = ["86F7E437FAA5A7FCE15D1DDCB9EAEAEA377667B8:5",
                         "84A516841BA77A5B4648DE2CD0DFCB30EA46DBB4:7",
                         "E9D71F5EE7C92D6DC9E92FFDAD17B8BD49418F98:2"]

    struct Setup {
        let fixture: Fixture
        let config: URL
        let corpus: URL
        init(corpusLines: [String]) throws {
            fixture = try Fixture()
            corpus = fixture.dir.appendingPathComponent("pwned.txt")
            try Data((corpusLines.joined(separator: "\n") + "\n").utf8).write(to: corpus)
            config = fixture.dir.appendingPathComponent("config")
            try Data("breach-corpus = \(corpus.path)\n".utf8).write(to: config)
        }
        func doctor(_ environment: [String: String], json: Bool = false) throws -> Binary.Result {
            let base = ["BULWARK_CONFIG": config.path, "LC_ALL": "", "LC_CTYPE": "", "TMUX": "", "TERM_PROGRAM": "", "DISPLAY": ""]
            return try Binary.run(["doctor", "--vault", fixture.vault] + (json ? ["--json"] : []),
                                  environment: base.merging(environment) { $1 })
        }
    }

    struct Report: Decodable {
        struct Check: Decodable, Equatable { let area, name, status, found: String; let fix: String? }
        let ok: Bool
        let checks: [Check]
        func check(_ area: String, _ name: String) -> Check? { checks.first { $0.area == area && $0.name == name } }
    }

    @Test func aWorkingSetUpExitsZero() throws {
        let sorted = Self.hashes.sorted()
        let setup = try Setup(corpusLines: sorted)
        let result = try setup.doctor(["TERM": "xterm-256color", "LANG": "C.UTF-8"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("  [ok]   TERM ") && $0.contains("xterm-256color (") }, "\(result.stdout)")
        #expect(lines.contains("  [ok]   locale          C.UTF-8 (UTF-8)"), "\(result.stdout)")
        #expect(lines.contains("  [ok]   file            \(setup.fixture.vault) (0600, yours)"))
        #expect(lines.contains("  [ok]   integrity       SQLite finds no damage (0 entries)"))
        #expect(lines.contains("  [ok]   corpus          \(setup.corpus.path): 3 lines, sorted by hash"))
        // A cheap test KDF is a warning, not a failure.
        #expect(lines.contains { $0.hasPrefix("  [warn] key derivation  scrypt N=2^10, r=8, p=1: ") })
        #expect(lines.last?.hasPrefix("No problems, ") == true)
    }

    @Test func eachBrokenPieceIsNamedWithItsFix() throws {
        let setup = try Setup(corpusLines: Self.hashes.sorted().reversed())
        #expect(chmod(setup.fixture.vault, 0o644) == 0)
        let text = try setup.doctor(["TERM": "dumb", "LANG": "C"])
        #expect(text.status == 1)
        #expect(text.stdout.hasSuffix("4 problems, 2 warnings.\n"), "\(text.stdout)")

        let result = try setup.doctor(["TERM": "dumb", "LANG": "C"], json: true)
        #expect(result.status == 1)
        let report = try JSONDecoder().decode(Report.self, from: Data(result.stdout.utf8))
        #expect(!report.ok)
        #expect(report.check("terminal", "TERM") == .init(area: "terminal", name: "TERM", status: "problem",
            found: "TERM=dumb: this terminal cannot move the cursor, so the full-screen app cannot draw (the other commands work)",
            fix: "export TERM=xterm-256color   # or run bulwark in a terminal emulator"))
        #expect(report.check("terminal", "locale") == .init(area: "terminal", name: "locale", status: "problem",
            found: "C (ANSI_X3.4-1968): not UTF-8, so the app draws ASCII symbols and cannot show characters outside ASCII", fix: "export LANG=C.UTF-8"))
        let vault = setup.fixture.vault
        #expect(report.check("vault", "modes") == .init(area: "vault", name: "modes", status: "problem",
            found: "\(vault) is 0644: other users can read it (the entries are sealed, but the file and its metadata should be yours alone)",
            fix: "chmod 600 \(vault) \(vault)-wal \(vault)-shm"))  // SQLite made its journal files with the vault's mode
        let corpus = setup.corpus.path
        #expect(report.check("breach", "corpus") == .init(area: "breach", name: "corpus", status: "problem",
            found: "\(corpus): the lines are not sorted by hash, so lookups miss", fix: "LC_ALL=C sort -t: -k1,1 -u -o \(corpus) \(corpus)"))

        // Each fix, run, mends its problem.
        let chmodded = try Binary.run(["-c", report.check("vault", "modes")!.fix!], program: "/bin/sh")
        #expect(chmodded.status == 0)
        let sort = try Binary.run(["-c", report.check("breach", "corpus")!.fix!], program: "/bin/sh")
        #expect(sort.status == 0)
        let mended = try setup.doctor(["TERM": "xterm-256color", "LANG": "C.UTF-8"])
        #expect(mended.status == 0, "\(mended.stdout)")
    }

    /// A corpus whose first and last lines are in order, with the disorder
    /// inside, is found by reading every line.
    @Test func disorderInsideABigCorpusIsFound() throws {
        var lines = (0..<200_000).map { String(format: "%040X:1", $0 * 7919) }
        lines.swapAt(100_000, 100_001)
        let setup = try Setup(corpusLines: lines)
        let report = try JSONDecoder().decode(Report.self, from: Data(try setup.doctor(["TERM": "xterm", "LANG": "C.UTF-8"], json: true).stdout.utf8))
        let check = try #require(report.check("breach", "corpus"))
        #expect(check.status == "problem")
        #expect(check.found == "\(setup.corpus.path): not a Pwned Passwords file at byte \(100_001 * 43): line 100002 is not sorted by hash after the one before")
    }
}
