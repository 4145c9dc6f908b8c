/// The keys of a same-field conflict that a sync kept.
extension Keymaps {
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
