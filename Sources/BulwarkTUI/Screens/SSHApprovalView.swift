import BulwarkCore
import Foundation

/// The SSH agent's question, over everything: which key, which process
/// asks and for which host, then y or n.
enum SSHApprovalView {
    static func render(_ state: AppState, into buffer: inout Buffer) {
        guard let question = state.sshApprovals.first else { return }
        let width = min(buffer.width - 4, 72)
        let valueWidth = max(1, width - 4 - 10)
        let rows: [(String, String)] = [
            ("Key", "\(question.key)  \(question.fingerprint)"),
            ("Asked by", "\(question.process) (pid \(question.pid))"),
            ("Host", question.host ?? "none named (a signature that is not a login, such as ssh-keygen -Y)"),
        ]
        let laid = rows.map { ($0.0, Array(Paragraph($0.1).layout(width: valueWidth).prefix(3))) }
        let explanation = Paragraph(question.once
            ? "The key's entry asks once per unlock: after a yes it signs without asking until the vault locks."
            : "The key's entry asks every time. Nothing is signed until you answer.")
        let explained = explanation.layout(width: max(1, width - 4))
        let height = laid.reduce(0) { $0 + $1.1.count } + explained.count + 6
        let waiting = state.sshApprovals.count - 1
        let inner = Modal.render(into: &buffer, within: buffer.area, width: width, height: min(buffer.height - 2, height),
                                 title: Line("Sign with an SSH key?", Theme.warning),
                                 rightTitle: waiting > 0 ? Line("\(waiting) more waiting", Theme.dim) : nil)
        var y = inner.y + 1
        for (label, lines) in laid {
            buffer.put(label, x: inner.x, y: y, style: Theme.label, clip: inner)
            for line in lines {
                line.render(into: &buffer, x: inner.x + 10, y: y, clip: inner)
                y += 1
            }
        }
        explanation.render(into: &buffer, area: Rect(x: inner.x, y: y + 1, width: inner.width, height: max(0, inner.maxY - 1 - (y + 1))))
        Footer.render(into: &buffer, area: Rect(x: inner.x, y: inner.maxY - 1, width: inner.width, height: 1),
                      hints: Keymaps.sshApproval(state).footerHints, keyStyle: Theme.key)
    }
}
