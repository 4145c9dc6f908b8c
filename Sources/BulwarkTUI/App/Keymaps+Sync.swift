/// The keys of a same-field conflict that a sync kept, and of the dialog
/// that asks for a master password another machine set.
extension Keymaps {
    static func syncRekey(_ state: AppState) -> Keymap<AppAction> {
        Keymap("New master password", [
            B([.enter], .sync(.followRekey), help: "Open the vault with the new master password (it changes here too)", hint: "follow"),
            B([.escape], .sync(.cancelRekey), help: "Not now (sync waits; S asks again)", hint: "not now"),
            B([.ctrl("c")], .interrupt, help: "Quit"),
        ])
    }

    static func syncConflict(_ state: AppState) -> Keymap<AppAction> {
        let from = state.sync.conflicts.first?.from ?? "the other machine"
        let sides = state.sync.conflicts.first?.mine == nil ? "This conflict's versions were not kept" : nil
        return Keymap("Changed on two machines", [
            B([.char("b"), .enter], .sync(.settleConflict(.both)), help: "Keep both (as merged: the values not kept are on the entry)", hint: "keep both"),
            B([.char("m")], .sync(.settleConflict(.mine)), help: "Keep mine: this machine's values stand (\(from)'s kept on the entry)", hint: "keep mine",
              disabledReason: sides),
            B([.char("t")], .sync(.settleConflict(.theirs)), help: "Keep theirs: \(from)'s values stand (this machine's kept on the entry)", hint: "keep theirs",
              disabledReason: sides),
            B([.escape], .sync(.later), help: "Decide later (it stays until looked at)", hint: "later"),
            B([.ctrl("c")], .interrupt, help: "Quit"),
        ])
    }
}
