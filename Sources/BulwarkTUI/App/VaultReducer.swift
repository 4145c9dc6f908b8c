import BulwarkCore
import BulwarkUpgrades
import Foundation

/// The vault's and the recommendations' own actions: search, filter,
/// reveal, copy, delete, hide, sign in.
enum VaultReducer {
    static func reduce(_ action: VaultAction, _ state: inout AppState) -> Effect {
        switch action {
        case .startSearch:
            state.screen = .vault
            // The last query, selected: typing starts a new one, an arrow edits it.
            var field = TextField(state.filter.query, placeholder: "search titles, usernames, sites")
            field.selectedAll = !state.filter.query.isEmpty
            state.search = field
            return Effect.none
        case .clearFilter:
            state.filter.query = ""
            state.filter.category = nil
            state.filter.tag = nil
            state.refilter()
            state.status = "Showing every entry."
            return Effect.none
        case .endSearch(let keep):
            state.search = nil
            if !keep {
                state.filter.query = ""
                state.refilter()
            }
            return Effect.none
        case .openFilterPicker:
            state.overlay = .filterPicker(FilterPicker(entries: state.snapshot.entries, current: state.filter))
            return Effect.none
        case .choosePickerOption:
            guard let option = state.picker?.chosen else { return Effect.none }
            state.picker = nil
            (state.filter.category, state.filter.tag) = (option.category, option.tag)
            state.refilter()
            state.list.select(0, count: state.visible.count)
            state.status = "Showing " + (state.filter.category.map { "\($0.label) accounts" } ?? state.filter.tag.map { "accounts tagged \($0)" } ?? "every account") + "."
            return Effect.none
        case .cycleOrder:
            let all = VaultFilter.Order.allCases
            state.filter.order = all[((all.firstIndex(of: state.filter.order) ?? 0) + 1) % all.count]
            state.refilter()
            state.status = "Sorted by \(state.filter.order.rawValue)."
            return Effect.none
        case .toggleReveal:
            if state.revealed { state.reveal = nil } else if let entry = state.currentEntry {
                state.reveal = Reveal(id: entry.id, since: state.now)
                state.status = "Shown for \(Int(state.revealFor)) seconds, or until you move."
            }
            return Effect.none
        case .copy(let field):
            return copy(field, &state)
        case .askDelete:
            state.overlay = .confirmDelete
            return Effect.none
        case .confirmDelete(let yes):
            state.overlay = nil
            guard yes, let entry = state.currentEntry else { return Effect.none }
            let id = entry.id, title = entry.title, base = state.snapshot.versions[id]
            state.expectUndo("deleting \(title)", entry)
            return .run { env in
                guard let vault = env.vault else { return nil }
                do { return .vault(.updated(try vault.delete(id: id, basedOn: base), banner: Banner(ok: true, text: "Deleted \(title)."))) } catch {
                    // A conflict: the list now shows what the other process left.
                    return .vault(.updated(vault.snapshot(), banner: Banner(ok: false, text: "\(error)")))
                }
            }
        case .openEntry:
            guard let id = state.selectedRecommendation?.id else { return Effect.none }
            state.showInVault(id)
            return Effect.none
        case .updated(let snapshot, let banner):
            state.settleUndo(written: banner?.ok == true)
            state.busy = false
            state.apply(snapshot)
            state.banner = banner
            return SyncReducer.afterWrite(&state)
        case .failed(let message):
            state.settleUndo(written: false)
            state.busy = false
            state.banner = Banner(ok: false, text: message)
            return Effect.none
        case .showChangePasswordURL:
            // From the sign-in prompt the entry is the one signed in to.
            let entry = state.overlayKind == .signInPrompt ? state.entry(id: state.focusEntryID) : state.currentEntry
            guard let entry, let url = state.changePasswordURL(for: entry) else { return Effect.none }
            if state.overlayKind == .signInPrompt { state.overlay = nil }
            state.banner = Banner(ok: true, text: "Change the password at \(url) (copied).")
            return .copy(ClipboardRequest(text: url, label: "the change-password URL"))
        case .signIn:
            guard let entry = state.currentEntry else { return Effect.none }
            state.focusEntryID = entry.id
            // An account that signs in with a passkey: the sheet asks first, as a browser's does.
            if entry.password == nil, state.passkeyRelyingParty(for: entry) != nil {
                state.overlay = .passkeySignIn
                return Effect.none
            }
            // A saved password at a service that offers Sign in with Apple: both, side by side, the saved one first.
            if state.offersSignInChoice(for: entry) {
                state.overlay = .signInChoice(appleChosen: false)
                return Effect.none
            }
            return signIn(entry, &state)
        case .toggleSignInChoice:
            guard case .signInChoice(let apple)? = state.overlay else { return Effect.none }
            state.overlay = .signInChoice(appleChosen: !apple)
            return Effect.none
        case .confirmSignInChoice:
            guard case .signInChoice(let apple)? = state.overlay, let entry = state.entry(id: state.focusEntryID) else { return Effect.none }
            state.overlay = nil
            // Sign in with Apple for an account that has a password is its upgrade: the sheet asks next, as `a` does.
            if apple { return .run { _ in .upgrade(.start(.signInWithApple, .signInPrompt)) } }
            return signIn(entry, &state)
        case .confirmPasskeySignIn:
            guard state.overlayKind == .passkeySignIn, let entry = state.entry(id: state.focusEntryID) else { return Effect.none }
            state.overlay = nil
            return signIn(entry, &state)
        case .signedIn(let id, let result):
            state.busy = false
            state.status = nil
            let title = state.entry(id: id)?.title ?? "the service"
            if state.overlayKind == .serviceApp {
                switch result {
                case .accepted(let token): state.appSession = token
                case .refused(let reason):
                    state.overlay = nil
                    state.banner = Banner(ok: false, text: "\(title) refused the sign-in: \(reason).")
                }
                return Effect.none
            }
            switch result {
            case .accepted:
                state.banner = Banner(ok: true, text: "Signed in to \(title).")
                let kinds = state.snapshot.report.recommendation(forEntry: id)?.kinds ?? []
                if kinds.contains(.breached) || kinds.contains(.weak) { state.overlay = .signInPrompt }
            case .refused(let reason):
                state.banner = Banner(ok: false, text: "\(title) refused the sign-in: \(reason).")
            }
            return Effect.none
        case .openServiceApp:
            guard let entry = state.currentEntry else { return Effect.none }
            state.focusEntryID = entry.id
            state.appSession = nil
            state.overlay = .serviceApp
            let id = entry.id
            return .run { env in env.signIn.map { .vault(.signedIn(entryID: id, $0.signIn(id: id))) } }
        case .upgradeInVault(let id, let kind):
            guard let entry = state.entry(id: id) else { return Effect.none }
            state.showInVault(id)
            if let reason = state.offer(kind, for: entry).reason {
                state.status = "\(entry.title): \(kind.label) is unavailable: \(reason)."
                return Effect.none
            }
            return Reducer.reduce(into: &state, action: .upgrade(.start(kind, .entry)))
        }
    }

    static func copy(_ field: CopyField, _ state: inout AppState) -> Effect {
        guard let entry = state.currentEntry else { return Effect.none }
        let text: String?
        switch field {
        case .username: text = entry.username.isEmpty ? nil : entry.username
        case .password: text = entry.password
        case .code: text = entry.totpURI.flatMap { try? OTPAuthURL.parse($0) }?.code(at: Int64(state.now.timeIntervalSince1970))
        }
        guard let text else {
            state.status = "\(entry.title) has no \(field.rawValue) to copy."
            return Effect.none
        }
        // OSC 52 is a request: the terminal may refuse it without a word, so this says what was sent, not that it arrived.
        state.status = "Sent the \(field.rawValue) of \(entry.title) to the terminal's clipboard; cleared in \(Reducer.duration(state.clipboardFor)), on lock and on quit."
        return .copy(ClipboardRequest(text: text, label: "the \(field.rawValue)", clearAfter: state.clipboardFor,
                                      subject: "the \(field.rawValue) of \(entry.title)"))
    }

    static func signIn(_ entry: Entry, _ state: inout AppState) -> Effect {
        state.busy = true
        state.status = "Signing in to \(entry.title)…"
        let id = entry.id
        return .run { env in env.signIn.map { .vault(.signedIn(entryID: id, $0.signIn(id: id))) } }
    }
}
