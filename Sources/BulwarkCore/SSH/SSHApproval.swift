import Foundation

/// Whether `bulwark ssh-agent` asks before it signs with a key, as the
/// key's entry says in its field "Signature approval": every time, once
/// per unlock of the vault (the first signature after each unlock asks),
/// or never (OpenSSH's own agent without `-c`).
public enum SSHApprovalPolicy: String, Sendable, CaseIterable {
    case ask = "ask every time"
    case once = "once per unlock"
    case never = "never"

    public static let fieldName = "Signature approval"
    /// A key whose entry does not say (one made elsewhere and imported).
    public static let standard = SSHApprovalPolicy.once

    /// From its word (`ask`, `once`, `never`) or the field's own words, in any case.
    public init?(word: String) {
        let word = word.trimmingCharacters(in: .whitespaces).lowercased()
        guard let policy = Self.allCases.first(where: { $0.rawValue == word || $0.word == word }) else { return nil }
        self = policy
    }

    /// The short word the commands take.
    public var word: String {
        switch self {
        case .ask: "ask"
        case .once: "once"
        case .never: "never"
        }
    }

    /// What the entry says; a field that says something else asks every time (the safe side).
    public static func of(_ entry: Entry) -> SSHApprovalPolicy {
        guard let field = entry.fields.first(where: { $0.name.caseInsensitiveCompare(fieldName) == .orderedSame }) else { return standard }
        return SSHApprovalPolicy(word: field.value) ?? .ask
    }

    /// Says `self` in the entry's field, made if need be.
    public func write(to entry: inout Entry) {
        if let index = entry.fields.firstIndex(where: { $0.name.caseInsensitiveCompare(Self.fieldName) == .orderedSame }) {
            entry.fields[index].value = rawValue
        } else {
            entry.fields.append(CustomField(name: Self.fieldName, value: rawValue, hidden: false))
        }
    }
}

/// What the SSH agent asks before a signature: which key, for which
/// process and, when ssh bound the session (`session-bind@openssh.com`),
/// which host. Every text is made visible (`TerminalText`) before it is
/// put here: it is drawn on screens and terminals.
public struct SSHApprovalQuestion: Equatable, Sendable {
    public var id: UInt64
    /// The vault the key is in (the agent's name for it: its resolved path).
    public var vault: String
    public var key: String
    public var fingerprint: String
    /// The asking process's command line, cut to `maximumProcess` characters, or "an unknown process".
    public var process: String
    public var pid: Int32
    /// The fingerprint of the host key the session is bound to.
    public var hostKey: String?
    /// The names ~/.ssh/known_hosts gives that host key (plain entries only: hashed ones cannot be read back).
    public var hostNames: [String]
    /// The key is set to "once per unlock": a yes lasts until the vault locks.
    public var once: Bool

    public static let maximumProcess = 160

    public init(id: UInt64 = 0, vault: String, key: String, fingerprint: String, process: String, pid: Int32,
                hostKey: String? = nil, hostNames: [String] = [], once: Bool = false) {
        self.id = id
        self.once = once
        self.vault = vault
        self.key = TerminalText.visible(key)
        self.fingerprint = TerminalText.visible(fingerprint)
        self.process = TerminalText.visible(process)
        self.pid = pid
        self.hostKey = hostKey.map { TerminalText.visible($0) }
        self.hostNames = hostNames.map { TerminalText.visible($0) }
    }

    /// "127.0.0.1 (SHA256:…)", the host key alone, or nil for a signature no session is bound to (ssh-keygen -Y).
    public var host: String? {
        guard let hostKey else { return nil }
        return hostNames.isEmpty ? "the host with key \(hostKey)" : "\(hostNames.joined(separator: ", ")) (\(hostKey))"
    }

    /// One line, for a terminal prompt or an approval command.
    public var sentence: String {
        "\(process) (pid \(pid)) asks to sign with \(key) (\(fingerprint))" + (host.map { " for \($0)" } ?? "") + "."
    }

    /// The question as its line on the approvals socket (docs/manual/agent.md).
    public var line: [UInt8] {
        var object: [String: Any] = ["vault": vault, "key": key, "fingerprint": fingerprint, "process": process, "pid": Int(pid), "hostNames": hostNames, "once": once]
        if let hostKey { object["hostKey"] = hostKey }
        return AgentLine.encode(object)
    }

    /// From its line; nil when it is not one (over 64 KiB, not an object, a member missing).
    public static func parse(_ bytes: [UInt8], id: UInt64) -> SSHApprovalQuestion? {
        guard bytes.count <= AgentRequest.maximumBytes, let object = (try? JSONStream.parse(Data(bytes))) as? JSONObject,
              let vault = object["vault"] as? String, let key = object["key"] as? String, let fingerprint = object["fingerprint"] as? String,
              let process = object["process"] as? String, let pid = object["pid"] as? Int, let pid32 = Int32(exactly: pid) else { return nil }
        let names = (object["hostNames"] as? [Any] ?? []).compactMap { $0 as? String }
        return SSHApprovalQuestion(id: id, vault: vault, key: String(key.prefix(200)), fingerprint: String(fingerprint.prefix(100)),
                                   process: String(process.prefix(maximumProcess)), pid: pid32,
                                   hostKey: (object["hostKey"] as? String).map { String($0.prefix(100)) }, hostNames: names.prefix(8).map { String($0.prefix(100)) },
                                   once: object["once"] as? Bool ?? false)
    }
}

/// The answer to a question: approved, declined, or not asked here (the
/// app is locked, or open on another vault), so the agent asks elsewhere.
public enum SSHApprovalAnswer: String, Sendable, Equatable {
    case approved, declined, unavailable

    public var line: [UInt8] { AgentLine.encode(["answer": rawValue]) }

    public static func parse(_ bytes: [UInt8]) -> SSHApprovalAnswer? {
        guard let object = (try? JSONStream.parse(Data(bytes))) as? JSONObject, let word = object["answer"] as? String else { return nil }
        return SSHApprovalAnswer(rawValue: word)
    }
}
