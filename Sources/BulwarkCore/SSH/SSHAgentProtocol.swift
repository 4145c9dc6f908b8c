import Foundation

/// One key the SSH agent serves: a vault entry's, named by its title.
public struct SSHAgentIdentity: Sendable {
    public let key: SSHPrivateKey
    public let comment: String
    public let blob: [UInt8]
    /// Whether a signature waits for the person's yes (`SSHApprover`).
    public let approval: SSHApprovalPolicy

    public init(key: SSHPrivateKey, comment: String, approval: SSHApprovalPolicy = .never) {
        self.key = key
        self.comment = comment
        self.approval = approval
        blob = key.publicBlob
    }
}

/// What stands between a request and its answer: whether the keys are
/// listed at all (not while the vault is locked), and whether a signature
/// may be made (nil) or is refused (the log's line). Open by default.
public struct SSHAgentGate {
    public var listing: () -> Bool
    public var signing: (SSHAgentIdentity, SSHAgentProtocol.Connection) -> String?

    public init(listing: @escaping () -> Bool = { true }, signing: @escaping (SSHAgentIdentity, SSHAgentProtocol.Connection) -> String? = { _, _ in nil }) {
        self.listing = listing
        self.signing = signing
    }
}

/// The ssh-agent protocol (draft-miller-ssh-agent) as bulwark answers it:
/// the vault's keys listed and used to sign; keys are never added or
/// removed through it, nor the agent locked (the vault does that), each
/// refused with SSH_AGENT_FAILURE and a line in the log. A message is its
/// type byte and contents, without the length in front.
public enum SSHAgentProtocol {
    static let failure: UInt8 = 5, success: UInt8 = 6
    static let requestIdentities: UInt8 = 11, identitiesAnswer: UInt8 = 12, signRequest: UInt8 = 13, signResponse: UInt8 = 14
    /// Protocol 1's "remove all", which ssh-add -D still sends first.
    static let removeAllVersion1: UInt8 = 9
    static let addIdentity: UInt8 = 17, removeIdentity: UInt8 = 18, removeAll: UInt8 = 19, addSmartcard: UInt8 = 20,
               removeSmartcard: UInt8 = 21, lock: UInt8 = 22, unlock: UInt8 = 23, addConstrained: UInt8 = 25,
               addSmartcardConstrained: UInt8 = 26, extensionRequest: UInt8 = 27
    /// A larger message is refused and its connection closed (OpenSSH's agent allows 256 KiB).
    public static let maximumMessage = 256 * 1024

    /// What a connection has said of itself (`session-bind@openssh.com`: the host it is signing for).
    public struct Connection: Sendable {
        public var boundHostKey: [UInt8]?
        /// The connected process, from the kernel (0 when unknown).
        public var peerPID: Int32 = 0
        public init(peerPID: Int32 = 0) { self.peerPID = peerPID }
    }

    /// The answer to one message; `log` hears what was refused and why, and each signature.
    public static func answer(_ message: [UInt8], identities: [SSHAgentIdentity], connection: inout Connection,
                              gate: SSHAgentGate = SSHAgentGate(), log: (String) -> Void) -> [UInt8] {
        var reader = SSHReader(message)
        guard let type = reader.byte() else { return [failure] }
        switch type {
        case requestIdentities:
            // A locked vault's keys are not listed (as OpenSSH's locked agent lists none).
            let listed = gate.listing() ? identities : []
            var out = SSHWriter()
            out.byte(identitiesAnswer)
            out.uint32(UInt32(listed.count))
            for identity in listed {
                out.string(identity.blob)
                out.string(identity.comment)
            }
            return out.bytes
        case signRequest:
            guard let blob = reader.string(), let data = reader.string(), let flags = reader.uint32() else {
                log("refused a signature request that is cut short")
                return [failure]
            }
            guard let identity = identities.first(where: { $0.blob == blob }) else {
                log("refused to sign with a key the vault does not hold")
                return [failure]
            }
            if let refusal = gate.signing(identity, connection) {
                log(refusal)
                return [failure]
            }
            do {
                let signature = try SSHSignature.sign(data, with: identity.key, flags: flags)
                let host = connection.boundHostKey.map { " for a session bound to host key " + SSHPrivateKey.fingerprint(of: $0) } ?? ""
                log("signed with \(TerminalText.visible(identity.comment))" + host)
                var out = SSHWriter()
                out.byte(signResponse)
                out.string(signature)
                return out.bytes
            } catch {
                log("could not sign with \(TerminalText.visible(identity.comment)): \(error)")
                return [failure]
            }
        case extensionRequest:
            guard let name = reader.text() else { return [failure] }
            if name == "session-bind@openssh.com", let hostKey = reader.string() {
                connection.boundHostKey = hostKey
                return [success]
            }
            log("refused the extension \(TerminalText.visible(String(name.prefix(60))))")
            return [failure]
        case addIdentity, addConstrained, addSmartcard, addSmartcardConstrained:
            log("refused to add a key: bulwark's SSH agent serves the vault's keys (bulwark ssh-key import adds one to the vault)")
            return [failure]
        case removeIdentity, removeAll, removeSmartcard, removeAllVersion1:
            log("refused to remove a key: the vault's keys are removed in the vault")
            return [failure]
        case lock, unlock:
            log("refused ssh-add's lock: bulwark lock locks the vault")
            return [failure]
        default:
            log("refused a message of unknown type \(type)")
            return [failure]
        }
    }
}
