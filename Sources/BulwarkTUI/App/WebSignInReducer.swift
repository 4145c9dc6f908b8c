import BulwarkCore
import BulwarkUpgrades
import Foundation

/// "Log in with IDP" on screen: the alert, the provider's login page with
/// AutoFill, its second factor, its consent; then the banner. Scoped to
/// its own state: the session on screen, nil when none is.
enum WebSignInReducer {
    static func reduce(_ action: WebSignInAction, _ web: inout WebSignInUI?, _ app: AppContext) -> FeatureOutcome {
        switch action {
        case .start:
            guard let entry = app.currentEntry else { return .none }
            let id = entry.id, title = entry.title
            return .run { env in
                guard let signIn = env.signIn, let vault = env.vault, let alert = signIn.webSignInAlert(forEntry: id) else {
                    return .vault(.failed("\(title)'s service offers no sign-in through an identity provider."))
                }
                return .webSignIn(.began(entryID: id, title: title, alert, vault.snapshot()))
            }
        case .began(let id, let title, let step, _):
            web = WebSignInUI(entryID: id, title: title, step: step)
            return show(step, autoFill: nil, &web)
        case .toggleEphemeral:
            web?.ephemeral.toggle()
            return .none
        case .proceed:
            guard let current = web, case .alert = current.step else { return .none }
            let id = current.entryID, ephemeral = current.ephemeral
            return step { $0.webContinue(forEntry: id, ephemeral: ephemeral) }
        case .autoFill:
            guard case .loginPage? = web?.step, web?.autoFill != nil else { return .none }
            return step { $0.webAutoFill() }
        case .submitLogin:
            guard case .loginPage? = web?.step, let form = web else { return .none }
            if form.email.isEmpty && form.password.isEmpty {
                return form.autoFill == nil ? .status("Type the e-mail and password (the vault holds no account here).") : reduce(.autoFill, &web, app)
            }
            guard !form.email.isEmpty, !form.password.isEmpty else { return .status("Type both the e-mail and the password.") }
            let email = form.email.text, password = form.password.text
            web?.password.clear()  // never kept past the page it was typed on
            return step { $0.webSubmitLogin(email: email, password: password) }
        case .switchLoginField:
            web?.passwordFocused.toggle()
            return .none
        case .submitCode:
            guard case .secondFactor? = web?.step, let code = web?.code.text else { return .none }
            guard !code.isEmpty else { return .status("Type the code first.") }
            return step { $0.webSubmitCode(code) }
        case .fillCode:
            guard case .secondFactor? = web?.step else { return .none }
            return .run { env in
                guard let signIn = env.signIn, let code = signIn.webCodeFromVault() else { return nil }
                let next = signIn.webSubmitCode(code)
                return .webSignIn(.stepped(next.step, next.snapshot, autoFill: nil))
            }
        case .consent(let allow):
            guard case .consent? = web?.step else { return .none }
            return step { $0.webConsent(allow: allow) }
        case .cancel:
            guard let current = web else { return .none }
            if case .alert = current.step { return show(.cancelled, autoFill: nil, &web) }  // nothing was contacted yet
            return step { $0.webCancel() }
        case .stepped(let next, _, let autoFill):
            guard web != nil else { return .none }  // locked, or ended, meanwhile
            return show(next, autoFill: autoFill, &web)
        }
    }

    private static func step(_ body: @escaping @Sendable (any SignInClient) -> WebStep) -> FeatureOutcome {
        .run { env in
            guard let signIn = env.signIn else { return nil }
            let next = body(signIn)
            var autoFill: String?
            if case .loginPage(_, let domain, _) = next.step { autoFill = signIn.webAutoFillAccount(domain: domain) }
            return .webSignIn(.stepped(next.step, next.snapshot, autoFill: autoFill))
        }
    }

    private static func show(_ next: WebAuthenticationSession.Step, autoFill: String?, _ web: inout WebSignInUI?) -> FeatureOutcome {
        let title = web?.title ?? "The service"
        switch next {
        case .signedIn(let result):
            web = nil
            return .banner(Banner(ok: true, text: "Signed in to \(title) through \(result.provider) (as \(result.user))"
                                  + (result.linkedNow ? "; the account is now linked to it." : ".")))
        case .failed(let reason):
            web = nil
            return .banner(Banner(ok: false, text: "\(title): \(reason) Nothing was changed."))
        case .cancelled:
            web = nil
            return .banner(Banner(ok: true, text: "\(title): sign-in cancelled. Nothing was changed."))
        default:
            web?.code.clear()  // a new page, or the same page saying the code was wrong
            web?.step = next
            if next.isLoginPage { web?.autoFill = autoFill } else {
                web?.email.clear()
                web?.password.clear()
            }
            if case .alert(_, let domain) = next { web?.providerDomain = domain }
            return .none
        }
    }
}

extension WebAuthenticationSession.Step {
    var isLoginPage: Bool { if case .loginPage = self { true } else { false } }
}
