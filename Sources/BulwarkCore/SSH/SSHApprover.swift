import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The SSH agent's side of approvals: before each signature, what the
/// key's entry says (`SSHApprovalPolicy`), and when it asks, the person
/// asked through the first channel that can: the open app, a configured
/// command, the agent's terminal. "Once per unlock" is remembered per key
/// until the vault's unlock changes (`session`); a vault locked meanwhile
/// refuses every signature and lists no key.
public final class SSHApprover {
    public enum Channel: Equatable, Sendable {
        /// The open app's approvals socket (`SSHApprovalListener`).
        case app(socket: String)
        /// A program run with the question as its argument (and in its environment): exit 0 approves.
        case command(String)
        /// The agent's controlling terminal (`/dev/tty`), when it has one.
        case terminal(device: String)

        var name: String {
            switch self {
            case .app: "the app"
            case .command: "the approval command"
            case .terminal: "the terminal"
            }
        }
    }

    let vault: String
    let channels: [Channel]
    let waitSeconds: Int
    /// The vault's unlock as the agent names it; nil while it is locked.
    let session: () -> String?
    private var approvedKeys: Set<[UInt8]> = []
    private var approvedIn: String?
    private let knownHosts: [String]

    public init(vault: String, channels: [Channel], waitSeconds: Int = 60, knownHosts: [String] = SSHApprover.knownHostsFiles(),
                session: @escaping () -> String?) {
        self.vault = vault
        self.channels = channels
        self.waitSeconds = waitSeconds
        self.session = session
        self.knownHosts = knownHosts
    }

    public static func knownHostsFiles(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        (environment["HOME"].map { ["\($0)/.ssh/known_hosts"] } ?? []) + ["/etc/ssh/ssh_known_hosts"]
    }

    /// Where a question goes when no app takes it, for the agent's first lines.
    public var fallbacks: String {
        var ways: [String] = []
        for channel in channels {
            switch channel {
            case .app: break
            case .command(let command): ways.append("by \(TerminalText.visible(command))")
            case .terminal(let device):
                let terminal = open(device, O_RDWR | O_NOCTTY | O_CLOEXEC)
                if terminal >= 0 { ways.append("on this terminal"); close(terminal) }
            }
        }
        return ways.isEmpty ? "refused (no ssh-approve-command, no terminal)" : ways.joined(separator: ", else ")
    }

    /// The gate `SSHAgentServer` consults, with `log` hearing who was asked and what they said.
    public func gate(log: @escaping (String) -> Void) -> SSHAgentGate {
        SSHAgentGate(listing: { [self] in session() != nil }, signing: { [self] identity, connection in
            decide(identity, connection, log: log)
        })
    }

    /// nil: sign; else why not, for the log.
    func decide(_ identity: SSHAgentIdentity, _ connection: SSHAgentProtocol.Connection, log: (String) -> Void) -> String? {
        let name = TerminalText.visible(identity.comment)
        guard let current = session() else { return "refused to sign with \(name): the vault is locked (bulwark unlock)" }
        if current != approvedIn {
            approvedKeys = []
            approvedIn = current
        }
        switch identity.approval {
        case .never: return nil
        case .once where approvedKeys.contains(identity.blob): return nil
        case .once, .ask: break
        }
        let question = self.question(identity, connection)
        for channel in channels {
            switch ask(channel, question) {
            case .approved:
                log("\(channel.name) approved a signature with \(name) for \(question.process)")
                if identity.approval == .once { approvedKeys.insert(identity.blob) }
                return nil
            case .declined:
                return "not signed with \(name): declined in \(channel.name)"
            case .unavailable:
                continue
            }
        }
        return "refused to sign with \(name): its entry asks for approval and there is nobody to ask "
            + "(open bulwark, set ssh-approve-command, or run bulwark ssh-agent in a terminal; bulwark ssh-key approve sets a key to never)"
    }

    func question(_ identity: SSHAgentIdentity, _ connection: SSHAgentProtocol.Connection) -> SSHApprovalQuestion {
        let hostKey = connection.boundHostKey
        return SSHApprovalQuestion(vault: vault, key: identity.comment, fingerprint: identity.key.fingerprint,
                                   process: Self.commandLine(of: connection.peerPID), pid: connection.peerPID,
                                   hostKey: hostKey.map(SSHPrivateKey.fingerprint(of:)),
                                   hostNames: hostKey.map { SSHKnownHosts.names(for: $0, files: knownHosts) } ?? [],
                                   once: identity.approval == .once)
    }

    func ask(_ channel: Channel, _ question: SSHApprovalQuestion) -> SSHApprovalAnswer {
        switch channel {
        case .app(let socket): return askApp(socket, question)
        case .command(let command): return askCommand(command, question)
        case .terminal(let device): return askTerminal(device, question)
        }
    }

    /// The open app: unavailable when none listens, or it is locked or on another vault.
    func askApp(_ socket: String, _ question: SSHApprovalQuestion) -> SSHApprovalAnswer {
        guard let connection = AgentSocket.connect(to: socket) else { return .unavailable }
        defer { close(connection) }
        AgentSocket.setTimeout(connection, seconds: waitSeconds)
        guard AgentSocket.writeAll(connection, question.line) else { return .unavailable }
        // No answer in time (the sheet left unanswered) declines: the hang-up takes the sheet away.
        guard let line = AgentSocket.readLine(connection) else { return .declined }
        return SSHApprovalAnswer.parse(line) ?? .declined
    }

    /// A program, as OpenSSH runs SSH_ASKPASS for `-c`: the question its
    /// argument and in BULWARK_SSH_* variables; exit 0 approves, anything
    /// else (or no end within the wait) declines; one that cannot be run is unavailable.
    func askCommand(_ command: String, _ question: SSHApprovalQuestion) -> SSHApprovalAnswer {
        var environment = ProcessInfo.processInfo.environment
        environment["BULWARK_SSH_KEY"] = question.key
        environment["BULWARK_SSH_FINGERPRINT"] = question.fingerprint
        environment["BULWARK_SSH_PROCESS"] = question.process
        environment["BULWARK_SSH_HOST"] = question.host ?? ""
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for descriptor in Int32(0)...2 { posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY, 0) }
        guard let pid = try? Spawn.start(command, [command, question.sentence], environment: environment, actions: &actions) else { return .unavailable }
        let until = Date().addingTimeInterval(Double(waitSeconds))
        var status: Int32 = 0
        while true {
            let ended = waitpid(pid, &status, WNOHANG)
            if ended == pid { break }
            if ended < 0 && errno != EINTR { return .declined }
            if Date() >= until {
                kill(pid, SIGKILL)
                _ = Spawn.wait(pid)
                return .declined
            }
            usleep(10_000)  // a child's end has no descriptor to wait on here
        }
        return status == 0 ? .approved : .declined
    }

    /// The agent's terminal: the question, then y or yes within the wait approves.
    func askTerminal(_ device: String, _ question: SSHApprovalQuestion) -> SSHApprovalAnswer {
        let terminal = open(device, O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard terminal >= 0 else { return .unavailable }
        defer { close(terminal) }
        let prompt = "\r\nbulwark ssh-agent: \(question.sentence)\r\nAllow this signature? [y/N] "
        guard Self.say(prompt, to: terminal) else { return .unavailable }
        var typed: [UInt8] = []
        let until = Date().addingTimeInterval(Double(waitSeconds))
        while Date() < until, !typed.contains(0x0A), typed.count < 64 {
            var poller = pollfd(fd: terminal, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Int32(max(1, until.timeIntervalSinceNow * 1000))) > 0 else { continue }
            var byte: UInt8 = 0
            guard read(terminal, &byte, 1) == 1 else { break }
            typed.append(byte)
        }
        let word = String(decoding: typed, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        let answer: SSHApprovalAnswer = ["y", "yes"].contains(word) ? .approved : .declined
        _ = Self.say(answer == .approved ? "Approved.\r\n" : "Declined.\r\n", to: terminal)
        return answer
    }

    /// All of `text` written to a terminal (a socket's `send` does not work on one).
    static func say(_ text: String, to terminal: Int32) -> Bool {
        let bytes = Array(text.utf8)
        var done = 0
        while done < bytes.count {
            let wrote = bytes.withUnsafeBytes { write(terminal, $0.baseAddress! + done, bytes.count - done) }
            if wrote < 0, errno == EINTR { continue }
            guard wrote > 0 else { return false }
            done += wrote
        }
        return true
    }

    /// `/proc/PID/cmdline` as one visible line, or "an unknown process".
    static func commandLine(of pid: Int32) -> String {
        guard pid > 0, let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"), !data.isEmpty else { return "an unknown process" }
        let words = data.split(separator: 0, omittingEmptySubsequences: true).map { String(decoding: $0, as: UTF8.self) }
        let line = TerminalText.visible(words.joined(separator: " "))
        return line.count > SSHApprovalQuestion.maximumProcess ? String(line.prefix(SSHApprovalQuestion.maximumProcess - 1)) + "…" : line
    }
}

/// The names OpenSSH's known_hosts files give a host key: plain entries only
/// (a hashed name, `|1|…`, cannot be read back), markers skipped.
public enum SSHKnownHosts {
    public static func names(for hostKey: [UInt8], files: [String]) -> [String] {
        var names: [String] = []
        for file in files {
            guard let data = FileManager.default.contents(atPath: file), data.count <= 4 << 20 else { continue }
            for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
                let words = line.split(separator: " ", omittingEmptySubsequences: true)
                guard words.count >= 3, !words[0].hasPrefix("#"), !words[0].hasPrefix("@"),
                      Data(base64Encoded: String(words[2])).map(Array.init) == hostKey else { continue }
                for name in words[0].split(separator: ",") where !name.hasPrefix("|") && !names.contains(String(name)) { names.append(String(name)) }
            }
        }
        return names
    }
}
