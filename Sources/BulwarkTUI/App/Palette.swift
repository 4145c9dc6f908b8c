import Foundation

/// `:` (as in k9s) or Ctrl-P: every action of the screen in charge with its
/// key, and why it is off when it is, filtered as the person types; Enter
/// runs the one selected as its key would.
public struct Palette: Sendable, Equatable {
    public var field = TextField(placeholder: "type to filter; Enter runs the action")
    public var list = ListScroll()
    public init() {}
}

public enum PaletteAction: Sendable, Equatable {
    case open
    case run
}

enum PaletteReducer {
    /// The actions the palette offers: the keys of the screen underneath, matching the text typed.
    static func matches(_ state: AppState) -> [KeyBinding<AppAction>] {
        var under = state
        under.overlay = nil
        let query = (state.palette?.field.text ?? "").lowercased().trimmingCharacters(in: .whitespaces)
        return Keymaps.active(under).bindings.filter { binding in
            guard binding.action != .palette(.open) else { return false }
            guard !query.isEmpty else { return true }
            return query.split(separator: " ").allSatisfy { word in
                binding.help.lowercased().contains(word) || binding.keyLabel.lowercased() == word
            }
        }
    }

    static func reduce(_ action: PaletteAction, _ state: inout AppState) -> Effect {
        switch action {
        case .open:
            guard state.overlay == nil, state.unlocked, state.editor == nil, state.search == nil else { return .none }
            state.overlay = .palette(Palette())
            return .none
        case .run:
            let found = matches(state)
            let index = state.palette?.list.selected ?? 0
            state.overlay = nil
            guard found.indices.contains(index) else { return .none }
            let binding = found[index]
            if let reason = binding.disabledReason {
                state.status = "\(binding.help): unavailable. \(reason)."
                return .none
            }
            return Reducer.reduce(into: &state, action: binding.action)
        }
    }
}
