/// The one place state changes. Pure: the same state and action always give
/// the same new state and effect; all I/O is in the returned effect.
public enum Reducer {
    public static func reduce(into state: inout AppState, action: AppAction) -> Effect {
        let effect = apply(action, to: &state)
        // Keep the list window where the selection is, moving it as little as possible.
        state.list.offset = state.list.visibleOffset(height: AppView.listHeight(state), count: state.entries.count)
        return effect
    }

    private static func apply(_ action: AppAction, to state: inout AppState) -> Effect {
        switch action {
        case .key(let key):
            return handleKey(key, state: &state)
        case .resize(let width, let height):
            state.width = max(0, width)
            state.height = max(0, height)
            return .none
        case .tick:
            return .none
        case .moveSelection(let delta):
            state.list.move(by: delta, count: state.entries.count)
            return .none
        case .selectFirst:
            state.list.select(0, count: state.entries.count)
            return .none
        case .selectLast:
            state.list.select(state.entries.count - 1, count: state.entries.count)
            return .none
        case .page(let direction):
            state.list.move(by: direction * max(1, AppView.listHeight(state)), count: state.entries.count)
            return .none
        case .showHelp:
            state.overlay = .help
            return .none
        case .closeOverlay:
            state.overlay = nil
            return .none
        case .requestQuit:
            return quitOrConfirm(&state)
        case .interrupt:
            return quitOrConfirm(&state)
        case .confirmQuit(let yes):
            state.overlay = nil
            return yes ? .quit(exitCode: 0) : .none
        case .setStatus(let message):
            state.status = message
            return .none
        }
    }

    private static func quitOrConfirm(_ state: inout AppState) -> Effect {
        if state.upgradeInFlight {
            state.overlay = .confirmQuit
            return .none
        }
        return .quit(exitCode: 0)
    }

    /// Keys go through the active keymap. Ctrl-C works even when the window
    /// is too small to draw anything else.
    private static func handleKey(_ key: Key, state: inout AppState) -> Effect {
        if state.isTooSmall {
            if key == .ctrl("c") || (key == .char("q") && !state.textFieldFocused) {
                return reduce(into: &state, action: key == .ctrl("c") ? .interrupt : .requestQuit)
            }
            return .none
        }
        let keymap = Keymaps.active(state)
        guard let binding = keymap.binding(for: key) else { return .none }
        if let reason = binding.disabledReason {
            state.status = "\(binding.help): unavailable. \(reason)."
            return .none
        }
        state.status = nil
        return reduce(into: &state, action: binding.action)
    }
}
