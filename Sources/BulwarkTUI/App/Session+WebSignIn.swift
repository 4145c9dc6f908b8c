import BulwarkCore
import BulwarkUpgrades
import Foundation

/// "Log in with IDP" in the app: the web authentication session runs here,
/// the screens see only its steps. AutoFill offers the vault's account for
/// the provider's login domain; its code comes from that entry's TOTP.
extension AppSession {
    /// The alert before anything is contacted: the app's name and the provider's domain; nil when the service has no provider.
    public func webSignInAlert(forEntry id: String) -> WebAuthenticationSession.Step? {
        lock.withLock {
            guard let entry = vault?.entry(id: id), let manifest = catalog.manifest(forHost: entry.site),
                  let login = manifest.signInWith?.first(where: { entry.signsInWith == nil || $0.issuer == entry.signsInWith }),
                  let provider = catalog.provider(issuer: login.issuer) else { return nil }
            return .alert(app: manifest.name, domain: provider.loginDomain)
        }
    }

    /// Continue on the alert: the session starts (shared or ephemeral) and the browser loads the provider.
    public func webContinue(forEntry id: String, ephemeral: Bool) -> WebStep {
        webStep { vault, world in
            guard let entry = vault.entry(id: id),
                  let session = try world.webAuthenticationSession(for: entry, issuer: entry.signsInWith, ephemeral: ephemeral) else {
                return .failed("The service offers no sign-in through an identity provider.")
            }
            webSession = session
            webEntryID = id
            session.start()
            return session.continueAlert()
        }
    }

    /// The vault's account for the provider's login page (what AutoFill offers).
    public func webAutoFillAccount(domain: String) -> String? {
        lock.withLock { vault.flatMap { WebAuthenticationSession.loginEntry(in: $0.entries, domain: domain)?.username } }
    }

    public func webAutoFill() -> WebStep {
        webStep { vault, _ in
            guard let session = webSession, case .loginPage(_, let domain, _)? = session.step,
                  let account = WebAuthenticationSession.loginEntry(in: vault.entries, domain: domain), let password = account.password else {
                return webSession?.step ?? .cancelled
            }
            return session.submitLogin(email: account.username, password: password)
        }
    }

    public func webSubmitLogin(email: String, password: String) -> WebStep {
        webStep { _, _ in webSession?.submitLogin(email: email, password: password) ?? .cancelled }
    }

    /// The provider's code from its entry's TOTP, when the vault holds one.
    public func webCodeFromVault() -> String? {
        lock.withLock {
            guard let domain = webSession?.provider.manifest.loginDomain, let entries = vault?.entries,
                  let uri = WebAuthenticationSession.loginEntry(in: entries, domain: domain)?.totpURI,
                  let config = try? OTPAuthURL.parse(uri) else { return nil }
            return config.code(at: Int64(clock().timeIntervalSince1970))
        }
    }

    public func webSubmitCode(_ code: String) -> WebStep { webStep { _, _ in webSession?.submitCode(code) ?? .cancelled } }
    public func webConsent(allow: Bool) -> WebStep { webStep { _, _ in webSession?.consent(allow: allow) ?? .cancelled } }
    public func webCancel() -> WebStep { webStep { _, _ in webSession?.cancel() ?? .cancelled } }

    /// Runs one step; a sign-in that went through records the provider on the entry.
    private func webStep(_ body: (Vault, ServiceWorld) throws -> WebAuthenticationSession.Step) -> WebStep {
        lock.withLock {
            guard let vault else { return (.failed("The vault is locked."), makeSnapshot()) }
            guard let world else { return (.failed(Self.noServices), makeSnapshot()) }
            let step: WebAuthenticationSession.Step
            do { step = try body(vault, world) } catch { step = .failed("\(error)") }
            if case .signedIn = step, let session = webSession, let id = webEntryID,
               vault.entry(id: id)?.signsInWith == nil,
               (try? vault.update(id) { $0.signsInWith = session.provider.issuer }) != nil {
                refresh([id])
            }
            if step.isFinished { webSession = nil }
            return (step, makeSnapshot())
        }
    }
}
