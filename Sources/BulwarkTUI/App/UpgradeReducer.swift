import BulwarkCore
import BulwarkUpgrades
import Foundation

/// Upgrades on screen: starting one, the step-up screen, the Messages
/// inbox, the Sign in with Apple sheet, the result. Scoped to its own
/// state: the upgrade, the dialogs over it (the inbox, the result panel it
/// leaves, the quit question) and the inbox's list.
enum UpgradeReducer {
    struct Scope: Equatable {
        var upgrade: UpgradeUI?
        var overlay: Overlay?
        var messageList: ListScroll
    }

    static func reduce(_ action: UpgradeAction, _ state: inout Scope, _ app: AppContext) -> FeatureOutcome {
        switch action {
        case .start(let kind, let origin):
            let entry = origin == .signInPrompt ? app.entry(id: app.focusEntryID) : app.currentEntry
            guard let entry else { return .none }
            state.overlay = nil
            return ask(UpgradeRequest(entryID: entry.id, kind: kind, origin: origin), entry: entry, &state, app)
        case .startInApp(let kind):
            guard let entry = app.entry(id: app.focusEntryID), let token = app.appSession else { return .none }
            state.overlay = nil
            return ask(UpgradeRequest(entryID: entry.id, kind: kind, origin: .inApp, userInfo: ["session": token]), entry: entry, &state, app)
        case .confirm(let yes):
            guard case .confirmServiceChange(let change)? = state.overlay else { return .none }
            state.overlay = nil
            return yes ? start(change.request, title: change.title, &state, app) : .status(change.cancelled)
        case .stepped(let next, _):
            // The snapshot was applied by the app before this runs: `app` sees it.
            guard var upgrade = state.upgrade else { return .none }
            var outcome = FeatureOutcome.none
            switch next {
            case .completed(let done):
                let prefix = upgrade.request.origin == .inApp ? "\(done.serviceName) app: " : ""
                outcome.banner = Banner(ok: true, text: prefix + done.headline
                                      + (done.kind == .strongPassword ? " The old one is kept in history." : "")
                                      + (done.alsoUpdatedLine.map { " " + $0 } ?? ""),
                                      short: prefix + done.headline)
                state.upgrade = nil
                let entry = app.entry(id: done.entryID)
                show(.completed(done, title: upgrade.title, before: upgrade.before,
                                after: app.snapshot.report.recommendation(forEntry: done.entryID),
                                entry: entry, generatorBits: generatorBits(entry, app), cancelledTooLate: upgrade.cancelling), &state)
            case .failed(let reason):
                // A failed upgrade left the vault and the service as they were; say so,
                // unless the reason is the rare one where a change is kept to settle.
                let kept = reason.contains("staged") || reason.contains("settled")
                let said = reason.lowercased().contains("nothing was changed")
                outcome.banner = Banner(ok: false, text: "\(upgrade.title): \(reason)" + (kept || said ? "" : " Nothing was changed."),
                                      short: "\(upgrade.title): \(reason)")
                state.upgrade = nil
                show(.failed(reason: reason, kept: kept, title: upgrade.title, entryID: upgrade.request.entryID, before: upgrade.before), &state)
            case .cancelled:
                outcome.banner = Banner(ok: true, text: "\(upgrade.title): cancelled. Nothing was changed.")
                state.upgrade = nil
                // Esc while the service worked deserves the whole answer; a
                // cancel at the step-up screen or the sheet only the line.
                if upgrade.cancelling {
                    show(.cancelled(title: upgrade.title, entryID: upgrade.request.entryID,
                                    service: app.snapshot.catalog.manifest(forHost: app.entry(id: upgrade.request.entryID)?.site ?? "")?.name ?? "",
                                    before: upgrade.before), &state)
                }
            default:
                if case .stepUp = next { upgrade.code.clear() }
                // A security key is asked for: look for USB keys once (libfido2 lists them off the screen's thread).
                let lookForKeys: Bool
                if case .stepUp(let screen) = next, screen.method == .securityKey, upgrade.securityKeys == nil { lookForKeys = true } else { lookForKeys = false }
                upgrade.state = next
                state.upgrade = upgrade
                if lookForKeys && !upgrade.cancelling {
                    return .run { env in .upgrade(.securityKeysFound(env.upgrades?.securityKeys() ?? [])) }
                }
                // Esc came while the step ran and the step ended at a screen:
                // cancel from there, as the screen's own Cancel would.
                if upgrade.cancelling { return reduce(.cancel, &state, app) }
            }
            // "Quit while the upgrade runs?" asks about nothing once it has ended.
            if next.isFinished, case .confirmQuit(let over)? = state.overlay { state.overlay = over }
            return outcome
        case .stop:
            guard state.upgrade?.isWorking == true, state.upgrade?.cancelling == false else { return .none }
            state.upgrade?.cancelling = true
            return FeatureOutcome(effect: .run { env in
                env.upgrades?.requestCancel()
                return nil
            }, status: "Cancelling: asking the service to stop…")
        case .setRelay(let relay):
            state.upgrade?.relay = relay
            return .none
        case .submitCode:
            guard case .stepUp(let screen)? = state.upgrade?.state, let code = state.upgrade?.code.text else { return .none }
            guard !code.isEmpty else { return .status("Type the code first.") }
            state.upgrade?.state = .verifying(screen)
            return .run { env in env.upgrades.map { let step = $0.submitCode(code); return .upgrade(.stepped(step.state, step.snapshot)) } }
        case .fillCodeFromVault:
            guard let entry = app.entry(id: state.upgrade?.request.entryID), let uri = entry.totpURI,
                  let config = try? OTPAuthURL.parse(uri) else { return .none }
            state.upgrade?.code = TextField(config.code(at: Int64(app.now.timeIntervalSince1970)))
            return reduce(.submitCode, &state, app)
        case .openMessages:
            state.messageList = ListScroll()
            state.overlay = .messages
            return .none
        case .fillFromMessage:
            guard let code = boundCode(of: state.messageList.selected, upgrade: state.upgrade, app) else { return .none }
            state.overlay = nil
            state.upgrade?.code = TextField(code)
            return reduce(.submitCode, &state, app)
        case .resendCode:
            return .run { env in env.upgrades.map { let step = $0.resendCode(); return .upgrade(.stepped(step.state, step.snapshot)) } }
        case .cancel:
            state.overlay = nil
            return .run { env in env.upgrades.map { let step = $0.cancelUpgrade(); return .upgrade(.stepped(step.state, step.snapshot)) } }
        case .toggleEmail:
            guard case .sheet(let sheet)? = state.upgrade?.state, sheet.asksForEmail else { return .none }
            var toggled = sheet
            toggled.hideEmail.toggle()
            state.upgrade?.state = .sheet(toggled)  // drawn at once; the engine agrees below
            let hide = toggled.hideEmail
            return .run { env in env.upgrades.map { let step = $0.chooseEmail(hide: hide); return .upgrade(.stepped(step.state, step.snapshot)) } }
        case .continueSheet:
            guard case .sheet? = state.upgrade?.state else { return .none }
            state.upgrade?.state = .exchanging
            return .run { env in env.upgrades.map { let step = $0.continueWithApple(); return .upgrade(.stepped(step.state, step.snapshot)) } }
        case .savePasskey:
            guard case .passkeySheet? = state.upgrade?.state else { return .none }
            state.upgrade?.state = .exchanging
            return .run { env in env.upgrades.map { let step = $0.savePasskey(); return .upgrade(.stepped(step.state, step.snapshot)) } }
        case .useVaultPasskey:
            guard case .stepUp(let screen)? = state.upgrade?.state, screen.method == .securityKey else { return .none }
            state.upgrade?.state = .verifying(screen)
            return .run { env in env.upgrades.map { let step = $0.useVaultPasskey(); return .upgrade(.stepped(step.state, step.snapshot)) } }
        case .useUSBKey:
            guard case .stepUp(let screen)? = state.upgrade?.state, screen.method == .securityKey,
                  let device = state.upgrade?.securityKeys?.first else { return .none }
            state.upgrade?.state = .verifying(screen)
            return FeatureOutcome(effect: .run { env in env.upgrades.map { let step = $0.useSecurityKey(device); return .upgrade(.stepped(step.state, step.snapshot)) } },
                                  status: "Touch the security key when it blinks.")
        case .securityKeysFound(let keys):
            guard state.upgrade != nil else { return .none }
            state.upgrade?.securityKeys = keys
            return .none
        }
    }

    /// A new password is asked for before the service is told, unless the
    /// config says not to (Sign in with Apple and passkeys ask on their
    /// sheets, before anything changes); an upgrade the service does not
    /// offer says why at once, with nothing asked.
    static func ask(_ request: UpgradeRequest, entry: Entry, _ state: inout Scope, _ app: AppContext) -> FeatureOutcome {
        let unavailable = request.origin != .inApp && app.snapshot.catalog.availability(request.kind, for: entry).reason != nil
        guard app.confirmServiceChanges, request.kind == .strongPassword, !unavailable else { return start(request, title: entry.title, &state, app) }
        state.overlay = .confirmServiceChange(ServiceChange(request, entry: entry, catalog: app.snapshot.catalog))
        return .none
    }

    static func start(_ request: UpgradeRequest, title: String, _ state: inout Scope, _ app: AppContext) -> FeatureOutcome {
        if request.origin != .inApp, let entry = app.entry(id: request.entryID), let reason = app.snapshot.catalog.availability(request.kind, for: entry).reason {
            return .banner(Banner(ok: false, text: "\(title): \(request.kind.label) is unavailable: \(reason)."))
        }
        state.upgrade = UpgradeUI(request: request, title: title, state: .authorising)
        state.upgrade?.before = app.snapshot.report.recommendation(forEntry: request.entryID)
        if case .result? = state.overlay.presented { state.overlay.presented = nil }
        let entryID = request.entryID
        let run: Effect = .run { env in env.upgrades.map { let step = $0.startUpgrade(request); return .upgrade(.stepped(step.state, step.snapshot)) } }
        guard request.kind == .signInWithApple else { return FeatureOutcome(effect: run) }
        return FeatureOutcome(effect: .batch([.run { env in .upgrade(.setRelay(env.upgrades?.relayPreview(forEntry: entryID))) }, run]))
    }

    /// The entropy bulwark's generator gives a password for the entry's site.
    static func generatorBits(_ entry: Entry?, _ app: AppContext) -> Double? {
        guard let entry else { return nil }
        let rules = app.snapshot.requirements.passwordRules(for: entry.site)?.rules ?? ""
        return (try? PasswordRules.parse(rules)).flatMap { try? PasswordGenerator(rules: $0) }?.entropyBits
    }

    /// The result panel, over whatever else is open but the quit question.
    static func show(_ result: UpgradeResult, _ state: inout Scope) {
        state.overlay.presented = .result(result)  // under the quit question when it is up
    }

    /// The code of a message bound to the upgrade's site, if it is one.
    static func boundCode(of index: Int, upgrade: UpgradeUI?, _ app: AppContext) -> String? {
        guard app.snapshot.messages.indices.contains(index), let entry = app.entry(id: upgrade?.request.entryID),
              let bound = DomainBoundCode.parse(message: app.snapshot.messages[index].body),
              app.snapshot.catalog.codeSites(for: entry.site).contains(where: { bound.isOffered(forSite: $0) }) else { return nil }
        return bound.code
    }
}
