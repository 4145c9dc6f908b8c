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
        case .loginPage(let provider, let domain, _):
            return Keymap(provider, [
                B([.enter], .webSignIn(.autoFill), help: web.autoFill.map { "AutoFill: use “\($0)”" } ?? "AutoFill", hint: "use saved account",
                  disabledReason: web.autoFill == nil ? "The vault holds no account for \(domain)" : nil),
                help, cancel, quit,
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
