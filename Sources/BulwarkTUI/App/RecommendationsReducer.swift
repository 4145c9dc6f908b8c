import BulwarkCore
import BulwarkUpgrades
import Foundation

/// The Security Recommendations list: hiding, showing hidden, what one key fixes first.
enum RecommendationsReducer {
    static func reduce(_ action: RecommendationsAction, _ state: inout AppState) -> Effect {
        switch action {
        case .toggleFixableFirst, .toggleFixableOnly:
            if action == .toggleFixableOnly { state.fixableOnly.toggle() } else { state.fixableFirst.toggle() }
            state.refreshFixableOrder()
            state.recommendationList.select(0, count: state.shownRecommendationCount)
            state.status = state.fixableOnly ? "Listing only what one key fixes (↑)."
                : state.fixableFirst ? "What one key fixes (↑) comes first in each section." : "Ranked by severity."
            return Effect.none
        case .toggleHidden:
            state.showHidden.toggle()
            state.refreshFixableOrder()
            state.recommendationList.select(min(state.recommendationList.selected, max(0, state.shownRecommendationCount - 1)),
                                            count: state.shownRecommendationCount)
            state.status = state.showHidden ? "Showing the \(state.snapshot.report.hidden.count) hidden recommendations after Other." : "Hidden recommendations are out of the list."
            return Effect.none
        case .unhide:
            guard let entry = state.currentEntry else { return Effect.none }
            let id = entry.id, title = entry.title
            state.expectUndo("showing \(title)'s recommendation again", entry)
            return .run { env in
                guard let vault = env.vault else { return nil }
                do { return .vault(.updated(try vault.setHidden(id: id, false), banner: Banner(ok: true, text: "The recommendation for \(title) is shown again."))) } catch {
                    return .vault(.failed("\(error)"))
                }
            }
        case .askHide:
            state.overlay = .hide
            return Effect.none
        case .confirmHide:
            guard let entry = state.currentEntry else { return Effect.none }
            let text = (state.hideField?.text ?? "").trimmingCharacters(in: .whitespaces)
            var until: Date?
            if !text.isEmpty {
                guard let day = CalendarDay.parse(text), day > state.now else {
                    state.status = "Type a date to come as YYYY-MM-DD, or leave it empty."
                    return Effect.none
                }
                until = day
            }
            state.overlay = nil
            let id = entry.id, title = entry.title, day = until
            state.expectUndo("hiding \(title)'s recommendation", entry)
            return .run { env in
                guard let vault = env.vault else { return nil }
                do {
                    return .vault(.updated(try vault.setHidden(id: id, true, until: day),
                                    banner: Banner(ok: true, text: "Hid the recommendation for \(title)" + (day == nil ? "." : " until \(text)."))))
                } catch { return .vault(.failed("\(error)")) }
            }
        }
    }
}
