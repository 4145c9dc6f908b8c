import BulwarkCore
import Foundation

/// One of the app's own changes to the vault, as it can be taken back
/// with `z` (lazygit's undo): the entry as it was before the change (a new
/// entry is taken back by deleting it). A change that reached a service is not one of these:
/// bulwark cannot take it back there.
public struct UndoStep: Sendable, Equatable {
    /// "your edit of Mail", as the log and the banner say it.
    public var what: String
    /// The entry as it was (an edit, a hide, a delete): put back.
    public var before: Entry
}

public enum UndoAction: Sendable, Equatable {
    case undo
}

extension AppState {
    /// The most undo steps kept.
    static let undoLimit = 20

    /// A change about to be written: kept as undoable once the vault says it was.
    mutating func expectUndo(_ what: String, _ before: Entry) {
        pendingUndo = UndoStep(what: what, before: before)
    }

    /// The vault answered: a change written goes on the undo stack, one refused does not.
    mutating func settleUndo(written: Bool) {
        defer { pendingUndo = nil }
        guard written, let step = pendingUndo else { return }
        undoSteps.append(step)
        if undoSteps.count > Self.undoLimit { undoSteps.removeFirst() }
    }
}

enum UndoReducer {
    static func reduce(_ action: UndoAction, _ state: inout AppState) -> Effect {
        switch action {
        case .undo:
            guard let step = state.undoSteps.popLast() else {
                state.status = "Nothing to undo: bulwark takes back its own changes to the vault (an upgrade reached its service and cannot be taken back there)."
                return .none
            }
            state.logged("Undo: \(step.what)", ok: nil)
            return .run { env in
                guard let vault = env.vault else { return nil }
                do {
                    let (snapshot, lost) = try vault.restoreEntry(step.before)
                    let files = lost.isEmpty ? "" : " Its files went with the delete and cannot come back: \(lost.joined(separator: ", "))."
                    return .vault(.updated(snapshot, banner: Banner(ok: true, text: "Undid \(step.what)." + files)))
                } catch {
                    return .vault(.failed("Could not undo \(step.what): \(error)."))
                }
            }
        }
    }
}
