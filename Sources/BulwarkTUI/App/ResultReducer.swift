import BulwarkCore
import Foundation

/// The upgrade's result panel and the history browser. Scoped to the dialog
/// presented (the panel, the browser that takes its place, or none).
enum ResultReducer {
    static func reduce(_ action: ResultAction, _ dialog: inout Overlay?, _ app: AppContext) -> FeatureOutcome {
        switch action {
        case .dismiss:
            if case .result? = dialog { dialog = nil }
            return .none
        case .openHistory:
            let id: String?
            if case .result(let result)? = dialog { id = result.entryID } else { id = app.currentEntry?.id }
            guard let id, let entry = app.entry(id: id), !entry.history.isEmpty else { return .none }
            dialog = .history(HistoryBrowser(entryID: id))  // in the result's place
            return .none
        case .revealHistoryItem:
            guard case .history(var history)? = dialog else { return .none }
            var outcome = FeatureOutcome.none
            if history.revealed == history.list.selected {
                history.revealed = nil
                history.revealedSince = nil
            } else {
                history.revealed = history.list.selected
                history.revealedSince = app.now
                outcome = .status("Shown for \(Reducer.duration(app.revealFor)), or until you move.")
            }
            dialog = .history(history)
            return outcome
        case .restoreHistoryItem:
            return .none  // the app's (HistoryRestore): it writes to the vault
        }
    }
}
