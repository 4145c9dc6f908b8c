import BulwarkCore
import BulwarkUpgrades
import Foundation

/// The form that adds and edits entries: focus, generate, save, discard.
enum EditorReducer {
    static func reduce(_ action: EditorAction, _ state: inout AppState) -> Effect {
        switch action {
        case .new:
            state.editor = EntryEditor(editing: nil)
            return Effect.none
        case .edit:
            guard let entry = state.selectedEntry else { return Effect.none }
            state.editor = EntryEditor(editing: entry, version: state.snapshot.versions[entry.id])
            return Effect.none
        case .focus(let delta):
            guard var editor = state.editor else { return Effect.none }
            editor.fields[3].masked = true  // a generated password is shown only while its field has the focus
            editor.focus = (editor.focus + delta + EntryEditor.labels.count) % EntryEditor.labels.count
            state.editor = editor
            return Effect.none
        case .cancel:
            // Typed changes are never dropped without asking (as KeePassXC asks).
            if state.editor?.changedLabels.isEmpty == false {
                state.overlay = .confirmDiscard
            } else {
                state.editor = nil
            }
            return Effect.none
        case .discard(let discard):
            state.overlay = nil
            if discard {
                state.editor = nil
                state.status = "Discarded your changes."
            }
            return Effect.none
        case .generatePassword:
            let site = state.editor?.fields[1].text ?? ""
            return .run { env in (env.vault?.generatePassword(forSite: site)).map { .editor(.generated($0)) } }
        case .generated(let password):
            // Shown, so the person sees what was made; masked again when they leave the field.
            state.editor?.fields[3] = TextField(password, masked: false)
            state.status = "Generated a strong password for this site's rules (shown until you leave the field)."
            return Effect.none
        case .save:
            if state.overlayKind == .confirmDiscard { state.overlay = nil }
            guard let editor = state.editor else { return Effect.none }
            let original = state.entry(id: editor.id)
            let entry: Entry
            do { entry = try editor.entry(original: original, now: state.now) } catch {
                state.editor?.error = error.message
                return Effect.none
            }
            state.editor = nil
            let title = entry.title, base = editor.baseVersion
            let codeNote = codeOwnerNote(entry, original: original, entries: state.snapshot.entries)
            return .run { env in
                guard let vault = env.vault else { return nil }
                do {
                    let (snapshot, also) = try vault.saveEdit(entry, basedOn: base)
                    let more = also.isEmpty ? "" : " Also updated, the same account: \(also.joined(separator: ", "))."
                    return .vault(.updated(snapshot, banner: Banner(ok: true, text: "Saved \(title)." + more + codeNote)))
                } catch VaultError.conflict {
                    return .otherWriters(.editConflict(EditConflict(mine: entry, theirs: vault.current(id: entry.id)), vault.snapshot()))
                } catch {
                    return .vault(.failed("\(error)"))
                }
            }
        }
    }

    /// A code just set whose issuer names other entries better than this one.
    static func codeOwnerNote(_ entry: Entry, original: Entry?, entries: ChunkedArray<Entry>) -> String {
        guard entry.totpURI != original?.totpURI, let (issuer, others) = CodeOwner.misplaced(entry, in: Array(entries)), !others.isEmpty else { return "" }
        return " The code says it is \(issuer)'s: entries that look like it: \(others.joined(separator: ", "))."
    }
}
