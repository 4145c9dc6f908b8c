import BulwarkCore
import BulwarkUpgrades
import Foundation

/// The form that adds and edits entries: focus, generate, save, discard.
enum EditorReducer {
    /// The form, and whether the "discard your changes?" question is over it.
    struct Form: Equatable {
        var editor: EntryEditor?
        var askingDiscard: Bool
    }

    static func reduce(_ action: EditorAction, _ form: inout Form, _ app: AppContext) -> FeatureOutcome {
        switch action {
        case .new:
            form.editor = EntryEditor(editing: nil)
            return .none
        case .edit:
            guard let entry = app.currentEntry else { return .none }
            form.editor = EntryEditor(editing: entry, version: app.snapshot.versions[entry.id])
            return .none
        case .focus(let delta):
            guard var editor = form.editor else { return .none }
            editor.fields[3].masked = true  // a generated password is shown only while its field has the focus
            editor.focus = (editor.focus + delta + EntryEditor.labels.count) % EntryEditor.labels.count
            form.editor = editor
            return .none
        case .cancel:
            // Typed changes are never dropped without asking (as KeePassXC asks).
            if form.editor?.changedLabels.isEmpty == false {
                form.askingDiscard = true
            } else {
                form.editor = nil
            }
            return .none
        case .discard(let discard):
            form.askingDiscard = false
            guard discard else { return .none }
            form.editor = nil
            return .status("Discarded your changes.")
        case .generatePassword:
            guard let site = form.editor?.fields[1].text else { return .none }
            return FeatureOutcome(then: .generator(.open(site: site)))
        case .save:
            form.askingDiscard = false
            guard let editor = form.editor else { return .none }
            let original = app.entry(id: editor.id)
            let entry: Entry
            do { entry = try editor.entry(original: original, now: app.now) } catch {
                form.editor?.error = error.message
                return .none
            }
            form.editor = nil
            let title = entry.title, base = editor.baseVersion
            let codeNote = codeOwnerNote(entry, original: original, entries: app.snapshot.entries)
            return FeatureOutcome(effect: saveEdit(entry, basedOn: base, saying: "Saved \(title).", after: codeNote))
        }
    }

    /// An edit written as the form's Enter writes it: the same account's
    /// other entries given a new password too (said after `saying`), and
    /// another writer's change met with the conflict dialog.
    static func saveEdit(_ entry: Entry, basedOn base: Int64?, saying: String, after note: String = "") -> Effect {
        .run { env in
            guard let vault = env.vault else { return nil }
            do {
                let (snapshot, also) = try vault.saveEdit(entry, basedOn: base)
                let more = also.isEmpty ? "" : " Also updated, the same account: \(also.joined(separator: ", "))."
                return .vault(.updated(snapshot, banner: Banner(ok: true, text: saying + more + note)))
            } catch VaultError.conflict {
                return .otherWriters(.editConflict(EditConflict(mine: entry, theirs: vault.current(id: entry.id)), vault.snapshot()))
            } catch {
                return .vault(.failed("\(error)"))
            }
        }
    }

    /// A code just set whose issuer names other entries better than this one.
    static func codeOwnerNote(_ entry: Entry, original: Entry?, entries: ChunkedArray<Entry>) -> String {
        guard entry.totpURI != original?.totpURI, let (issuer, others) = CodeOwner.misplaced(entry, in: Array(entries)), !others.isEmpty else { return "" }
        return " The code says it is \(issuer)'s: entries that look like it: \(others.joined(separator: ", "))."
    }
}
