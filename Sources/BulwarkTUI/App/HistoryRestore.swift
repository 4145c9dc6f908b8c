import BulwarkCore
import Foundation

/// `r` among an entry's old passwords: the one selected becomes its
/// password again. The password it replaces goes into the history, as any
/// change's does; the save is an edit's (the same account's other entries
/// are given it too, another writer's change meets the conflict dialog),
/// and `z` takes it back.
enum HistoryRestore {
    static func reduce(_ state: inout AppState) -> Effect {
        guard let browser = state.history, let entry = state.entry(id: browser.entryID) else { return .none }
        let index = browser.list.selected
        guard entry.history.indices.contains(index) else {
            state.status = "No old passwords."
            return .none
        }
        let old = entry.history[index]
        let day = EntryDetail.day(old.changedAt)
        guard old.password != entry.password else {
            state.status = "The old password of \(day) is the one \(entry.title) has now."
            return .none
        }
        var changed = entry
        changed.changePassword(to: old.password, reason: "replaced by the old password of \(day)", at: state.now)
        let restored = changed
        state.overlay = nil
        state.expectUndo("restoring \(entry.title)'s old password", entry)
        let title = entry.title, base = state.snapshot.versions[entry.id]
        return .run { env in
            guard let vault = env.vault else { return nil }
            do {
                let (snapshot, also) = try vault.saveEdit(restored, basedOn: base)
                let more = also.isEmpty ? "" : " Also updated, the same account: \(also.joined(separator: ", "))."
                return .vault(.updated(snapshot, banner: Banner(ok: true, text: "Restored \(title)'s password of \(day)." + more)))
            } catch VaultError.conflict {
                return .otherWriters(.editConflict(EditConflict(mine: restored, theirs: vault.current(id: restored.id)), vault.snapshot()))
            } catch {
                return .vault(.failed("\(error)"))
            }
        }
    }
}
