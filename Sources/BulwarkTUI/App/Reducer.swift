import BulwarkCore
import BulwarkUpgrades
import Foundation

/// The one place state changes. Pure: the same state and action always give
/// the same new state and effect; all I/O is in the returned effect.
public enum Reducer {
    public static func reduce(into state: inout AppState, action: AppAction) -> Effect {
        apply(action, to: &state)
    }

    private static func apply(_ action: AppAction, to state: inout AppState) -> Effect {
        switch action {
        case .key(let key):
            state.lastInput = state.now
            return handleKey(key, state: &state)
        case .resize(let width, let height):
            state.width = max(0, width)
            state.height = max(0, height)
            return .none
        case .tick(let now):
            state.now = now
            if let reveal = state.reveal, now.timeIntervalSince(reveal.since) >= state.revealFor {
                state.reveal = nil
                state.status = "The password is hidden again."
            }
            if let since = state.history?.revealedSince, now.timeIntervalSince(since) >= state.revealFor {
                state.history?.revealed = nil
                state.history?.revealedSince = nil
                state.status = "The old password is hidden again."
            }
            if state.upgradeWorking || state.busy { state.spinner += 1 }
            // Idle lock: never in the middle of an upgrade.
            let idleSince = state.lastInput ?? now
            if state.lastInput == nil { state.lastInput = now }
            if state.unlocked && !state.upgradeInFlight && now.timeIntervalSince(idleSince) >= state.lockAfter {
                let effect = reduce(into: &state, action: .lock)
                state.status = "Locked after \(Self.duration(state.lockAfter)) without a key."
                return effect
            }
            let poll = OtherWritersReducer.poll(&state)
            let sync = SyncReducer.onTick(&state)
            return sync.isNone ? poll : poll.isNone ? sync : .batch([poll, sync])
        case .moveSelection(let delta):
            moveSelection(by: delta, &state)
            return .none
        case .selectRow(let list, let row):
            // Only the list in charge: not a row seen around a dialog, an upgrade or the form.
            guard !state.isTooSmall, list == listInCharge(state) else { return .none }
            moveSelection(by: row - selectedRow(state), &state)
            return .none
        case .selectFirst:
            moveSelection(by: -Int.max / 2, &state)
            return .none
        case .selectLast:
            moveSelection(by: Int.max / 2, &state)
            return .none
        case .page(let direction):
            moveSelection(by: direction * state.pageRows(listInCharge(state)), &state)
            return .none
        case .showHelp:
            // Over a dialog, the help is the dialog's, and closing it goes back to it.
            if state.overlayKind != .help { state.overlay = .help(over: state.overlay) }
            return .none
        case .closeOverlay:
            // A dialog's state goes with it; under the help, the dialog it was opened over comes back.
            if case .help(let over)? = state.overlay { state.overlay = over } else { state.overlay = nil }
            return .none
        case .requestQuit, .interrupt:
            if state.upgradeInFlight {
                if state.overlayKind != .confirmQuit { state.overlay = .confirmQuit(over: state.overlay) }
                return .none
            }
            return .quit(exitCode: 0)
        case .confirmQuit(let yes):
            // "No" goes back to the dialog the question came over.
            if case .confirmQuit(let over)? = state.overlay { state.overlay = over } else { state.overlay = nil }
            return yes ? .quit(exitCode: 0) : .none
        case .setStatus(let message):
            state.status = message
            return .none
        case .clipboardHeld(let until):
            state.clipboardClearsAt = until
            return .none
        case .setPresenter(let presenter):
            state.presenter = presenter
            return .none
        case .setCaption(let caption):
            state.caption = caption
            return .none
        case .setTitleCard(let card):
            state.titleCard = card
            return .none
        case .switchScreen:
            state.screen = state.screen == .vault ? .recommendations : .vault
            return .none
        case .showRecommendations:
            state.screen = .recommendations
            state.overlay = nil
            return .none
        case .lock:
            // Built afresh from what survives a lock (`AppState.locked`): an upgrade or
            // a sign-in under way ends with it, nothing changed; the SSH agent's questions are declined.
            let declined = SSHApprovalReducer.declineAll(state)
            state = state.locked()
            let lock = Effect.run { env in
                env.vault?.lockVault()
                return nil
            }
            return declined.isNone ? lock : .batch([declined, lock])
        case .unlock(let action): return UnlockReducer.reduce(action, &state)
        case .sshApproval(let action): return SSHApprovalReducer.reduce(action, &state)
        case .vault(let action): return VaultReducer.reduce(action, &state)
        case .editor(let action):
            // An edit can be taken back (`z`); a new entry is deleted as any other.
            if action == .save, let id = state.editor?.id, let original = state.entry(id: id) {
                state.expectUndo("your edit of \(original.title)", original)
            }
            let effect = state.scope(\.editorForm, action, EditorReducer.reduce)
            if state.editor != nil { state.pendingUndo = nil }  // the form stayed open: nothing was written
            return effect
        case .recommendations(let action): return RecommendationsReducer.reduce(action, &state)
        case .upgrade(let action):
            if case .stepped(_, let snapshot) = action { state.apply(snapshot) }
            return state.scope(\.upgradeScope, action, UpgradeReducer.reduce)
        case .result(.restoreHistoryItem): return HistoryRestore.reduce(&state)
        case .result(let action): return state.scope(\.presented, action, ResultReducer.reduce)
        case .webSignIn(let action):
            switch action {
            case .began(_, _, _, let snapshot), .stepped(_, let snapshot, _): state.apply(snapshot)
            default: break
            }
            return state.scope(\.webSignIn, action, WebSignInReducer.reduce)
        case .signUp(let action):
            if case .signedUp(.done(let snapshot, let id, _)) = action {
                state.apply(snapshot)
                state.showInList(id)
            }
            return state.scope(\.signUp, action, SignUpReducer.reduce)
        case .appleID(let action): return AppleIDReducer.reduce(action)
        case .otherWriters(let action): return OtherWritersReducer.reduce(action, &state)
        case .sync(let action): return SyncReducer.reduce(action, &state)
        case .generator(let action): return state.scope(\.generatorScope, action, GeneratorReducer.reduce)
        case .files(let action): return FilesReducer.reduce(action, &state)
        case .log(let action): return LogReducer.reduce(action, &state)
        case .palette(let action): return PaletteReducer.reduce(action, &state)
        case .undo(let action): return UndoReducer.reduce(action, &state)
        }
    }

    /// "1 minute", "5 minutes", "30 seconds".
    public static func duration(_ seconds: TimeInterval) -> String {
        let whole = Int(seconds.rounded())
        if whole < 60 || whole % 60 != 0 { return "\(whole) \(whole == 1 ? "second" : "seconds")" }
        return "\(whole / 60) \(whole == 60 ? "minute" : "minutes")"
    }

    /// The list the arrows move now; nil while a dialog without one has the keys.
    static func listInCharge(_ state: AppState) -> ListID? {
        switch state.overlay {
        case .messages?: return .messages
        case .history?: return .history
        case .filterPicker?: return .filterPicker
        case .files?: return state.files?.prompt == nil && state.files?.confirmOpen == nil ? .files : nil
        case .palette?: return .palette
        case .signUp?: return state.signUp?.sheet == nil ? .signUp : nil
        case nil: break
        default: return nil
        }
        guard state.unlocked, state.editor == nil, state.upgrade == nil else { return nil }
        return state.screen == .recommendations ? .recommendations : .vault
    }

    /// The selected row of the list `moveSelection` moves.
    static func selectedRow(_ state: AppState) -> Int {
        if state.overlayKind == .messages { return state.messageList.selected }
        if state.overlayKind == .history { return state.history?.list.selected ?? 0 }
        if state.overlayKind == .filterPicker { return state.picker?.list.selected ?? 0 }
        if state.overlayKind == .files { return state.files?.list.selected ?? 0 }
        if state.overlayKind == .palette { return state.palette?.list.selected ?? 0 }
        if state.overlayKind == .signUp { return state.signUp?.list.selected ?? 0 }
        return state.screen == .recommendations ? state.recommendationList.selected : state.list.selected
    }

    static func moveSelection(by delta: Int, _ state: inout AppState) {
        // A shown password is for the entry it was shown on.
        defer { if let reveal = state.reveal, reveal.id != state.currentEntry?.id { state.reveal = nil } }
        if state.overlayKind == .messages {
            state.messageList.move(by: delta, count: state.snapshot.messages.count)
        } else if state.overlayKind == .palette, var palette = state.palette {
            palette.list.move(by: delta, count: PaletteReducer.matches(state).count)
            state.palette = palette
        } else if state.overlayKind == .files, var files = state.files {
            files.list.move(by: delta, count: state.entry(id: files.entryID)?.attachments.count ?? 0)
            state.files = files
        } else if state.overlayKind == .filterPicker, var picker = state.picker {
            picker.list.move(by: delta, count: picker.options.count)
            state.picker = picker
        } else if state.overlayKind == .history, var history = state.history {
            history.list.move(by: delta, count: state.entry(id: history.entryID)?.history.count ?? 0)
            history.revealed = nil  // a shown old password is for the row it was shown on
            history.revealedSince = nil
            state.history = history
        } else if state.overlayKind == .signUp {
            let count = state.signUp?.services.count ?? 0
            state.signUp?.list.move(by: delta, count: count)
        } else if state.screen == .recommendations {
            state.recommendationList.move(by: delta, count: state.shownRecommendationCount)
        } else {
            state.list.move(by: delta, count: state.visible.count)
        }
    }

    /// Keys go through the active keymap; a key no binding takes goes to
    /// the focused text field, if any. Ctrl-C works even when the window is
    /// too small to draw anything else.
    private static func handleKey(_ key: Key, state: inout AppState) -> Effect {
        if state.isTooSmall {
            if key == .ctrl("c") || (key == .char("q") && !state.textFieldFocused) {
                return reduce(into: &state, action: key == .ctrl("c") ? .interrupt : .requestQuit)
            }
            return .none
        }
        state.banner = nil
        let keymap = Keymaps.active(state)
        // The result panel stays until a key: its own keys act on it, any
        // other closes it and then does what it does underneath.
        if state.overlayKind == .result, state.sshApprovals.isEmpty, keymap.binding(for: key) == nil {
            state.result = nil
            return handleKey(key, state: &state)
        }
        if let binding = keymap.binding(for: key) {
            if let reason = binding.disabledReason {
                state.status = "\(binding.help): unavailable. \(reason)."
                return .none
            }
            state.status = nil
            return reduce(into: &state, action: binding.action)
        }
        // Under the SSH agent's question, a key it does not take goes nowhere (not into a field beneath).
        if state.sshApprovals.isEmpty { typeInto(key, &state) }
        return .none
    }

    /// Text for whichever field has the keyboard.
    private static func typeInto(_ key: Key, _ state: inout AppState) {
        guard state.overlayKind != .confirmDiscard else { return }  // the question has the keys, not the form under it
        if state.overlayKind == .syncRekey {
            state.rekey?.error = nil
            _ = state.rekey?.field.handle(key)
            return
        }
        if state.editor != nil && state.unlocked {
            var editor = state.editor!
            editor.error = nil
            _ = editor.fields[editor.focus].handle(key)
            state.editor = editor
        } else if !state.unlocked {
            state.unlock.error = nil
            if state.unlock.onRepeat { _ = state.unlock.repeated.handle(key) } else { _ = state.unlock.password.handle(key) }
        } else if var field = state.search {
            if field.handle(key) {
                state.search = field
                state.filter.query = field.text
                state.refilter()
                state.list.select(0, count: state.visible.count)
            }
        } else if state.overlayKind == .hide {
            _ = state.hideField?.handle(key)
        } else if state.overlayKind == .files, state.files?.prompt != nil {
            _ = state.files?.field.handle(key)
        } else if state.overlayKind == .palette, var palette = state.palette {
            if palette.field.handle(key) {
                palette.list = ListScroll()  // a new filter starts at its best match
                state.palette = palette
            }
        } else if case .loginPage? = state.webSignIn?.step {
            if state.webSignIn?.passwordFocused == true { _ = state.webSignIn?.password.handle(key) } else { _ = state.webSignIn?.email.handle(key) }
        } else if case .secondFactor? = state.webSignIn?.step {
            if case .char(let c) = key, !c.isNumber { return }
            if state.webSignIn?.code.text.count ?? 0 >= 8, case .char = key { return }
            _ = state.webSignIn?.code.handle(key)
        } else if case .stepUp? = state.upgrade?.state {
            // The code field takes digits (and editing keys) only; letters are the screen's keys.
            if case .char(let c) = key, !c.isNumber { return }
            if state.upgrade?.code.text.count ?? 0 >= 8, case .char = key { return }
            _ = state.upgrade?.code.handle(key)
        }
    }
}
