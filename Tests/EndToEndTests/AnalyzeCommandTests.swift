import Foundation
import Testing

/// `bulwark analyze`, `hide` and `unhide` through the real binary.
@Suite struct AnalyzeCommandTests {
    typealias Fixture = VaultCommandTests.Fixture

    static func add(_ f: Fixture, _ title: String, _ url: String, _ password: String, extra: [String] = []) throws -> String {
        let result = try f.run(["add", "--title", title, "--url", url, "--username", "jane", "--entry-password-stdin"] + extra,
                               stdin: "master\n\(password)\n")
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func analyze(_ f: Fixture, _ extra: [String] = [], environment: [String: String] = [:]) throws -> (Int32, [String: Any]) {
        let result = try Binary.run(["analyze", "--json", "--vault", f.vault, "--password-stdin"] + extra, stdin: "master\n",
                                    environment: environment)
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        #expect(object != nil, "\(result.stderr)")
        return (result.status, object ?? [:])
    }

    static func corpus(_ f: Fixture, _ lines: [String]) throws -> String {
        let path = f.dir.appendingPathComponent("pwned-\(UUID().uuidString).txt").path
        try Data(lines.sorted().map { $0 + "\r\n" }.joined().utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func exitCodesFollowTheWorstSeverity() throws {
        let f = try Fixture()
        #expect(try Self.analyze(f).0 == 0)
        _ = try Self.add(f, "Router", "http://router.example", "cytxup-Gyszi6-vozzab")
        #expect(try Self.analyze(f).0 == 10)
        _ = try Self.add(f, "Game", "https://game.example", "hobwy7-Qatnez-rypfuk")
        _ = try Self.add(f, "Tax Office", "https://tax.gov.example", "hobwy7-Qatnez-rypfuk")
        #expect(try Self.analyze(f).0 == 11)
        _ = try Self.add(f, "Mail", "https://mail.example", "letmein")
        let (status, object) = try Self.analyze(f)
        #expect(status == 12)
        let summary = object["summary"] as! [String: Any]
        #expect(summary["total"] as? Int == 4 && summary["high_priority"] as? Int == 3 && summary["hidden"] as? Int == 0)
        #expect(summary["by_severity"] as? [String: Int] == ["critical": 1, "high": 2, "medium": 0, "low": 1])
        #expect(summary["by_kind"] as? [String: Int] == ["breached": 1, "reused": 2, "weak": 1, "insecure-url": 1, "old": 0, "no-2fa": 0, "passkey-available": 0, "identity-provider": 0])
        let rows = object["recommendations"] as! [[String: Any]]
        #expect(rows.map { $0["title"] as! String } == ["Mail", "Tax Office", "Game", "Router"])  // the sensitive account first
        #expect(rows.map { $0["priority"] as! String } == ["high", "high", "high", "other"])
        // Each reuse group once, by id; the recommendations name it.
        let groups = object["reuse_groups"] as! [[String: Any]]
        #expect(groups.count == 1 && groups[0]["id"] as? String == "g1")
        #expect((groups[0]["accounts"] as? [[String: Any]])?.compactMap { $0["title"] as? String } == ["Game", "Tax Office"])
        #expect(rows[1]["group"] as? String == "g1" && rows[2]["group"] as? String == "g1" && rows[0]["group"] is NSNull)
        let reused = (rows[1]["warnings"] as! [[String: Any]]).first { $0["kind"] as? String == "reused" }
        #expect(reused?["group"] as? String == "g1" && reused?["others"] as? Int == 1)
        let mail = rows[0]["warnings"] as! [[String: Any]]
        #expect(mail.map { $0["kind"] as! String } == ["breached", "weak"])
        #expect(mail[1]["pattern"] as? String == "common-password")
        #expect(Set(rows[0].keys) == ["entry", "title", "site", "username", "category", "severity", "priority", "warnings", "group", "hidden"])
        // No password ever reaches the output.
        let text = try f.run(["analyze"])
        #expect(!text.stdout.contains("letmein") && !text.stdout.contains("hobwy7"))
        #expect(text.stdout.hasPrefix("4 recommendations, 3 high priority (1 critical, 2 high, 0 medium, 1 low); 0 hidden.\n\nHigh Priority\n  CRITICAL  Mail  jane  mail.example\n"))
    }

    @Test func breachCorporaFromFlagsAndTheConfigFile() throws {
        let f = try Fixture()
        _ = try Self.add(f, "Shop", "https://shop.example", "Vq7#mT2p!Lz9-long")
        // SHA-1 of "Vq7#mT2p!Lz9-long", computed independently by sha1sum.
        let sha1 = try Self.sha1("Vq7#mT2p!Lz9-long")
        let corpus = try Self.corpus(f, ["0000000000000000000000000000000000000000:1", "\(sha1):31337"])
        #expect(try Self.analyze(f).0 == 0)
        let (status, object) = try Self.analyze(f, ["--breach-corpus", corpus])
        #expect(status == 11)
        let warning = ((object["recommendations"] as! [[String: Any]])[0]["warnings"] as! [[String: Any]])[0]
        #expect(warning["count"] as? Int == 31337 && warning["corpus"] as? String == corpus)
        #expect(warning["reason"] as? String == "This password has appeared in a data breach 31,337 times, so attackers try it first.")

        let config = f.dir.appendingPathComponent("config")
        try Data("# bulwark settings\nbreach-corpus = \((corpus as NSString).lastPathComponent)\n".utf8).write(to: config)
        #expect(try Self.analyze(f, environment: ["BULWARK_CONFIG": config.path]).0 == 11)
        try Data("breach-corpus = \(corpus)\nold-after-days = soon\n".utf8).write(to: config)
        let bad = try Binary.run(["analyze", "--vault", f.vault, "--password-stdin"], stdin: "master\n", environment: ["BULWARK_CONFIG": config.path])
        #expect(bad.status == 2)
        #expect(bad.stderr == "bulwark: config \(config.path):2: 'old-after-days' must be a number from 1 to 36500\n")

        let missing = try f.run(["analyze", "--breach-corpus", "/nonexistent/pwned.txt"])
        #expect(missing.status == 1)
        #expect(missing.stderr == "bulwark: breach corpus: /nonexistent/pwned.txt: not a Pwned Passwords file at byte 0: /nonexistent/pwned.txt: no such file\n")
    }

    static func sha1(_ text: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha1sum")
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(text.utf8))
        try input.fileHandleForWriting.close()
        let out = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return String(out.prefix(40)).uppercased()
    }

    @Test func hiddenRecommendationsAreCountedAndListedOnRequest() throws {
        let f = try Fixture()
        _ = try Self.add(f, "Router", "http://router.example", "cytxup-Gyszi6-vozzab")
        #expect(try f.run(["hide", "Router", "--until", "2999-01-31"]).stdout == "Hid recommendations for Router until 2999-01-31T00:00:00Z.\n")
        var (status, object) = try Self.analyze(f)
        #expect(status == 0)
        #expect((object["summary"] as! [String: Any])["hidden"] as? Int == 1)
        #expect((object["recommendations"] as! [Any]).isEmpty)
        (status, object) = try Self.analyze(f, ["--include-hidden"])
        let row = (object["recommendations"] as! [[String: Any]])[0]
        #expect(row["hidden"] as? Bool == true && row["hidden_until"] as? String == "2999-01-31T00:00:00Z")
        #expect(status == 0)  // hidden ones do not count toward the exit status
        #expect(try f.run(["hide", "Router", "--until", "2999-02-30"]).status == 2)
        #expect(try f.run(["unhide", "Router"]).stdout == "Recommendations for Router are shown again.\n")
        #expect(try Self.analyze(f).0 == 10)
    }

    /// `--timings`: each phase's wall time on standard error, in order; the report on standard output as without it.
    /// The JSON is written as it is made, not through JSONSerialization,
    /// but reads exactly as JSONSerialization writes the same values with
    /// sorted keys: read back and written again by it, it is the same text.
    @Test func theJSONIsTheTextJSONSerializationWouldWrite() throws {
        let f = try Fixture()
        _ = try Self.add(f, "Router", "http://router.example", "cytxup-Gyszi6-vozzab")
        _ = try Self.add(f, "Game", "https://game.example", "hobwy7-Qatnez-rypfuk")
        _ = try Self.add(f, "Tax Office", "https://tax.gov.example", "hobwy7-Qatnez-rypfuk")
        _ = try Self.add(f, "Mail", "https://mail.example", "letmein")
        _ = try Self.add(f, "Blog", "https://blog.example", "jane1990")
        #expect(try f.run(["hide", "Router", "--until", "2999-01-31"]).status == 0)
        let result = try Binary.run(["analyze", "--json", "--include-hidden", "--vault", f.vault, "--password-stdin"], stdin: "master\n")
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
        let again = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        #expect(result.stdout == String(decoding: again, as: UTF8.self) + "\n")
        // A whole number of bits is written without ".0", the rest to one decimal.
        let bits = result.stdout.split(separator: "\n").filter { $0.contains("\"bits\"") }.map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(bits.count == 2 && bits.allSatisfy { $0.wholeMatch(of: /"bits" : [0-9]+(\.[0-9])?,/) != nil }, "\(bits)")
        #expect(result.stdout.contains("\"hidden_until\" : \"2999-01-31T00:00:00Z\""))
    }

    /// An output that refuses the JSON (here a full device) is said, with
    /// exit 1, rather than left as a silent half document.
    @Test func aFullOutputIsSaidAndExitsOne() throws {
        let f = try Fixture()
        _ = try Self.add(f, "Mail", "https://mail.example", "letmein")
        let script = "exec \"$0\" analyze --json --vault \"$1\" --password-stdin > /dev/full"
        let result = try Binary.run(["-c", script, Binary.path, f.vault], stdin: "master\n", program: "/bin/sh")
        #expect(result.status == 1)
        #expect(result.stderr == "bulwark: cannot write the recommendations: standard output was closed or full.\n")
    }

    @Test func timingsNameEveryPhaseOnStandardError() throws {
        let f = try VaultCommandTests.Fixture()
        _ = try Self.add(f, "Mail", "https://mail.example", "letmein")
        let plain = try f.run(["analyze"])
        let timed = try f.run(["analyze", "--timings"])
        #expect(timed.status == plain.status && timed.stdout == plain.stdout)
        let lines = timed.stderr.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("timings (wall seconds, 1 entries, ") == true)
        let phases = lines.dropFirst().map { $0.split(separator: "\t").map(String.init) }
        #expect(phases.map { $0.first ?? "" } == ["key derivation", "load", "breach", "strength", "reuse", "ranking", "output"])
        #expect(phases.allSatisfy { $0.count == 2 && Double($0[1]) != nil && Double($0[1])! >= 0 })
        #expect(!timed.stderr.contains("letmein"))
    }
}
