/// The keys of the upgrade's result panel and of the history browser.
extension Keymaps {
    static func result(_ state: AppState) -> Keymap<AppAction> {
        let entry = state.entry(id: state.result?.entryID)
        return Keymap("Result", [
            B([.enter, .escape, .char(" ")], .result(.dismiss), help: "Close the result (any other key closes it and acts)", hint: "close",
              hintKey: "Enter"),
            B([.char("h")], .result(.openHistory), help: "The entry's old passwords", hint: "history",
              disabledReason: entry.map { $0.history.isEmpty ? "The entry has no old passwords" : nil } ?? "The entry no longer exists"),
            B([.char("?")], .showHelp, help: "Show the keys", hint: "help"),
            B([.ctrl("c")], .interrupt, help: "Quit"),
        ])
    }

    static func filterPicker(_ state: AppState) -> Keymap<AppAction> {
        Keymap("Filter", [B([.enter], .vault(.choosePickerOption), help: "Show these", hint: "show")]
            + movement(state.picker?.options.count ?? 0, empty: "Nothing to filter by") + [
            B([.char("?")], .showHelp, help: "Show the keys", hint: "help"),
            B([.escape, .char("q")], .closeOverlay, help: "Keep the filter as it was", hint: "cancel"),
            B([.ctrl("c")], .interrupt, help: "Quit"),
        ])
    }

    static func generator(_ state: AppState) -> Keymap<AppAction> {
        let row = state.generatorSheet?.focusedRow
        let isBox = [.lower, .upper, .digits, .symbols, .lookAlikes, .capitalize, .number].contains(row)
        return Keymap("Generate", [
            B([.enter], .generator(.use), help: "Use this one in the form (and remember the choices)", hint: "use",
              disabledReason: state.generatorSheet?.sample == nil ? "Nothing made for these choices" : nil),
            B([.left], .generator(.change(-1)), help: isBox ? "Turn it on or off" : "Less, or the one before", hint: "change", hintKey: "←→"),
            B([.right, .char(" ")], .generator(.change(1)), help: isBox ? "Turn it on or off" : "More, or the next one"),
            B([.up, .backTab], .generator(.move(-1)), help: "Previous choice", hint: "choice", hintKey: "↑↓"),
            B([.down, .tab], .generator(.move(1)), help: "Next choice"),
            B([.ctrl("g"), .char("r")], .generator(.resample), help: "Another one", hint: "another"),
            B([.char("?")], .showHelp, help: "Show the keys", hint: "help"),
            B([.escape, .char("q")], .closeOverlay, help: "Back to the form, the password as it was", hint: "cancel"),
            B([.ctrl("c")], .interrupt, help: "Quit"),
        ])
    }

    static func history(_ state: AppState) -> Keymap<AppAction> {
        let count = state.entry(id: state.history?.entryID)?.history.count ?? 0
        let shown = state.history?.revealed != nil && state.history?.revealed == state.history?.list.selected
        return Keymap("Old passwords", movement(count, empty: "No old passwords") + [
            B([.char("v")], .result(.revealHistoryItem), help: shown ? "Hide this old password" : "Reveal this old password (one at a time)",
              hint: shown ? "hide" : "reveal", disabledReason: count == 0 ? "No old passwords" : nil),
            B([.char("r")], .result(.restoreHistoryItem), help: "Make this old password the entry's password again (z takes it back)",
              hint: "restore", disabledReason: count == 0 ? "No old passwords" : nil),
            B([.char("?")], .showHelp, help: "Show the keys", hint: "help"),
            B([.escape, .char("q")], .closeOverlay, help: "Back", hint: "back"),
            B([.ctrl("c")], .interrupt, help: "Quit"),
        ])
    }
}
