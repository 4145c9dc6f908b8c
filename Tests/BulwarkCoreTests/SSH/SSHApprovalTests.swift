import Foundation
import Synchronization
import Testing
@testable import BulwarkCore
#if canImport(Glibc)
import Glibc
#endif

/// Approvals in the core: what an entry says, the question's line, and the
/// agent's approver asking the app's listener (another vault's app passes
/// it on), a command, or nobody, with "once per unlock" remembered per key
/// until the unlock changes and nothing signed while the vault is locked.
@Suite(.serialized) struct SSHApprovalTests {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("bulwark-approval-\(UUID().uuidString.prefix(8))")
    var socket: String { dir.appendingPathComponent("run/approvals.sock").path }

    init() throws { try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true) }

    static let key = try! SSHPrivateKey.generateEd25519()

    static func identity(_ approval: SSHApprovalPolicy, title: String = "Work laptop") -> SSHAgentIdentity {
        SSHAgentIdentity(key: key, comment: title, approval: approval)
    }

    @Test func theEntrySaysWhenAndUnreadableWordsAsk() {
        var entry = Entry(title: "Laptop", kind: .sshKey)
        #expect(SSHApprovalPolicy.of(entry) == .once)
        SSHApprovalPolicy.never.write(to: &entry)
        #expect(SSHApprovalPolicy.of(entry) == .never && entry.fields.map(\.name) == ["Signature approval"])
        SSHApprovalPolicy.ask.write(to: &entry)
        #expect(entry.fields.map(\.value) == ["ask every time"])
        entry.fields[0].value = "whenever"
        #expect(SSHApprovalPolicy.of(entry) == .ask)
        #expect(SSHApprovalPolicy(word: " ONCE ") == .once && SSHApprovalPolicy(word: "once per unlock") == .once && SSHApprovalPolicy(word: "sometimes") == nil)
    }

    @Test func theQuestionTravelsAsOneLineMadeVisible() {
        let question = SSHApprovalQuestion(vault: "/v.db", key: "Evil\u{1B}[2Jkey", fingerprint: "SHA256:abc", process: "ssh\u{7}host", pid: 12,
                                           hostKey: "SHA256:def", hostNames: ["git.example.com"], once: true)
        #expect(!question.key.contains("\u{1B}") && !question.process.contains("\u{7}"))
        let line = question.line
        #expect(line.last == 0x0A && line.dropLast().allSatisfy { $0 != 0x0A })
        #expect(SSHApprovalQuestion.parse(Array(line.dropLast()), id: 9) == { var q = question; q.id = 9; return q }())
        #expect(SSHApprovalQuestion.parse(Array("{\"vault\":1}".utf8), id: 1) == nil)
        #expect(question.sentence == "\(question.process) (pid 12) asks to sign with \(question.key) (SHA256:abc) for git.example.com (SHA256:def).")
        #expect(SSHApprovalAnswer.parse(SSHApprovalAnswer.declined.line.dropLast().map { $0 }) == .declined)
    }

    /// What the listener heard, from its threads.
    final class Heard<T: Sendable>: Sendable {
        private let items = Mutex<[T]>([])
        private let arrived = DispatchSemaphore(value: 0)
        func add(_ item: T) {
            items.withLock { $0.append(item) }
            arrived.signal()
        }
        var all: [T] { items.withLock { $0 } }
        /// Waits for the next item to come (the listener's thread decides when), up to 10 s.
        func waitForOne() -> Bool { arrived.wait(timeout: .now() + 10) == .success }
    }

    /// A listener whose person answers `reply` to every question, on another thread, as the app's keys would.
    func listener(vault: String, reply: SSHApprovalAnswer?, asked: Heard<SSHApprovalQuestion>, withdrawn: Heard<UInt64>) throws -> SSHApprovalListener {
        let box = Mutex<SSHApprovalListener?>(nil)
        let made = try SSHApprovalListener(path: socket, vault: vault, ask: { question in
            asked.add(question)
            if let reply { Thread { box.withLock { $0 }?.answer(question.id, reply) }.start() }
        }, withdrawn: { id in withdrawn.add(id) })
        box.withLock { $0 = made }
        return made
    }

    @Test func theAppApprovesOrDeclinesAndAnotherVaultsAppPassesItOn() throws {
        let asked = Heard<SSHApprovalQuestion>(), withdrawn = Heard<UInt64>()
        let app = try listener(vault: "/v.db", reply: .approved, asked: asked, withdrawn: withdrawn)
        var logged: [String] = []
        let approver = SSHApprover(vault: "/v.db", channels: [.app(socket: socket)], knownHosts: []) { "unlock-1" }
        var connection = SSHAgentProtocol.Connection(peerPID: getpid())
        connection.boundHostKey = Self.key.publicBlob
        #expect(approver.decide(Self.identity(.ask), connection) { logged.append($0) } == nil)
        #expect(logged == ["the app approved a signature with Work laptop for \(SSHApprover.commandLine(of: getpid()))"])
        let question = try #require(asked.all.first)
        #expect(question.key == "Work laptop" && question.pid == getpid() && question.hostKey == Self.key.fingerprint && !question.once)
        #expect(question.process.contains("xctest") || question.process.contains("swiftpm-testing-helper") || question.process.contains("bulwark"), "\(question.process)")
        app.stop()
        // An app on another vault answers unavailable: the next channel is asked, and with none left it is refused.
        let other = try listener(vault: "/other.db", reply: .approved, asked: asked, withdrawn: withdrawn)
        defer { other.stop() }
        let refusal = approver.decide(Self.identity(.ask), connection) { logged.append($0) }
        #expect(refusal?.hasPrefix("refused to sign with Work laptop: its entry asks for approval and there is nobody to ask") == true)
        #expect(asked.all.count == 1)
    }

    @Test func anUnansweredQuestionIsDeclinedAndWithdrawnFromTheApp() throws {
        let asked = Heard<SSHApprovalQuestion>(), withdrawn = Heard<UInt64>()
        let app = try listener(vault: "/v.db", reply: nil, asked: asked, withdrawn: withdrawn)
        defer { app.stop() }
        let approver = SSHApprover(vault: "/v.db", channels: [.app(socket: socket)], waitSeconds: 1, knownHosts: []) { "unlock-1" }
        #expect(approver.decide(Self.identity(.ask), SSHAgentProtocol.Connection()) { _ in } == "not signed with Work laptop: declined in the app")
        #expect(withdrawn.waitForOne() && withdrawn.all == [asked.all.first?.id ?? 0])
    }

    @Test func oncePerUnlockIsRememberedPerKeyUntilTheUnlockChanges() throws {
        let script = dir.appendingPathComponent("approve").path
        let count = dir.appendingPathComponent("count").path
        try "#!/bin/sh\necho \"$BULWARK_SSH_KEY\" >> \(count)\nexit 0\n".write(toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o755)
        let unlock = Mutex<String?>("unlock-1")
        let approver = SSHApprover(vault: "/v.db", channels: [.app(socket: socket), .command(script)], knownHosts: []) { unlock.withLock { $0 } }
        let gate = approver.gate { _ in }
        let asks = { ((try? String(contentsOfFile: count, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init) }
        let laptop = Self.identity(.once)
        #expect(gate.signing(laptop, .init()) == nil && gate.signing(laptop, .init()) == nil)
        #expect(asks() == ["Work laptop"])
        #expect(gate.signing(Self.identity(.never, title: "Never"), .init()) == nil && asks() == ["Work laptop"])
        #expect(gate.signing(Self.identity(.ask, title: "Every"), .init()) == nil && gate.signing(Self.identity(.ask, title: "Every"), .init()) == nil)
        #expect(asks() == ["Work laptop", "Every", "Every"])
        unlock.withLock { $0 = nil }
        #expect(!gate.listing())
        #expect(gate.signing(laptop, .init()) == "refused to sign with Work laptop: the vault is locked (bulwark unlock)")
        unlock.withLock { $0 = "unlock-2" }
        #expect(gate.listing())
        #expect(gate.signing(laptop, .init()) == nil && gate.signing(laptop, .init()) == nil)
        #expect(asks() == ["Work laptop", "Every", "Every", "Work laptop"])
    }

    @Test func aCommandThatSaysNoOrCannotRunIsNotAYes() throws {
        let no = dir.appendingPathComponent("no").path
        try "#!/bin/sh\nexit 1\n".write(toFile: no, atomically: true, encoding: .utf8)
        chmod(no, 0o755)
        let declining = SSHApprover(vault: "/v.db", channels: [.command(no)], knownHosts: []) { "u" }
        #expect(declining.decide(Self.identity(.ask), .init()) { _ in } == "not signed with Work laptop: declined in the approval command")
        let missing = SSHApprover(vault: "/v.db", channels: [.command(dir.appendingPathComponent("absent").path), .terminal(device: "/nonexistent/tty")],
                                  knownHosts: []) { "u" }
        #expect(missing.decide(Self.identity(.ask), .init()) { _ in }?.hasPrefix("refused to sign with Work laptop: its entry asks for approval and there is nobody to ask") == true)
        #expect(missing.fallbacks.hasPrefix("by \(dir.path)/absent"))
    }

    @Test func knownHostsNamesAHostKeyFromPlainEntriesOnly() throws {
        let file = dir.appendingPathComponent("known_hosts").path
        let blob = Data(Self.key.publicBlob).base64EncodedString()
        try """
        # a comment
        git.example.com,192.0.2.7 ssh-ed25519 \(blob)
        |1|salt=|hash= ssh-ed25519 \(blob)
        @revoked old.example.com ssh-ed25519 \(blob)
        other.example.com ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBad
        [git.example.com]:2222 ssh-ed25519 \(blob) comment
        """.write(toFile: file, atomically: true, encoding: .utf8)
        #expect(SSHKnownHosts.names(for: Self.key.publicBlob, files: [file, "/nonexistent"]) == ["git.example.com", "192.0.2.7", "[git.example.com]:2222"])
    }
}
