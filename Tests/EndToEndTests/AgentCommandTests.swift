import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `bulwark unlock`, `lock` and `agent` through the binary: unlock once and
/// commands ask nothing; lock, the idle time or a changed master password
/// and they ask again; one agent per socket; a stale socket taken over; a
/// peer of another user refused (run as `nobody` where the tests run as root).
@Suite(.serialized) struct AgentCommandTests {
    final class Agent {
        let f: VaultCommandTests.Fixture
        let socket: String
        let environment: [String: String]

        init(config: String = "") throws {
            f = try VaultCommandTests.Fixture()
            socket = f.dir.appendingPathComponent("run/agent.sock").path
            let configFile = f.dir.appendingPathComponent("config")
            try config.write(to: configFile, atomically: true, encoding: .utf8)
            environment = ["BULWARK_AGENT_SOCKET": socket, "BULWARK_CONFIG": configFile.path, "XDG_STATE_HOME": f.dir.appendingPathComponent("state").path]
        }

        deinit { _ = try? run(["lock"]) }

        /// Without --password-stdin and with nothing on standard input: only the agent can open the vault.
        func run(_ arguments: [String], stdin: String = "") throws -> Binary.Result {
            try Binary.run(arguments + ["--vault", f.vault], stdin: stdin, environment: environment)
        }

        func unlock() throws -> Binary.Result { try Binary.run(["unlock", "--vault", f.vault, "--password-stdin"], stdin: "master\n", environment: environment) }

        /// Polls `agent status` until `text` shows (the agent's own timing decides, not the test's).
        func waitForStatus(_ text: String, seconds: Double = 30) throws -> Bool {
            try Poll.until(seconds: seconds) { try run(["agent", "status"]).stdout.contains(text) }
        }
    }

    static func modes(_ paths: [String]) -> String {
        paths.map { path in
            var info = stat()
            return lstat(path, &info) == 0 ? String(info.st_mode & 0o7777, radix: 8) : "missing"
        }.joined(separator: " ")
    }

    static let asks = "bulwark: no terminal to ask for the password on; pipe it in with --password-stdin\n"

    @Test func unlockOnceThenCommandsAskNothingUntilLock() throws {
        let a = try Agent()
        #expect(try a.run(["list"]).stderr == Self.asks)
        _ = try a.f.run(["add", "--title", "Mail", "--username", "jane", "--entry-password-stdin"], stdin: "master\nmail-Secret-1\n")
        let unlocked = try a.unlock()
        #expect(unlocked.status == 0 && unlocked.stdout.hasPrefix("Unlocked ") && unlocked.stdout.hasSuffix("until bulwark lock or 15 minutes unused.\n"))
        let listed = try a.run(["list"])
        #expect(listed.status == 0 && listed.stdout == "Mail\tjane\t\n" && listed.stderr.isEmpty)
        #expect(try a.run(["get", "Mail"]).stdout == "mail-Secret-1\n")
        let status = try a.run(["agent", "status"])
        #expect(status.stdout.contains(": unlocked since ") && status.stdout.contains("unless used."))
        // The socket's folder and the socket are the owner's alone; the log holds no secret.
        var info = stat()
        #expect(lstat(a.socket, &info) == 0 && info.st_mode & 0o777 == 0o600)
        #expect(stat((a.socket as NSString).deletingLastPathComponent, &info) == 0 && info.st_mode & 0o777 == 0o700)
        #expect(try a.run(["lock"]).stdout == "Locked: the agent forgot every key.\n")
        #expect(try a.run(["list"]).stderr == Self.asks)
        #expect(try a.waitForStatus("No agent is running"))
        let log = try String(contentsOf: a.f.dir.appendingPathComponent("state/bulwark/agent/agent.log"), encoding: .utf8)
        #expect(log.contains("bulwark agent: unlocked ") && log.contains("bulwark agent: locked every vault") && !log.contains("mail-Secret-1"))
        // With --password-stdin the password given is read (a script's next lines follow it), agent or not.
        #expect(try a.unlock().status == 0)
        #expect(try Binary.run(["list", "--vault", a.f.vault, "--password-stdin"], stdin: "wrong\n", environment: a.environment).status == 1)
    }

    /// `agent = on`: any command that unlocks with the master password hands the key over; the next asks nothing.
    @Test func agentOnMakesAnyUnlockTheUnlock() throws {
        let a = try Agent(config: "agent = on\n")
        #expect(try a.run(["list"]).stderr == Self.asks)
        let first = try Binary.run(["list", "--vault", a.f.vault, "--password-stdin"], stdin: "master\n", environment: a.environment)
        #expect(first.status == 0 && first.stderr.isEmpty)
        #expect(try a.run(["list"]).status == 0)
        #expect(try a.run(["agent", "status"]).stdout.contains(": unlocked since "))
    }

    @Test func theIdleTimeLocksIt() throws {
        let a = try Agent(config: "agent-lock-after-minutes = 0.02\n")  // 1.2 seconds
        let unlocked = try a.unlock()
        #expect(unlocked.stdout.hasSuffix("until bulwark lock or 1 second unused.\n"))
        #expect(try a.waitForStatus("No agent is running"))
        #expect(try a.run(["list"]).stderr == Self.asks)
    }

    @Test func aChangedMasterPasswordLocksIt() throws {
        let a = try Agent()
        #expect(try a.unlock().status == 0)
        // passwd asks for the current password even while the agent holds the key, and the agent forgets the old key.
        #expect(try Binary.run(["passwd", "--vault", a.f.vault], environment: a.environment).stderr == Self.asks)
        let changed = try Binary.run(["passwd", "--vault", a.f.vault, "--password-stdin", "--i-know-this-is-weak"], stdin: "master\nnext-Master-2\nnext-Master-2\n", environment: a.environment)
        #expect(changed.status == 0, "\(changed.stderr)")
        #expect(try a.run(["list"]).stderr == Self.asks)
        // Re-keyed where the agent was not told (another machine's sync, another socket): the stale key is refused and forgotten.
        #expect(try Binary.run(["unlock", "--vault", a.f.vault, "--password-stdin"], stdin: "next-Master-2\n", environment: a.environment).status == 0)
        var elsewhere = a.environment
        elsewhere["BULWARK_AGENT_SOCKET"] = a.f.dir.appendingPathComponent("other/agent.sock").path
        #expect(try Binary.run(["passwd", "--vault", a.f.vault, "--password-stdin", "--i-know-this-is-weak"], stdin: "next-Master-2\nthird-Master-3\nthird-Master-3\n",
                               environment: elsewhere).status == 0)
        let stale = try a.run(["list"])
        #expect(stale.status == 1 && stale.stderr == "bulwark: warning: the agent's key no longer opens this vault (its master password was changed); the agent forgot it.\n" + Self.asks)
        #expect(try a.run(["agent", "status"]).stdout.contains("holds no key") || (try a.waitForStatus("No agent is running")))
    }

    @Test func oneAgentPerSocketAndAStaleSocketIsTakenOver() throws {
        let a = try Agent()
        #expect(try a.unlock().status == 0)
        let second = try a.run(["agent"])
        #expect(second.status == 1 && second.stderr == "bulwark: an agent already answers on \(a.socket) ('bulwark agent status' says what it holds).\n")
        _ = try a.run(["lock"])
        #expect(try a.waitForStatus("No agent is running"))
        // A socket file nobody listens on (an agent killed before it could remove it).
        let stale = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(a.socket.utf8) + [0]) }
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(stale, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
        close(stale)
        #expect(bound == 0 && FileManager.default.fileExists(atPath: a.socket))
        #expect(try a.unlock().status == 0)
        #expect(try a.run(["list"]).status == 0)
    }

    /// The socket opened to everyone by hand (as a mistake would): a client
    /// running as `nobody` reaches it and is refused by its uid, logged.
    @Test func aPeerOfAnotherUserIsRefused() throws {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/sbin/runuser") else {
            print("SKIP aPeerOfAnotherUserIsRefused: needs root and runuser to run a client as nobody")
            return
        }
        let a = try Agent()
        #expect(try a.unlock().status == 0)
        let folder = (a.socket as NSString).deletingLastPathComponent
        chmod(a.f.dir.path, 0o755)
        chmod(folder, 0o777)
        chmod(a.socket, 0o666)
        let refused = try Binary.run(["-u", "nobody", "--", Binary.path, "agent", "status"], environment: ["BULWARK_AGENT_SOCKET": a.socket], program: "/usr/sbin/runuser")
        #expect(refused.status == 1 && refused.stderr == "bulwark: the agent at \(a.socket) refused: this agent answers its own user only.\n", "\(refused.status) \(refused.stdout) \(refused.stderr) \(Self.modes([a.f.dir.path, folder, a.socket])) \((try? a.run(["agent", "status"]).stdout) ?? "")")
        let log = try String(contentsOf: a.f.dir.appendingPathComponent("state/bulwark/agent/agent.log"), encoding: .utf8)
        #expect(log.contains("refused a connection from another user (uid 65534)"))
        #expect(try a.run(["list"]).status == 0)  // its owner is still answered
    }

    /// `bulwark open` after `bulwark unlock`: the vault's screen at once, no lock screen; locked, it asks again.
    @Test func theAppOpensWithTheAgentsKey() throws {
        let a = try Agent()
        _ = try a.f.run(["add", "--title", "Garden Club", "--username", "jane", "--entry-password-stdin"], stdin: "master\nclub-Secret-7\n")
        #expect(try a.unlock().status == 0)
        var environment = a.environment
        environment["TERM"] = "xterm-256color"
        let app = try TmuxSession(width: 100, height: 24, command: "\(Binary.path) open --vault \(a.f.vault)", environment: environment)
        let screen = try app.waitFor(text: "Garden Club")
        #expect(!screen.contains("Master password"))
        try app.sendBytes("q")
        #expect(try app.exitStatus() == 0)
        _ = try a.run(["lock"])
        let locked = try TmuxSession(width: 100, height: 24, command: "\(Binary.path) open --vault \(a.f.vault)", environment: environment)
        _ = try locked.waitFor(text: "Master password")
        try locked.sendBytes("\u{3}")
    }
}
