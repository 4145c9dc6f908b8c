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
            B([.char("?")], .showHelp, help: "Show the keys", hint: "help"),
            B([.escape, .char("q")], .closeOverlay, help: "Back", hint: "back"),
            B([.ctrl("c")], .interrupt, help: "Quit"),
        ])
    }
}
