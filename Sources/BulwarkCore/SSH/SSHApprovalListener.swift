import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The open app's side of SSH approvals: it listens on the approvals
/// socket beside `bulwark agent`'s, hands each question from its own user's
/// SSH agent to `ask` (the app shows a sheet), and writes the answer the
/// person gives back through `answer`. A question for another vault is
/// answered `unavailable` at once; one whose agent hangs up (it stopped
/// waiting) is `withdrawn`. One thread accepts, one waits per question.
public final class SSHApprovalListener: Sendable {
    /// Where the app listens: beside the agent's socket.
    public static func path(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        (AgentSocket.path(environment) as NSString).deletingLastPathComponent + "/approvals.sock"
    }

    private final class Waiting: Sendable {
        let descriptor: Int32
        /// Taken by whoever ends the question first: the answer, or the agent's hang-up.
        let ended = Mutex(false)
        init(_ descriptor: Int32) { self.descriptor = descriptor }
    }

    private let listener: Int32
    private let path: String
    private let vault: String
    private let waiting = Mutex<[UInt64: Waiting]>([:])
    private let nextID = Mutex<UInt64>(1)
    private let stopped = Mutex(false)
    private let ask: @Sendable (SSHApprovalQuestion) -> Void
    private let withdrawn: @Sendable (UInt64) -> Void

    /// Listens for questions about `vault` (its resolved path); throws when
    /// another app already does, or the folder is not the user's alone.
    public init(path: String = SSHApprovalListener.path(), vault: String, ask: @escaping @Sendable (SSHApprovalQuestion) -> Void,
                withdrawn: @escaping @Sendable (UInt64) -> Void) throws(AgentSocket.Failure) {
        listener = try AgentSocket.listen(at: path, answering: "another bulwark app takes the SSH agent's questions")
        self.path = path
        self.vault = vault
        self.ask = ask
        self.withdrawn = withdrawn
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "ssh-approvals"
        thread.start()
    }

    /// The person's answer to question `id` (nothing when its agent already hung up).
    public func answer(_ id: UInt64, _ answer: SSHApprovalAnswer) {
        guard let question = waiting.withLock({ $0.removeValue(forKey: id) }) else { return }
        question.ended.withLock { ended in
            guard !ended else { return }
            ended = true
            _ = AgentSocket.writeAll(question.descriptor, answer.line)
            shutdown(question.descriptor, Int32(SHUT_RDWR))  // wakes the question's thread, which closes it
        }
    }

    /// Stops listening (the app quits or locks): every open question is declined.
    public func stop() {
        guard !stopped.withLock({ let was = $0; $0 = true; return was }) else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        unlink(path)
        for id in waiting.withLock({ Array($0.keys) }) { answer(id, .declined) }
    }

    private func acceptLoop() {
        defer { close(listener) }
        while !stopped.withLock({ $0 }) {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                return
            }
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)
            let thread = Thread { [self] in serve(client) }
            thread.name = "ssh-approval"
            thread.start()
        }
    }

    private func serve(_ client: Int32) {
        guard AgentSocket.peerUID(client) == getuid() else { close(client); return }
        AgentSocket.setTimeout(client, seconds: 2)
        let id = nextID.withLock { id in defer { id += 1 }; return id }
        guard let line = AgentSocket.readLine(client), let question = SSHApprovalQuestion.parse(line, id: id) else { close(client); return }
        guard question.vault == vault, !stopped.withLock({ $0 }) else {
            _ = AgentSocket.writeAll(client, SSHApprovalAnswer.unavailable.line)
            close(client)
            return
        }
        let entry = Waiting(client)
        waiting.withLock { $0[id] = entry }
        ask(question)
        // Until the answer shuts the connection down, or the agent hangs up.
        var poller = pollfd(fd: client, events: Int16(POLLIN), revents: 0)
        while poll(&poller, 1, -1) < 0 && errno == EINTR {}
        let hungUp = entry.ended.withLock { ended in defer { ended = true }; return !ended }
        if hungUp {
            waiting.withLock { _ = $0.removeValue(forKey: id) }
            withdrawn(id)
        }
        close(client)
    }
}
