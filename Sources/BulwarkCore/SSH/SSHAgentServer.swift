import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `bulwark ssh-agent`'s loop: many connections at once (ssh keeps its
/// own open for the session), each message framed by its length, every
/// peer's user checked as `bulwark agent` checks it. A message over the
/// limit, or a peer of another user, ends that connection; nothing ends
/// the agent but `stop` (a signal).
public final class SSHAgentServer {
    private let listener: Int32
    private let identities: [SSHAgentIdentity]
    private let owner: uid_t
    private let log: (String) -> Void
    private let gate: SSHAgentGate
    private var connections: [Int32: (buffer: [UInt8], state: SSHAgentProtocol.Connection)] = [:]
    public static let maximumConnections = 64

    /// `gate`: what is listed and what signed (`SSHApprover` asks the person; a signature waits for the answer, as OpenSSH's `-c` does).
    public init(listening listener: Int32, identities: [SSHAgentIdentity], owner: uid_t = getuid(), gate: SSHAgentGate = SSHAgentGate(),
                log: @escaping (String) -> Void) {
        self.listener = listener
        self.gate = gate
        self.identities = identities
        self.owner = owner
        self.log = log
    }

    /// Serves until `stop()` returns true (checked at least once a second).
    public func run(until stop: () -> Bool) {
        defer { for descriptor in connections.keys { close(descriptor) } }
        while !stop() {
            var polled = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0)] + connections.keys.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let ready = poll(&polled, nfds_t(polled.count), 1000)
            if ready <= 0 { continue }
            for entry in polled.dropFirst() where entry.revents != 0 { receive(entry.fd) }
            if polled[0].revents & Int16(POLLIN) != 0 { accept() }
        }
    }

    private func accept() {
        let client = Glibc.accept(listener, nil, nil)
        guard client >= 0 else { return }
        _ = fcntl(client, F_SETFD, FD_CLOEXEC)
        AgentSocket.setTimeout(client, seconds: 2)  // a peer that stops reading holds the loop up for 2 seconds at most
        guard let uid = AgentSocket.peerUID(client), uid == owner else {
            log("refused a connection from another user (uid \(AgentSocket.peerUID(client).map(String.init) ?? "unknown"))")
            close(client)
            return
        }
        guard connections.count < Self.maximumConnections else {
            log("refused a connection: \(Self.maximumConnections) are open")
            close(client)
            return
        }
        connections[client] = ([], SSHAgentProtocol.Connection(peerPID: AgentSocket.peerPID(client) ?? 0))
    }

    private func receive(_ descriptor: Int32) {
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0, var connection = connections[descriptor] else { drop(descriptor); return }
        connection.buffer += chunk[0..<count]
        // Each whole message answered in turn; a part of one waits for the rest.
        while connection.buffer.count >= 4 {
            let length = Int(connection.buffer[0..<4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
            guard length > 0, length <= SSHAgentProtocol.maximumMessage else {
                log("closed a connection that sent a message of \(length) bytes (at most \(SSHAgentProtocol.maximumMessage))")
                drop(descriptor)
                return
            }
            guard connection.buffer.count >= 4 + length else { break }
            let message = Array(connection.buffer[4..<4 + length])
            connection.buffer.removeFirst(4 + length)
            let answer = SSHAgentProtocol.answer(message, identities: identities, connection: &connection.state, gate: gate, log: log)
            var framed = SSHWriter()
            framed.string(answer)
            guard AgentSocket.writeAll(descriptor, framed.bytes) else { drop(descriptor); return }
        }
        connections[descriptor] = connection
    }

    private func drop(_ descriptor: Int32) {
        connections[descriptor] = nil
        close(descriptor)
    }
}
