import BulwarkCore
import Foundation

/// Unlocking, first-run creation and locking.
enum UnlockReducer {
    static func reduce(_ action: UnlockAction, _ state: inout AppState) -> Effect {
        switch action {
        case .submit:
            return submit(&state)
        case .unlocked(let snapshot):
            // Breach news on the lock screen is what the person unlocked for:
            // Security Recommendations open, as tapping the notification does (WWDC20).
            let hadNews = state.unlock.news != nil
            state.unlocked = true
            state.unlock = UnlockForm(hint: state.unlock.hint)
            state.busy = false
            state.apply(snapshot)
            tellNews(of: snapshot, &state)
            if hadNews { openAtTheNews(&state) }
            // What search needs is made behind the first frame, so the first keystroke finds it made.
            let sync = Effect.batch([SyncReducer.afterUnlock(&state), prepareSearch(snapshot)])
            guard snapshot.analysis != nil else { return sync }
            return .batch([analyseNextBatch(), sync])
        case .analysed(let snapshot):
            guard state.unlocked else { return Effect.none }  // locked meanwhile: the session dropped it
            state.apply(snapshot)
            if snapshot.analysis == nil && state.banner == nil { tellNews(of: snapshot, &state) }
            if snapshot.analysis == nil && state.landsOnBreachNews { selectTheNews(&state) }
            return snapshot.analysis == nil ? Effect.none : analyseNextBatch()
        case .keyDerivationSettingsRead(let parameters):
            guard state.unlock.busy && !state.unlocked else { return Effect.none }
            return unlock(password: state.unlock.password.text, creating: state.unlock.creating, parameters: parameters)
        case .keyDerivationEstimated(let started, let seconds):
            // Only for the unlock still under way (a quick one may end first).
            if state.unlock.busy && !state.unlocked { state.unlock.keyDerivation = KeyDerivationProgress(started: started, expected: seconds) }
            return Effect.none
        case .watchNews(let news):
            if !state.unlocked { state.unlock.news = news }
            return Effect.none
        case .failed(let message):
            state.unlock.keyDerivation = nil
            state.unlock.busy = false
            state.busy = false
            state.unlock.error = message
            state.unlock.password.clear()
            state.unlock.repeated.clear()
            state.unlock.onRepeat = false
            return Effect.none
        }
    }

    /// Search's text of every entry, made off the screen's thread (the snapshot's copies share it).
    static func prepareSearch(_ snapshot: SessionSnapshot) -> Effect {
        .run { _ in
            snapshot.searchText.prepare(for: snapshot.entries)
            return nil
        }
    }

    /// A large vault's analysis, one batch per step (edits go between them).
    static func analyseNextBatch() -> Effect {
        .run { env in env.vault.map { .unlock(.analysed($0.analyseNextBatch())) } }
    }

    /// Security Recommendations at the worst of the newly breached accounts
    /// (the watch knows no titles; the unlock's analysis does).
    static func openAtTheNews(_ state: inout AppState) {
        state.screen = .recommendations
        state.landsOnBreachNews = true
        if state.snapshot.analysis == nil { selectTheNews(&state) }
    }

    /// Once the analysis is whole; a selection the person has moved meanwhile stays where they put it.
    static func selectTheNews(_ state: inout AppState) {
        state.landsOnBreachNews = false
        let fresh = Set(state.snapshot.newlyBreached)
        guard state.screen == .recommendations, state.recommendationList.selected == 0, !fresh.isEmpty,
              let index = state.shownRecommendations.firstIndex(where: { $0.kinds.contains(.breached) && fresh.contains($0.entry.title) }) else { return }
        state.recommendationList.select(index, count: state.shownRecommendationCount)
    }

    /// What the unlock found: newly breached accounts, signed-out accounts, a rollback (the last said wins the banner).
    static func tellNews(of snapshot: SessionSnapshot, _ state: inout AppState) {
        let fresh = snapshot.newlyBreached
        if !fresh.isEmpty {
            let names = fresh.prefix(3).joined(separator: ", ") + (fresh.count > 3 ? " and \(fresh.count - 3) more" : "")
            state.banner = Banner(ok: false, text: "\(fresh.count) \(fresh.count == 1 ? "password" : "passwords") newly found in data breaches since your last unlock: \(names). Press r.",
                                  short: "\(fresh.count) newly breached · r review")
        }
        // A signed-out account the person did not sign out of comes before
        // breach news (the recommendations still say that), a rollback before both.
        if let first = snapshot.accountNotices.first {
            let more = snapshot.accountNotices.count - 1
            state.banner = Banner(ok: false, text: first + (more > 0 ? " (and \(more) more: see the entries)" : ""))
        }
        // A rollback matters more than news of breaches: it may mean lost changes.
        if let rollback = snapshot.rollback {
            state.banner = Banner(ok: false, text: "This vault is older than this machine last saw it: restored from a backup, or rolled back? Changes after change \(rollback.found) may be lost; 'bulwark check' tells more.")
        }
    }

    static func submit(_ state: inout AppState) -> Effect {
        var form = state.unlock
        if form.creating && !form.onRepeat {
            guard !form.password.isEmpty else { form.error = "Type a master password."; state.unlock = form; return Effect.none }
            // Judged as the recommendations judge passwords; a weak one is said
            // once, and taken only when Enter is pressed again on it.
            if form.warnedWeak != form.password.text, let weakness = MasterPasswordAdvice.weakness(of: form.password.text) {
                form.error = weakness.prefix(1).uppercased() + weakness.dropFirst() + ". Enter again to use it anyway."
                form.warnedWeak = form.password.text
                state.unlock = form
                return Effect.none
            }
            form.error = nil
            form.onRepeat = true
            state.unlock = form
            return Effect.none
        }
        if form.creating && form.password.text != form.repeated.text {
            state.unlock.error = "The two passwords differ. Type them again."
            state.unlock.password.clear()
            state.unlock.repeated.clear()
            state.unlock.onRepeat = false
            return Effect.none
        }
        guard !form.password.isEmpty else { return Effect.none }
        let creating = form.creating
        state.unlock.busy = true
        state.busy = true
        // The vault's key settings first: they are read under the session's
        // lock, which the unlock then holds for the whole derivation, so
        // read beside it they could come only after it.
        return .run { env in .unlock(.keyDerivationSettingsRead(env.vault?.keyDerivationParameters(creating: creating))) }
    }

    /// The unlock, and beside it the estimate of its key derivation (a few
    /// milliseconds of scrypt on the other core).
    private static func unlock(password: String, creating: Bool, parameters: ScryptParameters?) -> Effect {
        let estimate = Effect.run { env in
            let started = env.now()
            guard let parameters, let seconds = Scrypt.estimatedSeconds(for: parameters) else { return nil }
            return .unlock(.keyDerivationEstimated(started: started, seconds: seconds))
        }
        return .batch([estimate, .run { env in
            guard let vault = env.vault else { return .unlock(.failed("No vault is attached.")) }
            do {
                return .unlock(.unlocked(creating ? try vault.create(masterPassword: password) : try vault.unlock(masterPassword: password)))
            } catch VaultError.wrongPassword {
                return .unlock(.failed("Wrong master password. Try again."))
            } catch {
                return .unlock(.failed("\(error)"))
            }
        }])
    }
}
