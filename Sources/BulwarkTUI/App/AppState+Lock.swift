import Foundation

extension AppState {
    /// The state after a lock, built afresh from what survives one, listed
    /// here and nowhere else: the terminal's size, the times the config
    /// set, the unlock form's hint, the lock label, the clock and the last
    /// key's time, a demo's presenter, caption and title card, and the
    /// person's place (the screen, the kept filter, the lists' rows and
    /// options), so that unlocking again comes back to it. Every
    /// entry, form, dialog, search, copied text and result is left behind
    /// with the state it lived in (the lock once reset fields one by one
    /// and kept the edit form's typed password, a conflict's two entries
    /// and the clipboard's text).
    func locked() -> AppState {
        var next = AppState(width: width, height: height, unlocked: false, unlock: UnlockForm(hint: unlock.hint), lockLabel: lockLabel, now: now)
        next.revealFor = revealFor
        next.confirmServiceChanges = confirmServiceChanges
        next.clipboardFor = clipboardFor
        next.lockAfter = lockAfter
        next.lastInput = lastInput
        next.presenter = presenter
        next.caption = caption
        next.titleCard = titleCard
        next.screen = screen
        next.filter = filter
        next.list = list
        next.recommendationList = recommendationList
        next.listRows = listRows
        next.showHidden = showHidden
        next.fixableFirst = fixableFirst
        next.fixableOnly = fixableOnly
        // The run loop takes the copied secret back when it sees the lock; until then the countdown stays true.
        next.clipboardClearsAt = clipboardClearsAt
        return next
    }
}
