import BulwarkCore
import BulwarkUpgrades
import Foundation

/// Sign in with Apple outside an upgrade: signing up at a service (choose
/// the service, then the sheet, then the new account and its entry).
enum SignUpReducer {
    static let noServices = "No services known: give them with --services (bulwark demo has its own)."

    static func reduce(_ action: SignUpAction, _ state: inout AppState) -> Effect {
        switch action {
        case .open:
            let catalog = state.snapshot.catalog
            // A person's own vault knows only the services it was given: never the demo's mocks.
            guard !catalog.manifests.isEmpty else {
                state.status = Self.noServices
                return Effect.none
            }
            // Only services that offer it and whose sites agree they are theirs.
            let services = catalog.manifests.filter { $0.supportsSignInWithApple && catalog.manifest(forHost: $0.primaryDomain)?.id == $0.id }
                .map { SignUpUI.Service(id: $0.id, name: $0.name, domain: $0.primaryDomain) }
            state.overlay = .signUp(SignUpUI(services: services))
            return Effect.none
        case .chooseService:
            guard let service = state.signUp?.chosen else { return Effect.none }
            // An account there already: its upgrade is how the service avoids a duplicate; a new one only when asked for.
            if state.signUp?.newAccount != true, let manifest = state.snapshot.catalog.manifest(id: service.id) {
                let existing = SignUpWithApple.existingAccounts(at: manifest, in: state.snapshot.entries, catalog: state.snapshot.catalog)
                if !existing.isEmpty {
                    state.signUp?.existing = existing.map { SignUpUI.Existing(id: $0.id, said: SignUpWithApple.describe($0)) }
                    return Effect.none
                }
            }
            return .run { env in env.appleID?.signUpSheet(serviceID: service.id).map { .signUp(.sheet($0.sheet, relay: $0.relay)) } }
        case .newAccount:
            state.signUp?.existing = nil
            state.signUp?.newAccount = true
            return reduce(.chooseService, &state)
        case .upgradeExisting:
            guard let id = state.signUp?.existing?.first?.id, let entry = state.entry(id: id) else { return Effect.none }
            state.signUp = nil
            // The account in the vault, selected, and its upgrade started as `a` starts it.
            state.showInVault(id)
            if let reason = state.offer(.signInWithApple, for: entry).reason {
                state.status = "\(entry.title) cannot be upgraded to Sign in with Apple: \(reason)."
                return Effect.none
            }
            return UpgradeReducer.reduce(.start(.signInWithApple, .entry), &state)
        case .sheet(let sheet, let relay):
            guard state.signUp != nil else { return Effect.none }
            state.signUp?.sheet = sheet
            state.signUp?.relay = relay
            return Effect.none
        case .toggleEmail:
            state.signUp?.sheet?.hideEmail.toggle()
            return Effect.none
        case .proceed:
            guard let signUp = state.signUp, let service = signUp.chosen, let sheet = signUp.sheet, !signUp.working else { return Effect.none }
            state.signUp?.working = true
            let hide = sheet.hideEmail
            return .run { env in env.appleID.map { .signUp(.signedUp($0.signUpWithApple(serviceID: service.id, hideEmail: hide))) } }
        case .signedUp(let result):
            state.signUp = nil
            switch result {
            case .done(let snapshot, let id, let summary):
                state.apply(snapshot)
                state.banner = Banner(ok: true, text: summary)
                let entries = state.snapshot.entries
                if let index = state.visible.firstIndex(where: { entries[$0].id == id }) { state.list.select(index, count: state.visible.count) }
            case .refused(let reason):
                state.banner = Banner(ok: false, text: reason)
            }
            return Effect.none
        case .cancel:
            state.signUp = nil
            return Effect.none
        }
    }
}
