import BulwarkCore
import Foundation
import Synchronization
import Testing
@testable import BulwarkTUI

/// The SSH agent's question in the app: over whatever is open, y or n and
/// nothing else, the answer sent back; a locked app answers none, a lock
/// declines what waits, and a question its agent withdrew goes away.
@Suite struct SSHApprovalSheetTests {
    final class Answers: SSHApprovalClient {
        let sent = Mutex<[String]>([])
        func answer(_ id: UInt64, _ answer: SSHApprovalAnswer) { sent.withLock { $0.append("\(id) \(answer.rawValue)") } }
        var all: [String] { sent.withLock { $0 } }
    }

    static func question(_ id: UInt64, once: Bool = false, bound: Bool = true) -> SSHApprovalQuestion {
        SSHApprovalQuestion(id: id, vault: "/home/jane/vault.db", key: "Work laptop", fingerprint: "SHA256:zSLQI/bdUDQ6RVQk1SazS4enow1b+d2ChT1tXGG4JPk",
                            process: "ssh -T git@git.example.com", pid: 4242,
                            hostKey: bound ? "SHA256:2Vh0mO0wq3cXJ4m3nRvUqv3k9oXJb8LZcM0qGq6j5Yk" : nil, hostNames: bound ? ["git.example.com"] : [], once: once)
    }

    @Test(arguments: [(80, 24), (60, 16), (120, 40)])
    func theSheetNamesTheKeyTheProcessAndTheHost(width: Int, height: Int) async throws {
        let answers = Answers()
        let f = try AppFixture(width: width, height: height, approvals: answers)
        f.store.send(.sshApproval(.asked(Self.question(7))))
        f.golden("ssh-approval")
        #expect(Keymaps.active(f.state).footerHints.map(\.label) == ["approve", "decline"])
        await f.press(.char("y"))
        #expect(answers.all == ["7 approved"])
        #expect(f.state.sshApprovals.isEmpty && f.state.status == "Approved: ssh signs with Work laptop.")
    }

    @Test func onceAndUnboundSayWhatTheyMean() async throws {
        let f = try AppFixture(approvals: Answers())
        f.store.send(.sshApproval(.asked(Self.question(1, once: true, bound: false))))
        let screen = AppView.render(f.state).textDump()
        #expect(screen.contains("The key's entry asks once per unlock: after a yes it signs without"))
        #expect(screen.contains("Host      none named (a signature that is not a login, such as"))
    }

    /// Over a dialog, other keys go nowhere (not into its field); the dialog is there after the answer.
    @Test func overADialogOnlyTheAnswerIsTaken() async throws {
        let answers = Answers()
        let f = try AppFixture(approvals: answers)
        await f.press(.char("/"))
        await f.type("Sh")
        f.store.send(.sshApproval(.asked(Self.question(1))))
        f.store.send(.sshApproval(.asked(Self.question(2))))
        #expect(AppView.render(f.state).textDump().contains("1 more waiting"))
        await f.press(.char("x"), .enter, .char("q"))
        #expect(answers.all.isEmpty && f.state.search?.text == "Sh" && f.state.sshApprovals.count == 2)
        await f.press(.char("n"))
        #expect(answers.all == ["1 declined"] && f.state.status == "Declined: nothing was signed with Work laptop.")
        await f.press(.escape)
        #expect(answers.all == ["1 declined", "2 declined"] && f.state.sshApprovals.isEmpty)
        await f.press(.char("e"))
        #expect(f.state.search?.text == "She")
    }

    @Test func aLockedAppAnswersNoneAndALockDeclinesWhatWaits() async throws {
        let answers = Answers()
        let locked = try AppFixture(unlocked: false, approvals: answers)
        locked.store.send(.sshApproval(.asked(Self.question(3))))
        await locked.store.settle()
        #expect(answers.all == ["3 unavailable"] && locked.state.sshApprovals.isEmpty)
        let f = try AppFixture(approvals: answers)
        f.store.send(.sshApproval(.asked(Self.question(4))))
        f.store.send(.lock)
        await f.store.settle()
        #expect(answers.all == ["3 unavailable", "4 declined"] && f.state.sshApprovals.isEmpty && !f.state.unlocked)
    }

    @Test func aWithdrawnQuestionGoesAway() async throws {
        let answers = Answers()
        let f = try AppFixture(approvals: answers)
        f.store.send(.sshApproval(.asked(Self.question(5))))
        f.store.send(.sshApproval(.withdrawn(5)))
        #expect(f.state.sshApprovals.isEmpty && f.state.status == "The SSH agent stopped waiting: nothing was signed with Work laptop.")
        await f.press(.char("y"))
        #expect(answers.all.isEmpty)
    }
}
