import BulwarkCore
import Foundation

/// Other processes writing to the vault: each idle tick looks for their
/// changes; an edit that met one waits for the person's choice.
enum OtherWritersReducer {
    /// How long without a key before the idle work (`VaultClient.tidyWhileIdle`).
    static let tidyAfter: TimeInterval = 2
    static func reduce(_ action: OtherWritersAction, _ state: inout AppState) -> Effect {
        switch action {
        case .polled(let result):
            state.polling = false
            switch result {
            case .unchanged: break
            case .changed(let snapshot, let summary):
                state.apply(snapshot)
                state.status = summary
                if let editor = state.editor, let id = editor.id, snapshot.versions[id] != editor.baseVersion {
                    let title = snapshot.entry(id: id)?.title ?? "the entry"
                    state.status = summary + " \(title), open here, changed there too: saving will ask which to keep."
                }
            case .unreadable(let message):
                if message == VaultError.keyChanged.description {
                    let effect = Reducer.reduce(into: &state, action: .lock)
                    state.status = "Locked: the master password was changed by another bulwark. Unlock with the new one."
                    return effect
                }
                state.banner = Banner(ok: false, text: message)
            }
            return Effect.none
        case .editConflict(let conflict, let snapshot):
            state.busy = false
            state.apply(snapshot)
            state.overlay = .conflict(conflict)
            return Effect.none
        case .resolveConflict(let choice):
            guard let conflict = state.conflict else { return Effect.none }
            if choice == .both && conflict.theirs == nil { return Effect.none }
            state.conflict = nil
            state.busy = true
            return .run { env in
                guard let vault = env.vault else { return nil }
                do {
                    let (snapshot, text) = try vault.resolveConflict(mine: conflict.mine, choice: choice)
                    return .vault(.updated(snapshot, banner: Banner(ok: true, text: text)))
                } catch {
                    return .vault(.updated(vault.snapshot(), banner: Banner(ok: false, text: "\(error)")))
                }
            }
        case .reviewConflict:
            guard let conflict = state.conflict else { return Effect.none }
            state.conflict = nil
            // The form again, with the person's values over the other version: saving now replaces it knowingly.
            var editor = EntryEditor(editing: conflict.mine, version: state.snapshot.versions[conflict.mine.id])
            if conflict.theirs == nil { editor.id = nil }
            state.editor = editor
            state.status = conflict.theirs == nil
                ? "Deleted in another bulwark: Enter saves your version as a new entry, Esc lets it go."
                : "Your edit is back in the form, over the other version: Enter saves it, Esc drops it."
            return Effect.none
        }
    }

    /// The look for other writers that an idle tick starts, when nothing
    /// else holds the session.
    static func poll(_ state: inout AppState) -> Effect {
        guard state.unlocked, !state.polling, !state.busy, !state.upgradeInFlight else { return .none }
        state.polling = true
        // Two seconds without a key: the vault's log is folded into its file and the next backup made ahead, never beside typing.
        let idle = state.now.timeIntervalSince(state.lastInput ?? state.now) >= OtherWritersReducer.tidyAfter
        return .run { env in
            guard let vault = env.vault else { return nil }
            let result = vault.pollExternalChanges()
            if idle { vault.tidyWhileIdle() }
            return .otherWriters(.polled(result))
        }
    }
}
