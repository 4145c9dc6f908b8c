import BulwarkCore
import Foundation

/// The provider's endpoints, each taking what a browser or a client would
/// send: the authorization endpoint and the pages behind it (login, second
/// factor, consent), and the token endpoint.
extension MockAuthorizationServer {
    /// What the authorization endpoint (and its pages) answer the browser.
    public enum Page: Sendable, Equatable {
        /// Shown to the person, never redirected: the client or its redirect URI is unknown (RFC 6749 §4.1.2.1).
        case error(String)
        case login(request: String, message: String?)
        case secondFactor(request: String, message: String?)
        case consent(request: String, client: String)
        /// 302 to the client: `code`, `state` and `iss`, or `error` with them.
        case redirect(String)
    }

    // MARK: Authorization endpoint

    public func authorize(_ query: [String: String], cookie: String?) -> Page {
        guard let clientID = query["client_id"], let client = manifest.client(clientID) else {
            return .error("\(manifest.name) does not know this app (client_id \(query["client_id"] ?? "missing")).")
        }
        guard let redirect = query["redirect_uri"], client.redirectURIs.contains(redirect) else {
            return .error("\(manifest.name) will not send you back to \(query["redirect_uri"] ?? "(none)"): it is not a redirect URI \(client.name) registered.")
        }
        let state = query["state"] ?? ""
        func refuse(_ error: OAuthError) -> Page { .redirect(errorRedirect(redirect, error, state: state)) }
        guard query["response_type"] == "code" else {
            return refuse(OAuthError(.unsupportedResponseType, "only the authorization code flow is offered"))
        }
        guard let challenge = query["code_challenge"] else { return refuse(OAuthError(.invalidRequest, "PKCE is required: code_challenge is missing")) }
        guard query["code_challenge_method"] == "S256" else {
            return refuse(OAuthError(.invalidRequest, "transform algorithm not supported: code_challenge_method must be S256"))
        }
        guard challenge.utf8.count == 43, Base64URL.decode(challenge)?.count == 32 else {
            return refuse(OAuthError(.invalidRequest, "code_challenge is not BASE64URL(SHA-256(verifier))"))
        }
        let scope = query["scope"] ?? ""
        guard scope.split(separator: " ").contains("openid") else { return refuse(OAuthError(.invalidScope, "the openid scope is required")) }
        let id = "req-" + SecureRandom.bytes(12).hex
        guard (try? db.query("INSERT INTO requests(id, client, redirect, state, nonce, challenge, scope, expires) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                             [.text(id), .text(clientID), .text(redirect), .text(state), .text(query["nonce"] ?? ""), .text(challenge),
                              .text(scope), .real(now + Self.requestLifetime)])) != nil else {
            return refuse(OAuthError(.serverError, "the request could not be kept"))
        }
        // A session the browser already holds skips the login page.
        if let cookie, let subject = try? sessionSubject(cookie) { return authenticated(request: id, subject: subject) }
        return .login(request: id, message: nil)
    }

    /// The login page's form: e-mail and password.
    public func login(request id: String, email: String, password: String) -> (page: Page, setCookie: String?) {
        guard let request = pending(id) else { return (.error("That sign-in page has expired. Start again from the app."), nil) }
        // Counted per e-mail whether or not an account has it, so the count says nothing of which do.
        let account = email.lowercased()
        if let until = lockedUntil(account, .password) { return (.login(request: id, message: lockedMessage(.password, until: until)), nil) }
        guard let row = try? db.query("SELECT salt, hash, subject, totp FROM accounts WHERE email = ?", [.text(email)]).first,
              let salt = row[0].blob, let stored = row[1].blob, let subject = row[2].text,
              let computed = try? Scrypt.derive(password: Array(password.utf8), salt: salt, parameters: Self.hashParameters),
              ConstantTime.equal(computed, stored) else {
            let (left, until) = fail(account, .password)
            if let until { return (.login(request: id, message: lockedMessage(.password, until: until)), nil) }
            return (.login(request: id, message: "That e-mail or password is not right. \(left) \(left == 1 ? "attempt" : "attempts") left."), nil)
        }
        succeeded(account, .password)
        if manifest.secondFactor == .totp, row[3].text != nil {
            _ = try? db.query("UPDATE requests SET subject = ?, second_factor_due = 1 WHERE id = ?", [.text(subject), .text(request.id)])
            return (.secondFactor(request: id, message: nil), nil)
        }
        return signedIn(request: request.id, subject: subject)
    }

    /// The second-factor page: a TOTP code, once per step, five wrong ones end the request.
    public func secondFactor(request id: String, code: String) -> (page: Page, setCookie: String?) {
        guard let request = pending(id), request.secondFactorDue, let subject = request.subject,
              let uri = try? db.query("SELECT totp FROM accounts WHERE subject = ?", [.text(subject)]).first?[0].text,
              let config = try? OTPAuthURL.parse(uri), case .totp(let period) = config.kind else {
            return (.error("That sign-in page has expired. Start again from the app."), nil)
        }
        if let until = lockedUntil(subject, .code) {
            _ = try? db.query("DELETE FROM requests WHERE id = ?", [.text(request.id)])
            return (.redirect(errorRedirect(request.redirect, OAuthError(.accessDenied, lockedMessage(.code, until: until)), state: request.state)), nil)
        }
        let typed = code.filter { !$0.isWhitespace }
        let at = Int64(now)
        let last = (try? db.query("SELECT last_step FROM totp_steps WHERE subject = ?", [.text(subject)]).first?.first?.integer) ?? nil
        var reused = false
        for offset in [-1, 0, 1] {
            let moment = at + Int64(offset * period)
            guard ConstantTime.equal(Array(typed.utf8), Array(config.code(at: moment).utf8)) else { continue }
            let step = Int64(OneTimePassword.timeStep(at: moment, period: period))
            if let last, step <= last {  // a code accepted once is not accepted again
                reused = true
                break
            }
            _ = try? db.query("INSERT OR REPLACE INTO totp_steps(subject, last_step) VALUES (?, ?)", [.text(subject), .integer(step)])
            succeeded(subject, .code)
            return signedIn(request: request.id, subject: subject)
        }
        // Counted for the account, not the request: a new request does not start afresh, and the cool-down is kept.
        let (left, until) = fail(subject, .code)
        if let until {
            _ = try? db.query("DELETE FROM requests WHERE id = ?", [.text(request.id)])
            return (.redirect(errorRedirect(request.redirect, OAuthError(.accessDenied, lockedMessage(.code, until: until)), state: request.state)), nil)
        }
        let attempts = "\(left) \(left == 1 ? "attempt" : "attempts") left"
        if reused {
            let next = Int64(period) - at % Int64(period)
            return (.secondFactor(request: id, message: "That code was already used; the next one comes in \(next) s. \(attempts)."), nil)
        }
        return (.secondFactor(request: id, message: "That code is not right. \(attempts)."), nil)
    }

    /// The consent page: share the sign-in with the app, or not (`access_denied`).
    public func consent(request id: String, allow: Bool) -> Page {
        guard let request = pending(id), let subject = request.subject, !request.secondFactorDue else {
            return .error("That sign-in page has expired. Start again from the app.")
        }
        guard allow else {
            _ = try? db.query("DELETE FROM requests WHERE id = ?", [.text(id)])
            return .redirect(errorRedirect(request.redirect, OAuthError(.accessDenied, "the person did not share the sign-in"), state: request.state))
        }
        _ = try? db.query("INSERT OR IGNORE INTO consents(subject, client) VALUES (?, ?)", [.text(subject), .text(request.client)])
        return issueCode(request, subject: subject)
    }

    // MARK: Token endpoint

    /// `POST /token` with a form; the status and JSON body.
    public func token(_ form: [String: String]) -> (status: Int, body: [String: Any]) {
        func failure(_ error: OAuthError) -> (Int, [String: Any]) {
            (error.code == .invalidClient ? 401 : 400, ["error": error.code.rawValue, "error_description": error.detail])
        }
        guard form["grant_type"] == "authorization_code" else {
            return failure(OAuthError(.unsupportedGrantType, "only authorization_code is offered (no implicit, password or client credentials grant)"))
        }
        guard let code = form["code"], let redirect = form["redirect_uri"], let clientID = form["client_id"], let verifier = form["code_verifier"] else {
            return failure(OAuthError(.invalidRequest, "code, redirect_uri, client_id and code_verifier are required"))
        }
        guard manifest.client(clientID) != nil else { return failure(OAuthError(.invalidClient, "unknown client")) }
        guard PKCE.isVerifier(verifier) else { return failure(OAuthError(.invalidRequest, "code_verifier must be 43 to 128 unreserved characters")) }
        guard let row = try? db.query("SELECT client, redirect, challenge, subject, nonce, expires, used FROM codes WHERE code = ?", [.text(code)]).first,
              let codeClient = row[0].text, let codeRedirect = row[1].text, let challenge = row[2].text, let subject = row[3].text,
              let nonce = row[4].text, case .real(let expires) = row[5] else {
            return failure(OAuthError(.invalidGrant, "the code is unknown"))
        }
        guard row[6].integer == 0 else { return failure(OAuthError(.invalidGrant, "the code was already used")) }
        _ = try? db.query("UPDATE codes SET used = 1 WHERE code = ?", [.text(code)])  // spent whatever follows
        guard expires > now else { return failure(OAuthError(.invalidGrant, "the code has expired")) }
        guard codeClient == clientID else { return failure(OAuthError(.invalidGrant, "the code was issued to another client")) }
        guard codeRedirect == redirect else { return failure(OAuthError(.invalidGrant, "redirect_uri differs from the authorization request's")) }
        guard PKCE.challenge(for: verifier) == challenge else { return failure(OAuthError(.invalidGrant, "code_verifier does not match the code_challenge")) }
        let email = (try? db.query("SELECT email FROM accounts WHERE subject = ?", [.text(subject)]).first?[0].text) ?? nil
        var claims: [String: Any] = ["iss": issuer, "sub": subject, "aud": clientID, "iat": Int(now), "exp": Int(now) + 600]
        if !nonce.isEmpty { claims["nonce"] = nonce }
        if let email { claims["email"] = email }
        guard let idToken = try? JWS.signES256(claims, key: signingKey, keyID: keyID) else { return failure(OAuthError(.serverError, "signing failed")) }
        return (200, ["access_token": "at-" + SecureRandom.bytes(24).hex, "token_type": "Bearer", "expires_in": 3600, "id_token": idToken,
                      "scope": "openid email"])
    }

    // MARK: The steps between

    struct Pending { let id, client, redirect, state, nonce, challenge: String; let subject: String?; let secondFactorDue: Bool }

    func pending(_ id: String) -> Pending? {
        guard let row = try? db.query("SELECT client, redirect, state, nonce, challenge, expires, subject, second_factor_due FROM requests WHERE id = ?",
                                      [.text(id)]).first,
              let client = row[0].text, let redirect = row[1].text, let state = row[2].text, let nonce = row[3].text, let challenge = row[4].text,
              case .real(let expires) = row[5], expires > now else { return nil }
        return Pending(id: id, client: client, redirect: redirect, state: state, nonce: nonce, challenge: challenge, subject: row[6].text,
                       secondFactorDue: row[7].integer == 1)
    }

    /// Password (and second factor) passed: a session cookie for the browser, then consent or the code.
    private func signedIn(request id: String, subject: String) -> (page: Page, setCookie: String?) {
        let cookie = "nimbus-session-" + SecureRandom.bytes(16).hex
        _ = try? db.query("INSERT INTO sessions(cookie, subject, expires) VALUES (?, ?, ?)", [.text(cookie), .text(subject), .real(now + Self.sessionLifetime)])
        return (authenticated(request: id, subject: subject), cookie)
    }

    private func authenticated(request id: String, subject: String) -> Page {
        _ = try? db.query("UPDATE requests SET subject = ?, second_factor_due = 0 WHERE id = ?", [.text(subject), .text(id)])
        guard let request = pending(id), let client = manifest.client(request.client) else { return .error("That sign-in page has expired.") }
        let consented = (try? db.query("SELECT 1 FROM consents WHERE subject = ? AND client = ?", [.text(subject), .text(request.client)]))?.isEmpty == false
        return consented ? issueCode(request, subject: subject) : .consent(request: id, client: client.name)
    }

    private func issueCode(_ request: Pending, subject: String) -> Page {
        let code = "code-" + SecureRandom.bytes(16).hex
        _ = try? db.query("INSERT INTO codes(code, client, redirect, challenge, subject, nonce, expires) VALUES (?, ?, ?, ?, ?, ?, ?)",
                          [.text(code), .text(request.client), .text(request.redirect), .text(request.challenge), .text(subject),
                           .text(request.nonce), .real(now + Self.codeLifetime)])
        _ = try? db.query("DELETE FROM requests WHERE id = ?", [.text(request.id)])
        return .redirect(Self.url(request.redirect, [("code", code), ("state", request.state), ("iss", issuer)]))
    }

    func sessionSubject(_ cookie: String) throws -> String? {
        guard let row = try db.query("SELECT subject, expires FROM sessions WHERE cookie = ?", [.text(cookie)]).first,
              case .real(let expires) = row[1], expires > now else { return nil }
        return row[0].text
    }

    private func errorRedirect(_ redirect: String, _ error: OAuthError, state: String) -> String {
        Self.url(redirect, [("error", error.code.rawValue), ("error_description", error.detail), ("state", state), ("iss", issuer)])
    }

    /// A URL with query parameters added, percent-encoded.
    static func url(_ base: String, _ items: [(String, String)]) -> String {
        var components = URLComponents(string: base) ?? URLComponents()
        components.queryItems = (components.queryItems ?? []) + items.map { URLQueryItem(name: $0.0, value: $0.1) }
        // `+` is a space in a form: encoded, as a browser's query would be.
        components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        return components.string ?? base
    }
}

/// Proof Key for Code Exchange (RFC 7636) with S256.
public enum PKCE {
    static let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)

    /// A verifier of 43 characters from 32 random bytes (§4.1).
    public static func makeVerifier() -> String { Base64URL.encode(SecureRandom.bytes(32)) }

    public static func isVerifier(_ text: String) -> Bool { (43...128).contains(text.utf8.count) && text.utf8.allSatisfy(unreserved.contains) }

    /// BASE64URL(SHA-256(ASCII(verifier))) (§4.2).
    public static func challenge(for verifier: String) -> String { Base64URL.encode(Digest.sha256(Array(verifier.utf8))) }
}
