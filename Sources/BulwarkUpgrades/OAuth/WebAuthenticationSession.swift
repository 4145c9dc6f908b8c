import BulwarkCore
import Foundation

/// The host's web authentication session (`ASWebAuthenticationSession`'s
/// analog) for a service's "Log in with IDP", played end to end: the app
/// makes `state`, a `nonce` and a PKCE verifier and asks to sign in; the
/// host asks the person first (the alert); the browser loads the provider's
/// authorization endpoint with the jar's cookie (a shared session) or none
/// (an ephemeral one); the provider's login page (AutoFill offers the
/// vault's accounts for its domain), its second factor, its consent; the
/// redirect back, checked for `iss` (RFC 9207) and `state`; the app's token
/// request with the verifier; the service checks the ID token and signs the
/// account in. Cancel at any point ends it as `canceledLogin` and nothing
/// changes. Each protocol message can be written to a transcript.
public final class WebAuthenticationSession {
    public enum Step: Sendable, Equatable {
        /// "“Shiny” Wants to Use “id.nimbus.example” to Sign In".
        case alert(app: String, domain: String)
        case loginPage(provider: String, domain: String, message: String?)
        case secondFactor(provider: String, message: String?)
        case consent(provider: String, app: String)
        case signedIn(SignedIn)
        case failed(String)
        /// `ASWebAuthenticationSessionError.canceledLogin`: nothing was changed.
        case cancelled
    }

    public struct SignedIn: Sendable, Equatable {
        public let service: String
        public let provider: String
        public let user: String
        public let linkedNow: Bool
    }

    public let service: ServiceManifest
    public let provider: MockAuthorizationServer
    public let login: FederatedLogin
    private let backend: MockBackend
    private let jar: CookieJar
    private var transcript: [[String: Any]] = []
    public private(set) var step: Step?
    private let state = Base64URL.encode(SecureRandom.bytes(16))
    private let nonce = Base64URL.encode(SecureRandom.bytes(16))
    private let verifier = PKCE.makeVerifier()
    private var request: String?

    public init(service: ServiceManifest, login: FederatedLogin, provider: MockAuthorizationServer, backend: MockBackend, jar: CookieJar) {
        self.service = service
        self.login = login
        self.provider = provider
        self.backend = backend
        self.jar = jar
    }

    /// The vault's account at a provider: the first entry for its login
    /// domain with a password (what AutoFill offers; its TOTP answers the
    /// provider's second factor).
    public static func loginEntry(in entries: some Sequence<Entry>, domain: String) -> Entry? {
        entries.first { $0.site == domain && $0.password != nil }
    }

    /// One JSON object per protocol message, as a browser's network log
    /// would list them; passwords, codes and tokens only as their lengths.
    public var transcriptLines: [String] {
        transcript.map { String(decoding: (try? JSONSerialization.data(withJSONObject: $0, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data(), as: UTF8.self) }
    }

    // MARK: The person's actions

    @discardableResult
    public func start() -> Step {
        set(.alert(app: service.name, domain: provider.manifest.loginDomain))
    }

    /// Continue on the alert: the browser loads the authorization request.
    @discardableResult
    public func continueAlert() -> Step {
        guard case .alert = step else { return step ?? .cancelled }
        let url = MockAuthorizationServer.url(provider.issuer + "/authorize", [
            ("response_type", "code"), ("client_id", login.clientID), ("redirect_uri", login.redirectURI), ("scope", "openid email"),
            ("state", state), ("nonce", nonce), ("code_challenge", PKCE.challenge(for: verifier)), ("code_challenge_method", "S256"),
        ])
        let cookie = jar.cookie(for: provider.manifest.loginDomain)
        log(["step": "authorization-request", "method": "GET", "url": url, "cookie": cookie == nil ? "none" : "session"])
        return show(provider.authorize(Self.query(of: url), cookie: cookie))
    }

    /// The provider's login form (filled by AutoFill or typed).
    @discardableResult
    public func submitLogin(email: String, password: String) -> Step {
        guard case .loginPage = step, let request else { return step ?? .cancelled }
        log(["step": "login-form", "method": "POST", "url": provider.issuer + "/login",
             "form": ["email": email, "password_length": password.count, "request": request]])
        let (page, cookie) = provider.login(request: request, email: email, password: password)
        keep(cookie)
        return show(page)
    }

    @discardableResult
    public func submitCode(_ code: String) -> Step {
        guard case .secondFactor = step, let request else { return step ?? .cancelled }
        log(["step": "second-factor-form", "method": "POST", "url": provider.issuer + "/login/code", "form": ["code_length": code.count, "request": request]])
        let (page, cookie) = provider.secondFactor(request: request, code: code)
        keep(cookie)
        return show(page)
    }

    @discardableResult
    public func consent(allow: Bool) -> Step {
        guard case .consent = step, let request else { return step ?? .cancelled }
        log(["step": "consent-form", "method": "POST", "url": provider.issuer + "/consent", "form": ["allow": allow, "request": request]])
        return show(provider.consent(request: request, allow: allow))
    }

    /// The host's Cancel: the session ends, the provider's request is left to expire, nothing changes.
    @discardableResult
    public func cancel() -> Step {
        guard let current = step, !current.isFinished else { return step ?? .cancelled }
        return set(.cancelled)
    }

    // MARK: Pages and the redirect back

    private func show(_ page: MockAuthorizationServer.Page) -> Step {
        switch page {
        case .error(let text): return set(.failed(text))
        case .login(let id, let message):
            request = id
            return set(.loginPage(provider: provider.manifest.name, domain: provider.manifest.loginDomain, message: message))
        case .secondFactor(let id, let message):
            request = id
            return set(.secondFactor(provider: provider.manifest.name, message: message))
        case .consent(let id, let app):
            request = id
            return set(.consent(provider: provider.manifest.name, app: app))
        case .redirect(let url):
            log(["step": "redirect", "url": url])
            return callback(url)
        }
    }

    /// The redirect to the app's callback: the provider's `iss`, our `state`, then the code's exchange.
    func callback(_ url: String) -> Step {
        guard url.hasPrefix(login.redirectURI + "?") else { return set(.failed("\(provider.manifest.name) sent the browser somewhere other than \(service.name)'s callback.")) }
        let query = Self.query(of: url)
        // RFC 9207: a response from another issuer is a mix-up attack, whatever it carries.
        guard query["iss"] == provider.issuer else { return set(.failed("The response names another issuer (\(query["iss"] ?? "none")), not \(provider.issuer): refused as a mix-up.")) }
        guard query["state"] == state else { return set(.failed("The response's state is not this request's: refused (a forged or replayed response).")) }
        if let error = query["error"] {
            return error == "access_denied" && query["error_description"] == "the person did not share the sign-in"
                ? set(.cancelled) : set(.failed("\(provider.manifest.name) refused: \(error) (\(query["error_description"] ?? "")).") )
        }
        guard let code = query["code"] else { return set(.failed("The response carries no code.")) }
        return exchange(code)
    }

    private func exchange(_ code: String) -> Step {
        let form = ["grant_type": "authorization_code", "code": code, "redirect_uri": login.redirectURI, "client_id": login.clientID,
                    "code_verifier": verifier]
        log(["step": "token-request", "method": "POST", "url": provider.issuer + "/token", "form": form])
        let (status, body) = provider.token(form)
        var shown: [String: Any] = ["step": "token-response", "status": status]
        var summary: [String: Any] = [:]
        for (key, value) in body {
            if key.hasSuffix("_token"), let text = value as? String { summary[key + "_length"] = text.count } else { summary[key] = value }
        }
        shown["body"] = summary
        log(shown)
        guard status == 200, let idToken = body["id_token"] as? String else {
            return set(.failed("\(provider.manifest.name)'s token endpoint refused: \(body["error"] as? String ?? "error") (\(body["error_description"] as? String ?? "")).") )
        }
        do {
            let signedIn = try backend.signIn(idToken: idToken, from: provider, login: login, nonce: nonce)
            return set(.signedIn(SignedIn(service: service.name, provider: provider.manifest.name, user: signedIn.user, linkedNow: signedIn.linkedNow)))
        } catch let refusal as MockBackend.Refusal {
            return set(.failed(refusal.reason + "."))
        } catch {
            return set(.failed("\(service.name) did not answer."))
        }
    }

    private func keep(_ cookie: String?) {
        if let cookie { jar.set(cookie, for: provider.manifest.loginDomain, lifetime: MockAuthorizationServer.sessionLifetime) }
    }

    @discardableResult
    private func set(_ next: Step) -> Step {
        step = next
        return next
    }

    private func log(_ message: [String: Any]) { transcript.append(message) }

    /// A URL's query as the server reads it.
    static func query(of url: String) -> [String: String] {
        var result: [String: String] = [:]
        for item in URLComponents(string: url)?.queryItems ?? [] { result[item.name] = item.value ?? "" }
        return result
    }
}

extension WebAuthenticationSession.Step {
    public var isFinished: Bool {
        switch self {
        case .signedIn, .failed, .cancelled: true
        default: false
        }
    }
}
