import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `analyze --online` against a range API on loopback that the test
/// starts: padded answers, a 429 then an answer, a 503 then an answer, a
/// time-out, a body that is not a range. Every request is counted: one
/// per distinct prefix (two passwords share one), retries only where the
/// answer asked for them, nothing but the prefix sent, nothing asked
/// again that the cache holds; and an unreachable API leaves the offline
/// analysis standing.
@Suite(.serialized) struct OnlineBreachTests {
    typealias Fixture = VaultCommandTests.Fixture

    static let passwords = [
        "Breached": "online-breached-1",
        "Shared A": "shared-secret-545",      // the same SHA-1 prefix (1C670) as
        "Shared B": "shared-secret-1589",     // this one: one request for both
        "Rate limited": "rate-limited-password",
        "Server error": "server-error-password",
        "Slow": "slow-range-password",
        "Malformed": "malformed-range-password",
        "Padded": "padded-only-password",
    ]

    static func sha1(_ text: String) throws -> String {
        try Binary.run(["-c", "printf '%s' \"$1\" | sha1sum | cut -c1-40 | tr a-f A-F", "sh", text], program: "/bin/sh").stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Made-up suffixes with count 0, as the API pads with.
    static let padding = (0..<20).map { String(format: "%035X:0", $0 * 7_777_777) }.joined(separator: "\r\n")

    /// The server, started with posix_spawn and ended with SIGKILL and
    /// waitpid (Foundation's Process waits for an exit through a run loop).
    final class Server {
        let pid: pid_t
        let port: Int
        let log: URL

        init(script: [String: [[String: Any]]], in directory: URL) throws {
            log = directory.appendingPathComponent("requests.log")
            let scriptFile = directory.appendingPathComponent("script.json")
            try JSONSerialization.data(withJSONObject: script).write(to: scriptFile)
            let server = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/range-server.py").path
            let arguments: [String] = ["python3", server, log.path, scriptFile.path]
            var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) }
            argv.append(nil)
            defer { argv.forEach { free($0) } }
            // The server writes its port to a pipe once ready (its gzip answers
            // made first: seconds on a busy machine); the read waits for it.
            var pipeEnds: [Int32] = [0, 0]
            guard pipe(&pipeEnds) == 0 else { throw POSIXError(.EMFILE) }
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
            posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
            var pid: pid_t = 0
            let spawned = posix_spawn(&pid, "/usr/bin/python3", &actions, nil, &argv, environ)
            close(pipeEnds[1])
            defer { close(pipeEnds[0]) }
            guard spawned == 0 else { throw POSIXError(.ENOEXEC) }
            self.pid = pid
            var said: [UInt8] = []
            var byte: UInt8 = 0
            while read(pipeEnds[0], &byte, 1) == 1, byte != UInt8(ascii: "\n") { said.append(byte) }
            let port = Int(String(decoding: said, as: UTF8.self)) ?? 0
            self.port = port
        }

        deinit {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }

        /// Each request: its path, and whether it asked for padding.
        func requests() -> [(path: String, padding: String?, body: String?)] {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            return text.split(separator: "\n").compactMap { line in
                guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
                return (object["path"] as? String ?? "", object["padding"] as? String, object["length"] as? String)
            }
        }
    }

    /// The breached warnings of an `analyze --json`: title → (count, corpus).
    static func breached(_ json: String) throws -> [String: (Int, String)] {
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        var found: [String: (Int, String)] = [:]
        for recommendation in object?["recommendations"] as? [[String: Any]] ?? [] {
            for warning in recommendation["warnings"] as? [[String: Any]] ?? [] where warning["kind"] as? String == "breached" {
                found[recommendation["title"] as? String ?? ""] = (warning["count"] as? Int ?? -1, warning["corpus"] as? String ?? "")
            }
        }
        return found
    }

    @Test func rangesAreAskedOnceEachAndKept() throws {
        let f = try Fixture()
        for (title, password) in Self.passwords.sorted(by: { $0.key < $1.key }) {
            let added = try f.run(["add", "--title", title, "--entry-password-stdin"], stdin: "master\n\(password)\n")
            #expect(added.status == 0, "\(added.stderr)")
        }
        var hashes: [String: String] = [:]
        for (title, password) in Self.passwords { hashes[title] = try Self.sha1(password) }
        func prefix(_ title: String) -> String { String(hashes[title]!.prefix(5)) }
        func suffix(_ title: String) -> String { String(hashes[title]!.dropFirst(5)) }
        #expect(prefix("Shared A") == prefix("Shared B"))

        let ok = { (lines: [String]) -> [String: Any] in ["status": 200, "body": (lines + [Self.padding]).joined(separator: "\r\n") + "\r\n"] }
        let script: [String: [[String: Any]]] = [
            prefix("Breached"): [ok(["\(suffix("Breached")):42"])],
            prefix("Shared A"): [ok(["\(suffix("Shared A")):7"])],
            prefix("Rate limited"): [["status": 429, "headers": ["Retry-After": "0"], "body": "slow down"], ok(["\(suffix("Rate limited")):3"])],
            prefix("Server error"): [["status": 503, "body": "unavailable"], ok([])],
            prefix("Slow"): [["status": 200, "delay": 3, "body": ""]],
            prefix("Malformed"): [["status": 200, "body": "<html>not a range</html>"]],
            prefix("Padded"): [ok(["\(suffix("Padded")):0"])],  // padding that happens to be this password: not a breach
        ]
        let server = try Server(script: script, in: f.dir)
        #expect(server.port > 0)
        let base = "http://127.0.0.1:\(server.port)/range"
        let environment = ["XDG_CACHE_HOME": f.dir.appendingPathComponent("cache").path,
                           "BULWARK_RANGE_TIMEOUT": "1", "BULWARK_RANGE_BACKOFF": "0.05"]
        func analyze() throws -> Binary.Result {
            try Binary.run(["analyze", "--json", "--online", "--range-url", base, "--vault", f.vault, "--password-stdin"],
                           stdin: "master\n", environment: environment)
        }

        let first = try analyze()
        #expect([11, 12].contains(first.status), "\(first.stderr)")
        let corpus = "Pwned Passwords online (127.0.0.1)"
        let found = try Self.breached(first.stdout)
        #expect(found.mapValues { $0.0 } == ["Breached": 42, "Shared A": 7, "Rate limited": 3])
        #expect(found.values.allSatisfy { $0.1 == corpus })
        #expect(first.stderr.contains("online: 7 SHA-1 prefixes of 8 passwords: 7 asked of \(base) (5 answered), 0 from the cache (answers younger than 7 days). Only the first 5 hex digits of each hash left this machine.\n"), "\(first.stderr)")
        #expect(first.stderr.contains("online: range \(prefix("Slow")) was not used (timed out after 1 s, 4 tries); its passwords were checked offline only.\n"), "\(first.stderr)")
        #expect(first.stderr.contains("online: range \(prefix("Malformed")) was not used (the answer is not a range (line 1: expected 35 hex digits, ':' and a count)); its passwords were checked offline only.\n"), "\(first.stderr)")

        // One request per distinct prefix, a second only after a 429 or a 503,
        // four tries of the slow one; each for /range/PREFIX with padding asked.
        var counts: [String: Int] = [:]
        for request in server.requests() {
            #expect(request.padding == "true" && request.body == nil)  // a GET with nothing but the prefix in its path
            counts[request.path, default: 0] += 1
        }
        let expected = [prefix("Breached"): 1, prefix("Shared A"): 1, prefix("Rate limited"): 2, prefix("Server error"): 2,
                        prefix("Slow"): 4, prefix("Malformed"): 1, prefix("Padded"): 1]
        #expect(counts == Dictionary(uniqueKeysWithValues: expected.map { ("/range/\($0.key)", $0.value) }))

        // The cache: sealed (no suffix in the clear), the owner's alone.
        let cacheFiles = try FileManager.default.contentsOfDirectory(atPath: f.dir.appendingPathComponent("cache/bulwark").path)
        #expect(cacheFiles.count == 1 && cacheFiles[0].hasPrefix("pwned-ranges-") && cacheFiles[0].hasSuffix(".sealed"))
        let cacheFile = f.dir.appendingPathComponent("cache/bulwark/" + cacheFiles[0]).path
        let sealed = try Data(contentsOf: URL(fileURLWithPath: cacheFile))
        #expect(sealed.range(of: Data(suffix("Breached").utf8)) == nil && sealed.range(of: Data(prefix("Breached").utf8)) == nil)
        #expect((try FileManager.default.attributesOfItem(atPath: cacheFile)[.posixPermissions] as? Int) == 0o600)

        // Again: only what failed is asked; the rest comes from the cache, with the same findings.
        let before = server.requests().count
        let second = try analyze()
        #expect(try Self.breached(second.stdout).mapValues { $0.0 } == ["Breached": 42, "Shared A": 7, "Rate limited": 3])
        #expect(second.stderr.contains("online: 7 SHA-1 prefixes of 8 passwords: 2 asked of \(base) (0 answered), 5 from the cache"), "\(second.stderr)")
        let again = server.requests().dropFirst(before).map(\.path)
        #expect(Set(again) == ["/range/\(prefix("Slow"))", "/range/\(prefix("Malformed"))"] && again.count == 5)
    }

    /// A range answer is under 100 KB: an endless one, a gzip one that
    /// inflates to 64 MiB, and one that trickles past the whole answer's
    /// time are each cut off and named (they once took the process to 9 GB).
    @Test func anEndlessHugeOrTricklingAnswerIsCutOff() throws {
        let f = try Fixture()
        let passwords = ["Endless": "endless-password-1", "Bomb": "bomb-password-2", "Trickle": "trickle-password-3"]
        for (title, password) in passwords.sorted(by: { $0.key < $1.key }) {
            #expect(try f.run(["add", "--title", title, "--entry-password-stdin"], stdin: "master\n\(password)\n").status == 0)
        }
        func prefix(_ title: String) throws -> String { String(try Self.sha1(passwords[title]!).prefix(5)) }
        let script: [String: [[String: Any]]] = [
            try prefix("Endless"): [["stream": 256 << 20]],
            try prefix("Bomb"): [["gzip": 64 << 20]],
            try prefix("Trickle"): [["stream": 1 << 20, "chunk": 10, "interval": 0.2]],
        ]
        let server = try Server(script: script, in: f.dir)
        let base = "http://127.0.0.1:\(server.port)/range"
        let result = try Binary.run(["analyze", "--json", "--online", "--range-url", base, "--vault", f.vault, "--password-stdin"], stdin: "master\n",
                                    environment: ["XDG_CACHE_HOME": f.dir.appendingPathComponent("cache").path, "BULWARK_RANGE_TIMEOUT": "10",
                                                  "BULWARK_RANGE_TOTAL": "15", "BULWARK_RANGE_BACKOFF": "0.05"])
        #expect(![1, 2].contains(result.status), "\(result.stderr)")
        // The whole answer's time is 15 s: the trickle (50 bytes a second) is cut by it, while the endless and the
        // gzip answers pass 1 MiB well within it on a busy machine (3 s was once not enough beside a release build).
        let cut = "was not used (the answer passed 1024 KiB (a range answer is under 100 KB), and was cut off); its passwords were checked offline only.\n"
        #expect(result.stderr.contains("online: range \(try prefix("Endless")) " + cut), "\(result.stderr)")
        #expect(result.stderr.contains("online: range \(try prefix("Bomb")) " + cut), "\(result.stderr)")
        #expect(result.stderr.contains("online: range \(try prefix("Trickle")) was not used (the answer took more than 15 s in all, and was cut off); its passwords were checked offline only.\n"), "\(result.stderr)")
        // Cut off once each: a limit is not tried again.
        #expect(server.requests().count == 3)
    }

    /// Plain http sends every prefix in the clear: loopback only, unless --insecure-http.
    @Test func plainHTTPIsForLoopbackOnly() throws {
        let f = try Fixture()
        #expect(try f.run(["add", "--title", "A", "--entry-password-stdin"], stdin: "master\nsome-password-1\n").status == 0)
        let refused = try Binary.run(["analyze", "--range-url", "http://mirror.example/range", "--vault", f.vault, "--password-stdin"], stdin: "master\n")
        #expect(refused.status == 2 && refused.stderr == "bulwark: --range-url http://mirror.example/range: plain http would show the prefixes asked to anyone on the way; only loopback may use it (--insecure-http allows it, or use https).\n")
        // Loopback, by name or address, is allowed (nothing listens on port 1: the check runs offline).
        for url in ["http://localhost:1/range", "http://[::1]:1/range", "http://127.0.0.2:1/range"] {
            let local = try Binary.run(["analyze", "--range-url", url, "--vault", f.vault, "--password-stdin"], stdin: "master\n",
                                       environment: ["XDG_CACHE_HOME": f.dir.appendingPathComponent("cache").path])
            #expect(local.status != 2 && local.stderr.hasPrefix("online: 1 SHA-1 prefixes"), "\(url): \(local.stderr)")
        }
    }

    @Test func anUnreachableAPILeavesTheOfflineAnalysis() throws {
        let f = try Fixture()
        #expect(try f.run(["add", "--title", "Common", "--entry-password-stdin"], stdin: "master\npassword\n").status == 0)
        let offline = try Binary.run(["analyze", "--json", "--vault", f.vault, "--password-stdin"], stdin: "master\n")
        // Port 1 on loopback: nothing listens, so the connection is refused at once.
        let result = try Binary.run(["analyze", "--json", "--online", "--range-url", "http://127.0.0.1:1/range", "--vault", f.vault, "--password-stdin"],
                                    stdin: "master\n", environment: ["XDG_CACHE_HOME": f.dir.appendingPathComponent("cache").path])
        #expect(result.status == offline.status && result.stdout == offline.stdout)
        #expect(result.stderr.hasPrefix("online: 1 SHA-1 prefixes of 1 passwords: 1 asked of http://127.0.0.1:1/range (0 answered), 0 from the cache"), "\(result.stderr)")
        #expect(result.stderr.contains("online: cannot reach 127.0.0.1 (the connection was refused or has no route): the offline checks were done; a password breached since your local corpora were made may be missed.\n"), "\(result.stderr)")
        #expect(try Self.breached(result.stdout)["Common"]?.1 == "built-in list of common passwords")

        // The same from the config file alone, with no flag.
        let config = f.dir.appendingPathComponent("config")
        try Data("online = true\nrange-url = http://127.0.0.1:1/range\n".utf8).write(to: config)
        let configured = try Binary.run(["analyze", "--json", "--vault", f.vault, "--password-stdin"], stdin: "master\n",
                                        environment: ["BULWARK_CONFIG": config.path, "XDG_CACHE_HOME": f.dir.appendingPathComponent("cache").path])
        #expect(configured.stdout == offline.stdout && configured.stderr == result.stderr, "\(configured.stdout)\n---\n\(offline.stdout)\n---\n\(configured.stderr)")
    }

    @Test func aBadRangeURLIsRefused() throws {
        let f = try Fixture()
        let result = try Binary.run(["analyze", "--range-url", "ftp://mirror.example/range", "--vault", f.vault, "--password-stdin"], stdin: "master\n")
        #expect(result.status == 2 && result.stderr == "bulwark: --range-url ftp://mirror.example/range: not an http or https URL.\n")
    }
}
