/// The keys of the Files dialog: its list, the path being typed, the question before opening.
extension Keymaps {
    static func files(_ state: AppState) -> Keymap<AppAction> {
        let browser = state.files
        if browser?.confirmOpen != nil {
            return Keymap("Open the file?", [
                B([.char("y"), .enter], .files(.confirm), help: "Open it with the desktop's opener", hint: "open"),
                B([.char("n"), .escape], .files(.back), help: "Do not open it", hint: "no"),
                B([.ctrl("c")], .interrupt, help: "Quit"),
            ])
        }
        if let name = browser?.confirmRemove {
            return Keymap("Remove \(name)?", [
                B([.char("y"), .enter], .files(.confirm), help: "Remove it from the entry", hint: "remove"),
                B([.char("n"), .escape], .files(.back), help: "Keep it", hint: "keep"),
                B([.ctrl("c")], .interrupt, help: "Quit"),
            ])
        }
        if let prompt = browser?.prompt {
            let saving = if case .save = prompt { true } else { false }
            return Keymap(saving ? "Save the file" : "Attach a file", [
                B([.enter], .files(.confirm), help: saving ? "Save it there (never over a file)" : "Attach this file", hint: saving ? "save" : "attach"),
                B([.tab], .files(.complete), help: "Complete the path", hint: "complete"),
                B([.escape], .files(.back), help: "Back to the files", hint: "back"),
                B([.ctrl("c")], .interrupt, help: "Quit"),
            ])
        }
        let count = state.entry(id: browser?.entryID)?.attachments.count ?? 0
        let none = count == 0 ? "The entry holds no files" : nil
        return Keymap("Files", movement(count, empty: "No files") + [
            B([.enter], .files(.askSave), help: "Save this file to a path", hint: "save", disabledReason: none),
            B([.char("o")], .files(.askOpen), help: "Open it with the desktop's opener (asks first)", hint: "open", disabledReason: none),
            B([.char("a")], .files(.askAttach), help: "Attach a file from a path", hint: "attach"),
            B([.char("d"), .delete], .files(.askRemove), help: "Remove this file from the entry (asks first)", hint: "remove", disabledReason: none),
            B([.char("?")], .showHelp, help: "Show the keys", hint: "help"),
            B([.escape, .char("q")], .closeOverlay, help: "Back", hint: "back"),
            B([.ctrl("c")], .interrupt, help: "Quit"),
        ])
    }
}

/// The keys of the message log.
extension Keymaps {
    static func log(_ state: AppState) -> Keymap<AppAction> {
        let none = state.log.isEmpty ? "No messages yet" : nil
        return Keymap("Messages", [
            B([.char("k"), .up], .log(.scroll(1)), help: "Older", hint: "scroll", hintKey: "↑↓", disabledReason: none),
            B([.char("j"), .down], .log(.scroll(-1)), help: "Newer", disabledReason: none),
            B([.pageUp], .log(.scroll(10)), help: "Ten lines older", disabledReason: none),
            B([.pageDown], .log(.scroll(-10)), help: "Ten lines newer", disabledReason: none),
            B([.char("g"), .home], .log(.scroll(Int.max / 2)), help: "The oldest", disabledReason: none),
            B([.char("G"), .end], .log(.scroll(-Int.max / 2)), help: "The newest", disabledReason: none),
            B([.char("?")], .showHelp, help: "Show the keys", hint: "help"),
            B([.escape, .char("q"), .char("M")], .closeOverlay, help: "Back", hint: "back"),
            B([.ctrl("c")], .interrupt, help: "Quit"),
        ])
    }
}

/// The keys of the command palette: letters filter, so only arrows move.
extension Keymaps {
    static func palette(_ state: AppState) -> Keymap<AppAction> {
        let none = PaletteReducer.matches(state).isEmpty ? "Nothing matches" : nil
        return Keymap("Actions", [
            B([.enter], .palette(.run), help: "Run the action selected", hint: "run", disabledReason: none),
            B([.up], .moveSelection(-1), help: "Move up", hint: "move", hintKey: "↑↓", disabledReason: none),
            B([.down], .moveSelection(1), help: "Move down", disabledReason: none),
            B([.pageUp], .page(-1), help: "Page up", disabledReason: none),
            B([.pageDown], .page(1), help: "Page down", disabledReason: none),
            B([.escape], .closeOverlay, help: "Close", hint: "close"),
            B([.ctrl("c")], .interrupt, help: "Quit"),
        ])
    }
}
