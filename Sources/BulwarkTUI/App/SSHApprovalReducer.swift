import BulwarkCore
import Foundation

/// The SSH agent's questions: shown one at a time over whatever is open
/// (that dialog comes back after the answer), answered with y or n. A
/// locked app answers none (the agent asks elsewhere): a question must not
/// be a way past the lock screen. A lock or quit declines what is waiting.
enum SSHApprovalReducer {
    static func reduce(_ action: SSHApprovalAction, _ state: inout AppState) -> Effect {
        switch action {
        case .asked(let question):
            guard state.unlocked else { return send(question.id, .unavailable) }
            state.sshApprovals.append(question)
            return .none
        case .withdrawn(let id):
            guard let index = state.sshApprovals.firstIndex(where: { $0.id == id }) else { return .none }
            let question = state.sshApprovals.remove(at: index)
            state.status = "The SSH agent stopped waiting: nothing was signed with \(question.key)."
            return .none
        case .answer(let yes):
            guard !state.sshApprovals.isEmpty else { return .none }
            let question = state.sshApprovals.removeFirst()
            state.status = yes ? "Approved: \(shortProcess(question)) signs with \(question.key)." : "Declined: nothing was signed with \(question.key)."
            return send(question.id, yes ? .approved : .declined)
        }
    }

    /// What a lock does to the questions waiting: each declined.
    static func declineAll(_ state: AppState) -> Effect {
        let ids = state.sshApprovals.map(\.id)
        guard !ids.isEmpty else { return .none }
        return .run { env in
            for id in ids { env.approvals?.answer(id, .declined) }
            return nil
        }
    }

    static func send(_ id: UInt64, _ answer: SSHApprovalAnswer) -> Effect {
        .run { env in
            env.approvals?.answer(id, answer)
            return nil
        }
    }

    /// The program's name: the first word of its command line, without its folder.
    static func shortProcess(_ question: SSHApprovalQuestion) -> String {
        let program = question.process.split(separator: " ").first.map(String.init) ?? question.process
        return program.split(separator: "/").last.map(String.init) ?? program
    }
}
