import BulwarkCore
import BulwarkUpgrades

/// The keys of "Log in with IDP": one table per page of the session.
extension Keymaps {
    static func webSignIn(_ state: AppState, _ web: WebSignInUI) -> Keymap<AppAction> {
        let cancel = B([.escape], .webSignIn(.cancel), help: "Cancel the sign-in (nothing changes)", hint: "cancel")
        let quit = B([.ctrl("c")], .interrupt, help: "Quit")
        let help = B([.char("?")], .showHelp, help: "Show the keys", hint: "help")
        switch web.step {
        case .alert:
            return Keymap("Sign in", [
                B([.enter], .webSignIn(.proceed), help: "Continue to the provider's sign-in page", hint: "continue"),
                B([.char("p")], .webSignIn(.toggleEphemeral), help: web.ephemeral ? "Use the shared browser session (the provider remembers you)"
                                                                      : "Use a private session (no cookie kept or used)", hint: "private"),
                help, cancel, quit,
            ])
        case .loginPage(let provider, _, _):
            // Every printable key is the form's (a password may hold "?"): only Enter, Tab, Esc and Ctrl-C are keys here.
            let typed = !web.email.isEmpty || !web.password.isEmpty
            let enter = typed || web.autoFill == nil
                ? B([.enter], .webSignIn(.submitLogin), help: "Sign in with the e-mail and password typed", hint: "sign in")
                : B([.enter], .webSignIn(.submitLogin), help: "AutoFill: use “\(web.autoFill ?? "")” (or type an account)", hint: "use saved account")
            return Keymap(provider, [
                enter,
                B([.tab], .webSignIn(.switchLoginField), help: "The other field (e-mail, password)", hint: "next field"),
                cancel, quit,
            ])
        case .secondFactor(let provider, _):
            let vaultCode = web.providerDomain.flatMap { WebAuthenticationSession.loginEntry(in: state.snapshot.entries, domain: $0)?.totpURI } != nil
            return Keymap(provider, [
                B([.enter], .webSignIn(.submitCode), help: "Verify the code (type it first)", hint: "verify"),
                B([.char("f")], .webSignIn(.fillCode), help: "Fill the code from bulwark", hint: "fill from vault",
                  disabledReason: vaultCode ? nil : "The vault holds no code for \(provider)"),
                help, cancel, quit,
            ])
        case .consent(let provider, let app):
            return Keymap(provider, [
                B([.enter], .webSignIn(.consent(true)), help: "Allow: share the sign-in with \(app)", hint: "allow"),
                B([.char("n")], .webSignIn(.consent(false)), help: "Don't allow (nothing is shared)", hint: "don't allow"),
                help, cancel, quit,
            ])
        case .signedIn, .failed, .cancelled:
            return Keymap("Sign in", [cancel, quit])
        }
    }

}
