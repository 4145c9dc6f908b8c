/// The key tables, one per screen and overlay. Built from the state so that
/// a binding can say why it is disabled right now.
public enum Keymaps {
    /// Keys that work on every screen without a text field in focus.
    static func global(_ state: AppState) -> [KeyBinding<AppAction>] {
        [
            KeyBinding([.char("?")], .showHelp, help: "Show this help", hint: "help"),
            KeyBinding([.char("q")], .requestQuit, help: "Quit bulwark", hint: "quit"),
            KeyBinding([.ctrl("c")], .interrupt, help: "Quit (asks first while an upgrade runs)"),
        ]
    }

    public static func vault(_ state: AppState) -> Keymap<AppAction> {
        let empty = state.entries.isEmpty ? "The vault is empty" : nil
        return Keymap("Vault", [
            KeyBinding([.char("k"), .up], .moveSelection(-1), help: "Move up", hint: "move", hintKey: "↑↓", disabledReason: empty),
            KeyBinding([.char("j"), .down], .moveSelection(1), help: "Move down", disabledReason: empty),
            KeyBinding([.char("g"), .home], .selectFirst, help: "First entry", disabledReason: empty),
            KeyBinding([.char("G"), .end], .selectLast, help: "Last entry", disabledReason: empty),
            KeyBinding([.pageUp], .page(-1), help: "Page up", disabledReason: empty),
            KeyBinding([.pageDown], .page(1), help: "Page down", disabledReason: empty),
        ] + global(state))
    }

    public static func help(_ state: AppState) -> Keymap<AppAction> {
        Keymap("Help", [
            KeyBinding([.escape, .char("?"), .char("q")], .closeOverlay, help: "Close help", hint: "close"),
            KeyBinding([.ctrl("c")], .interrupt, help: "Quit"),
        ])
    }

    public static func confirmQuit(_ state: AppState) -> Keymap<AppAction> {
        Keymap("Quit?", [
            KeyBinding([.char("y")], .confirmQuit(true), help: "Quit and abandon the upgrade", hint: "quit"),
            KeyBinding([.char("n"), .escape], .confirmQuit(false), help: "Keep going", hint: "stay"),
            KeyBinding([.ctrl("c")], .confirmQuit(true), help: "Quit"),
        ])
    }

    /// The table in charge of the keyboard right now: the overlay's, else the screen's.
    public static func active(_ state: AppState) -> Keymap<AppAction> {
        switch state.overlay {
        case .help: return help(state)
        case .confirmQuit: return confirmQuit(state)
        case nil: return screen(state)
        }
    }

    /// The current screen's table (what the help overlay lists).
    public static func screen(_ state: AppState) -> Keymap<AppAction> {
        switch state.screen {
        case .vault: return vault(state)
        }
    }
}
