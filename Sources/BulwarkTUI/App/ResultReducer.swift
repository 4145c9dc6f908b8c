import BulwarkCore
import Foundation

/// The upgrade's result panel and the history browser.
enum ResultReducer {
    static func reduce(_ action: ResultAction, _ state: inout AppState) -> Effect {
        switch action {
        case .dismiss:
            state.result = nil
            return Effect.none
        case .openHistory:
            let id = state.overlayKind == .result ? state.result?.entryID : state.currentEntry?.id
            guard let id, let entry = state.entry(id: id), !entry.history.isEmpty else { return Effect.none }
            state.history = HistoryBrowser(entryID: id)  // in the result's place
            return Effect.none
        case .revealHistoryItem:
            guard var history = state.history else { return Effect.none }
            if history.revealed == history.list.selected {
                history.revealed = nil
                history.revealedSince = nil
            } else {
                history.revealed = history.list.selected
                history.revealedSince = state.now
                state.status = "Shown for \(Reducer.duration(state.revealFor)), or until you move."
            }
            state.history = history
            return Effect.none
        }
    }
}
