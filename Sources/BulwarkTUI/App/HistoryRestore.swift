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
        state.overlay = nil
        state.expectUndo("restoring \(entry.title)'s old password", entry)
        return EditorReducer.saveEdit(changed, basedOn: state.snapshot.versions[entry.id], saying: "Restored \(entry.title)'s password of \(day).")
    }
}
