import BulwarkCore
import BulwarkUpgrades
import Foundation

/// Sign in with Apple outside an upgrade: signing up at a service (choose
/// the service, then the sheet, then the new account and its entry).
/// Scoped to its own state: the dialog's, nil when it is closed.
enum SignUpReducer {
    static let noServices = "No services known: give them with --services (bulwark demo has its own)."

    static func reduce(_ action: SignUpAction, _ signUp: inout SignUpUI?, _ app: AppContext) -> FeatureOutcome {
        let catalog = app.snapshot.catalog
        switch action {
        case .open:
            // A person's own vault knows only the services it was given: never the demo's mocks.
            guard !catalog.manifests.isEmpty else { return .status(Self.noServices) }
            // Only services that offer it and whose sites agree they are theirs.
            let services = catalog.manifests.filter { $0.supportsSignInWithApple && catalog.manifest(forHost: $0.primaryDomain)?.id == $0.id }
                .map { SignUpUI.Service(id: $0.id, name: $0.name, domain: $0.primaryDomain) }
            signUp = SignUpUI(services: services)
            return .none
        case .chooseService:
            guard let service = signUp?.chosen else { return .none }
            // An account there already: its upgrade is how the service avoids a duplicate; a new one only when asked for.
            if signUp?.newAccount != true, let manifest = catalog.manifest(id: service.id) {
                let existing = SignUpWithApple.existingAccounts(at: manifest, in: app.snapshot.entries, catalog: catalog)
                if !existing.isEmpty {
                    signUp?.existing = existing.map { SignUpUI.Existing(id: $0.id, said: SignUpWithApple.describe($0)) }
                    return .none
                }
            }
            return .run { env in env.appleID?.signUpSheet(serviceID: service.id).map { .signUp(.sheet($0.sheet, relay: $0.relay)) } }
        case .newAccount:
            signUp?.existing = nil
            signUp?.newAccount = true
            return reduce(.chooseService, &signUp, app)
        case .upgradeExisting:
            guard let id = signUp?.existing?.first?.id else { return .none }
            signUp = nil
            return FeatureOutcome(then: .vault(.upgradeInVault(entryID: id, .signInWithApple)))
        case .sheet(let sheet, let relay):
            guard signUp != nil else { return .none }
            signUp?.sheet = sheet
            signUp?.relay = relay
            return .none
        case .toggleEmail:
            if signUp?.sheet?.asksForEmail == true { signUp?.sheet?.hideEmail.toggle() }
            return .none
        case .proceed:
            guard let current = signUp, let service = current.chosen, let sheet = current.sheet, !current.working else { return .none }
            signUp?.working = true
            let hide = sheet.hideEmail
            return .run { env in env.appleID.map { .signUp(.signedUp($0.signUpWithApple(serviceID: service.id, hideEmail: hide))) } }
        case .signedUp(let result):
            signUp = nil
            switch result {
            case .done(_, _, let summary): return .banner(Banner(ok: true, text: summary))  // the app shows the new entry
            case .refused(let reason): return .banner(Banner(ok: false, text: reason))
            }
        case .cancel:
            signUp = nil
            return .none
        }
    }
}
