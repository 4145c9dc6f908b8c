import BulwarkCore
import BulwarkUpgrades
import Foundation

/// "Log in with IDP" on screen: the alert, the provider's login page with
/// AutoFill, its second factor, its consent; then the banner.
enum WebSignInReducer {
    static func reduce(_ action: WebSignInAction, _ state: inout AppState) -> Effect {
        switch action {
        case .start:
            guard let entry = state.currentEntry else { return Effect.none }
            state.focusEntryID = entry.id
            let id = entry.id, title = entry.title
            return .run { env in
                guard let signIn = env.signIn, let vault = env.vault, let alert = signIn.webSignInAlert(forEntry: id) else {
                    return .vault(.failed("\(title)'s service offers no sign-in through an identity provider."))
                }
                return .webSignIn(.stepped(alert, vault.snapshot(), autoFill: nil))
            }
        case .toggleEphemeral:
            state.webSignIn?.ephemeral.toggle()
            return Effect.none
        case .proceed:
            guard let web = state.webSignIn, case .alert = web.step else { return Effect.none }
            let id = web.entryID, ephemeral = web.ephemeral
            return step { $0.webContinue(forEntry: id, ephemeral: ephemeral) }
        case .autoFill:
            guard case .loginPage? = state.webSignIn?.step, state.webSignIn?.autoFill != nil else { return Effect.none }
            return step { $0.webAutoFill() }
        case .submitCode:
            guard case .secondFactor? = state.webSignIn?.step, let code = state.webSignIn?.code.text else { return Effect.none }
            guard !code.isEmpty else {
                state.status = "Type the code first."
                return Effect.none
            }
            return step { $0.webSubmitCode(code) }
        case .fillCode:
            guard case .secondFactor? = state.webSignIn?.step else { return Effect.none }
            return .run { env in
                guard let signIn = env.signIn, let code = signIn.webCodeFromVault() else { return nil }
                let next = signIn.webSubmitCode(code)
                return .webSignIn(.stepped(next.step, next.snapshot, autoFill: nil))
            }
        case .consent(let allow):
            guard case .consent? = state.webSignIn?.step else { return Effect.none }
            return step { $0.webConsent(allow: allow) }
        case .cancel:
            guard let web = state.webSignIn else { return Effect.none }
            if case .alert = web.step {  // nothing was contacted yet
                return reduce(.stepped(.cancelled, state.snapshot, autoFill: nil), &state)
            }
            return step { $0.webCancel() }
        case .stepped(let next, let snapshot, let autoFill):
            state.apply(snapshot)
            return show(next, autoFill: autoFill, &state)
        }
    }

    private static func step(_ body: @escaping @Sendable (any SignInClient) -> WebStep) -> Effect {
        .run { env in
            guard let signIn = env.signIn else { return nil }
            let next = body(signIn)
            var autoFill: String?
            if case .loginPage(_, let domain, _) = next.step { autoFill = signIn.webAutoFillAccount(domain: domain) }
            return .webSignIn(.stepped(next.step, next.snapshot, autoFill: autoFill))
        }
    }

    private static func show(_ next: WebAuthenticationSession.Step, autoFill: String?, _ state: inout AppState) -> Effect {
        let title = state.entry(id: state.focusEntryID)?.title ?? "The service"
        switch next {
        case .signedIn(let result):
            state.webSignIn = nil
            state.banner = Banner(ok: true, text: "Signed in to \(title) through \(result.provider) (as \(result.user))"
                                  + (result.linkedNow ? "; the account is now linked to it." : "."))
        case .failed(let reason):
            state.webSignIn = nil
            state.banner = Banner(ok: false, text: "\(title): \(reason) Nothing was changed.")
        case .cancelled:
            state.webSignIn = nil
            state.banner = Banner(ok: true, text: "\(title): sign-in cancelled. Nothing was changed.")
        default:
            var web = state.webSignIn ?? WebSignInUI(entryID: state.focusEntryID ?? "", title: title, step: next)
            web.code.clear()  // a new page, or the same page saying the code was wrong
            web.step = next
            if next.isLoginPage { web.autoFill = autoFill }
            if case .alert(_, let domain) = next { web.providerDomain = domain }
            state.webSignIn = web
        }
        return Effect.none
    }
}

extension WebAuthenticationSession.Step {
    var isLoginPage: Bool { if case .loginPage = self { true } else { false } }
}
