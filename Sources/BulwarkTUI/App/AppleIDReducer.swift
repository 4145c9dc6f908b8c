import BulwarkCore
import BulwarkUpgrades
import Foundation

/// Sign in with Apple outside an upgrade: signing up at a service (choose
/// the service, then the sheet, then the new account and its entry), and,
/// for demos, a change in the person's Apple ID settings sent to a service.
enum AppleIDReducer {
    static let noServices = "No services known: give them with --services (bulwark demo has its own)."

    static func apply(_ action: AppAction, _ state: inout AppState) -> Effect? {
        switch action {
        case .openSignUp:
            let catalog = state.snapshot.catalog
            // A person's own vault knows only the services it was given: never the demo's mocks.
            guard !catalog.manifests.isEmpty else {
                state.status = Self.noServices
                return Effect.none
            }
            // Only services that offer it and whose sites agree they are theirs.
            let services = catalog.manifests.filter { $0.supportsSignInWithApple && catalog.manifest(forHost: $0.primaryDomain)?.id == $0.id }
                .map { SignUpUI.Service(id: $0.id, name: $0.name, domain: $0.primaryDomain) }
            state.signUp = SignUpUI(services: services)
            state.overlay = .signUp
            return Effect.none
        case .chooseSignUpService:
            guard let service = state.signUp?.chosen else { return Effect.none }
            return .run { env in env.session?.signUpSheet(serviceID: service.id).map { .signUpSheet($0.sheet, relay: $0.relay) } }
        case .signUpSheet(let sheet, let relay):
            guard state.signUp != nil else { return Effect.none }
            state.signUp?.sheet = sheet
            state.signUp?.relay = relay
            return Effect.none
        case .toggleSignUpEmail:
            state.signUp?.sheet?.hideEmail.toggle()
            return Effect.none
        case .continueSignUp:
            guard let signUp = state.signUp, let service = signUp.chosen, let sheet = signUp.sheet, !signUp.working else { return Effect.none }
            state.signUp?.working = true
            let hide = sheet.hideEmail
            return .run { env in env.session.map { .signedUp($0.signUpWithApple(serviceID: service.id, hideEmail: hide)) } }
        case .signedUp(let result):
            state.signUp = nil
            if state.overlay == .signUp { state.overlay = nil }
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
        case .appleIDEvent(let event, let title):
            return .run { env in
                env.session.map { session in
                    let line = session.sendAppleIDEvent(event, entryTitle: title)
                    return .updated(session.snapshot(), banner: Banner(ok: true, text: line))
                }
            }
        case .transferApp(let service, let team):
            return .run { env in
                env.session.map { session in
                    let line = session.transferApp(service: service, toTeam: team)
                    return .updated(session.snapshot(), banner: Banner(ok: true, text: line))
                }
            }
        case .cancelSignUp:
            state.signUp = nil
            if state.overlay == .signUp { state.overlay = nil }
            return Effect.none
        default:
            return nil
        }
    }
}
