import BulwarkCore
import Foundation

/// Sync in the app: after unlock, after the app's own writes, every few
/// minutes, and on `S`; never in the way of a keystroke (the work runs on
/// its own connection); offline is said once and tried again later.
enum SyncReducer {
    static func reduce(_ action: SyncAction, _ state: inout AppState) -> Effect {
        switch action {
        case .now:
            guard state.sync.phase != .off else {
                state.status = "This vault is not linked to a sync remote: `bulwark sync init REMOTE` links it."
                return Effect.none
            }
            state.sync.offlineSaid = false
            return start(&state, manual: true)
        case .synced(let result):
            guard state.unlocked else { return Effect.none }  // locked meanwhile
            return finish(result, &state)
        case .settleConflict(let choice):
            guard let conflict = state.sync.conflicts.first else { return Effect.none }
            state.overlay = nil
            state.busy = true
            let id = conflict.entryID
            return .run { env in
                guard let sync = env.sync else { return nil }
                let (snapshot, text, pending) = sync.settleSyncConflict(id, choice: choice)
                return .sync(.conflictSettled(snapshot, text, pending))
            }
        case .later:
            state.overlay = nil
            state.status = "The conflict stays until you look at it: S syncs and shows it again."
            return Effect.none
        case .followRekey:
            guard let field = state.rekey?.field, !field.text.isEmpty else {
                state.rekey?.error = "Type the master password set on the other machine."
                return Effect.none
            }
            let password = field.text
            state.rekey?.field.clear()
            state.busy = true
            return .run { env in env.sync.map { .sync(.rekeyFollowed($0.followRekey(masterPassword: password))) } }
        case .rekeyFollowed(let result):
            state.busy = false
            switch result {
            case .followed(let snapshot):
                state.rekey = nil
                state.apply(snapshot)
                state.banner = Banner(ok: true, text: "This vault now opens with the new master password.")
                return start(&state, manual: false)
            case .wrongPassword:
                state.rekey?.error = "That is not the new master password. Nothing was changed."
            case .failed(let why):
                state.rekey?.error = why
            case .locked(let why):
                let effect = Reducer.reduce(into: &state, action: .lock)
                state.status = "The vault now opens with the new master password, but did not open again here (\(why)): unlock with it."
                return effect
            }
            return Effect.none
        case .cancelRekey:
            state.rekey = nil
            state.sync.phase = .needsPassword
            state.status = "Sync waits for the new master password: S asks again."
            return Effect.none
        case .conflictSettled(let snapshot, let text, let pending):
            state.busy = false
            if let snapshot { state.apply(snapshot) }
            state.sync.conflicts = pending
            state.banner = Banner(ok: true, text: text)
            if !pending.isEmpty { state.overlay = .syncConflict }
            // A side chosen is a change here: it goes out.
            return afterWrite(&state)
        }
    }

    /// After unlock: a linked vault syncs at once.
    static func afterUnlock(_ state: inout AppState) -> Effect {
        guard state.snapshot.syncLinked else { return .none }
        state.sync.phase = .idle
        return start(&state, manual: false)
    }

    /// After one of the app's own writes.
    static func afterWrite(_ state: inout AppState) -> Effect {
        guard state.sync.phase != .off else { return .none }
        return start(&state, manual: false)
    }

    /// On every tick: look for the other machines' changes now and then, and try again when offline.
    static func onTick(_ state: inout AppState) -> Effect {
        // Waiting for the new master password: asked once, then only when S asks again.
        guard state.unlocked, ![.off, .syncing, .needsPassword].contains(state.sync.phase), let last = state.sync.lastAttempt else { return .none }
        let wait = state.sync.phase == .offline ? SyncUI.retryEvery : SyncUI.pullEvery
        guard state.now.timeIntervalSince(last) >= wait else { return .none }
        return start(&state, manual: false)
    }

    static func start(_ state: inout AppState, manual: Bool) -> Effect {
        if state.sync.phase == .syncing {
            state.sync.again = true
            state.sync.manual = state.sync.manual || manual
            return .none
        }
        state.sync.phase = .syncing
        state.sync.manual = manual
        state.sync.lastAttempt = state.now
        return .run { env in
            guard let sync = env.sync else { return nil }
            return .sync(.synced(sync.syncNow()))
        }
    }

    private static func finish(_ result: AppSession.SyncResult, _ state: inout AppState) -> Effect {
        let manual = state.sync.manual
        state.sync.manual = false
        switch result {
        case .notLinked:
            state.sync.phase = .off
            if manual { state.status = "This vault is not linked to a sync remote: `bulwark sync init REMOTE` links it." }
        case .synced(let snapshot, let incoming, let outgoing, let conflicts):
            state.sync.phase = .idle
            state.sync.offlineSaid = false
            if let snapshot { state.apply(snapshot) }
            if !incoming.isEmpty {
                state.status = "Synced: \(incoming)."
            } else if manual {
                state.status = outgoing > 0 ? "Synced: \(outgoing) change\(outgoing == 1 ? "" : "s") sent." : "Synced: up to date."
            }
            let fresh = conflicts.filter { conflict in !state.sync.conflicts.contains { $0.entryID == conflict.entryID } }
            state.sync.conflicts = conflicts
            if !fresh.isEmpty || (manual && !conflicts.isEmpty), state.overlay == nil, state.editor == nil, state.upgrade == nil {
                state.overlay = .syncConflict
            }
        case .offline(let why):
            state.sync.phase = .offline
            if !state.sync.offlineSaid || manual {
                state.status = "Offline: \(why.prefix { $0 != ":" }); your changes stay here and sync when it is reachable."
                state.sync.offlineSaid = true
            }
        case .failed(let why):
            state.sync.phase = .failed
            state.banner = Banner(ok: false, text: "Sync: \(why)")
        case .rekeyed:
            // Asked once, over nothing else; otherwise the status line says so and S asks.
            state.sync.phase = .needsPassword
            if state.overlay == nil, state.editor == nil, state.upgrade == nil {
                state.overlay = .syncRekey(RekeyForm())
            } else {
                state.status = "The master password was changed on another machine: S asks for it."
            }
        }
        if state.sync.again {
            state.sync.again = false
            return start(&state, manual: false)
        }
        return .none
    }
}
