import BulwarkCore
import CHardening
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `bulwark unlock`, `bulwark lock` and `bulwark agent [status]`: unlock
/// once, and every command after asks nothing until the agent forgets the
/// key (`lock`, `agent-lock-after-minutes` unused, or the vault's master
/// password changed).
enum AgentCommand {
    static let specs: [CommandSpec] = [
        CommandSpec(name: "unlock", summary: "Unlock the vault once: later commands ask nothing (bulwark agent holds the key).",
                    usage: "bulwark unlock", options: [],
                    details: """
                    Asks for the master password, opens the vault with it, and hands its key to bulwark agent
                    (started in the background when none runs). Until bulwark lock, agent-lock-after-minutes (15) without
                    a command, or a change of the master password, commands open the vault without asking. A command
                    given --password-stdin still reads its password. The agent answers only its own user.
                    """, arguments: [.nothing]),
        CommandSpec(name: "lock", summary: "Make the agent forget every key it holds.", usage: "bulwark lock", options: [],
                    details: "The agent ends once it holds nothing. Exit 0 whether or not one was running.", arguments: [.nothing]),
        CommandSpec(name: "agent", summary: "The agent that holds unlocked vaults' keys (started by bulwark unlock).",
                    usage: "bulwark agent [status]", options: [],
                    details: """
                    bulwark agent serves in the foreground (bulwark unlock starts one in the background, logging to
                    $XDG_STATE_HOME/bulwark/agent/agent.log). agent status says which vaults it holds and when each locks.
                    It listens on $XDG_RUNTIME_DIR/bulwark/agent.sock (a folder of mode 0700, the socket 0600; else
                    /tmp/bulwark-UID/; BULWARK_AGENT_SOCKET names another), refuses any other user's connection (SO_PEERCRED),
                    keeps keys in locked memory out of core dumps, and writes nothing secret to disk or its log.
                    """, arguments: [.words(["status"])]),
    ]

    static func run(_ parsed: ParsedCommandLine) -> Int32 {
        switch parsed.arguments {
        case []: return serve(parsed)
        case ["status"]: return status()
        default:
            Output.error("usage: bulwark agent [status]")
            return 2
        }
    }

    static func serve(_ parsed: ParsedCommandLine) -> Int32 {
        guard case .success(let config) = Output.configuration(parsed) else { return 1 }
        _ = bw_forbid_core_dumps()
        let path = AgentSocket.path()
        let listener: Int32
        do { listener = try AgentSocket.listen(at: path) } catch {
            Output.error("\(error).")
            return 1
        }
        let clock = ISO8601DateFormatter()
        let server = AgentServer(listening: listener, at: path, lockAfter: config.agentLockAfterMinutes * 60) { line in
            Output.stderr("\(clock.string(from: Date())) bulwark agent: \(line)\n")
        }
        server.run()
        return 0
    }

    static func status() -> Int32 {
        let path = AgentSocket.path()
        guard let answer = AgentClient.send(.status, socket: path) else {
            print("No agent is running (\(path)); bulwark unlock starts one.")
            return 0
        }
        if let refusal = answer.error {
            Output.error("the agent at \(path) refused: \(refusal).")
            return 1
        }
        if answer.vaults.isEmpty { print("The agent at \(path) holds no key.") }
        let time = DateFormatter()
        time.dateFormat = "HH:mm:ss"
        for vault in answer.vaults {
            print("\(TerminalText.visible(vault.vault)): unlocked since \(time.string(from: vault.unlockedAt)); locks at \(time.string(from: vault.locksAt)) unless used.")
        }
        return 0
    }

    /// Opens with the master password (never with the agent's key: this is the unlock) and hands the key over.
    static func unlock(_ parsed: ParsedCommandLine) -> Int32 {
        VaultCommands.withVault(parsed, agent: false) { vault, _ in
            let minutes = (try? Output.configuration(parsed).get())?.agentLockAfterMinutes ?? 15
            guard handOver(vault) else { return 1 }
            print("Unlocked \(TerminalText.visible(vault.path.path)): commands open it without asking until bulwark lock or \(Self.minutes(minutes)) unused.")
            return 0
        }
    }

    static func lock(_ parsed: ParsedCommandLine) -> Int32 {
        guard parsed.arguments.isEmpty else { Output.error("usage: bulwark lock"); return 2 }
        print(AgentClient.send(.lock(vault: nil)) == nil ? "No agent was running: nothing to lock." : "Locked: the agent forgot every key.")
        return 0
    }

    /// The vault's key to the agent, started first when none answers; said on failure.
    @discardableResult
    static func handOver(_ vault: Vault) -> Bool {
        let socket = AgentSocket.path()
        if AgentClient.send(.status, socket: socket) == nil {
            do { try startAgent() } catch {
                Output.error("could not start bulwark agent: \(error).")
                return false
            }
            guard AgentClient.waitForAgent(socket: socket) else {
                Output.error("bulwark agent did not answer on \(socket) (its log: \(logFile.path)).")
                return false
            }
        }
        guard let answer = AgentClient.send(.unlock(vault: AgentClient.name(vault.path), key: vault.heldKey), socket: socket), answer.error == nil else {
            Output.error("bulwark agent did not take the key.")
            return false
        }
        return true
    }

    static var logFile: URL { StateDirectory.url("agent").appendingPathComponent("agent.log") }

    /// `bulwark agent` in a session of its own, its output appended to its log.
    static func startAgent() throws {
        _ = try startDetached(["agent"], log: logFile)
    }

    /// bulwark with `arguments` in a session of its own: nothing to read, standard error appended to `log`.
    static func startDetached(_ arguments: [String], log: URL) throws -> pid_t {
        try FileManager.default.createDirectory(at: log.deletingLastPathComponent(), withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, log.path, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        do {
            return try Spawn.start("/proc/self/exe", ["bulwark"] + arguments, environment: ProcessInfo.processInfo.environment, actions: &actions, newSession: true)
        } catch {
            throw AgentSocket.Failure(description: error.message)
        }
    }

    static func minutes(_ value: Double) -> String {
        if value >= 1 && value == value.rounded() { return "\(Int(value)) minute\(value == 1 ? "" : "s")" }
        let seconds = Int((value * 60).rounded())
        return "\(seconds) second\(seconds == 1 ? "" : "s")"
    }
}
