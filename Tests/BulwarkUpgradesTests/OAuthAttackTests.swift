import BulwarkCore
import Foundation
import Testing
@testable import BulwarkUpgrades

/// What RFC 6749, RFC 7636, RFC 9207 and RFC 9700 say an authorization
/// server and a client must refuse, each refused with the RFC's error.
@Suite struct OAuthAttackTests {
    static let redirect = "https://shiny.example/oauth/callback"

    static func query(verifier: String = "v" + String(repeating: "a", count: 50), redirect: String = Self.redirect, method: String? = "S256",
                      challenge: String? = nil, responseType: String = "code") -> [String: String] {
        var query = ["response_type": responseType, "client_id": "shiny-web", "redirect_uri": redirect, "scope": "openid email",
                     "state": "s-1", "nonce": "n-1"]
        query["code_challenge"] = challenge ?? PKCE.challenge(for: verifier)
        if let method { query["code_challenge_method"] = method }
        return query
    }

    /// A code for Shiny, through the pages (login, code, consent), and the verifier it is bound to.
    static func code(_ f: UpgradeFixture, verifier: String = "v" + String(repeating: "a", count: 50)) throws -> String {
        let server = try f.nimbusServer
        guard case .login(let id, _) = server.authorize(query(verifier: verifier), cookie: nil) else { throw OAuthError(.serverError, "no login page") }
        _ = server.login(request: id, email: "jane@mail.example", password: UpgradeFixture.nimbusPassword)
        f.clock.advance(30)
        // After the first, the consent is remembered: the code's page redirects at once.
        var page = server.secondFactor(request: id, code: try f.nimbusCode()).page
        if case .consent = page { page = server.consent(request: id, allow: true) }
        guard case .redirect(let url) = page else { throw OAuthError(.serverError, "no redirect") }
        return WebAuthenticationSession.query(of: url)["code"] ?? ""
    }

    static func exchange(_ f: UpgradeFixture, _ code: String, verifier: String = "v" + String(repeating: "a", count: 50), client: String = "shiny-web",
                         redirect: String = Self.redirect, grant: String = "authorization_code") throws -> (Int, [String: Any]) {
        try f.nimbusServer.token(["grant_type": grant, "code": code, "redirect_uri": redirect, "client_id": client, "code_verifier": verifier])
    }

    static func error(_ body: [String: Any]) -> String? { body["error"] as? String }

    @Test(arguments: ["https://shiny.example/oauth/callback/", "https://Shiny.example/oauth/callback", "https://shiny.example/OAuth/callback",
                      "https://shiny.example/oauth/callback/extra", "https://shiny.example:8443/oauth/callback", "http://shiny.example/oauth/callback",
                      "https://shiny.example/oauth/callback?next=/"])
    func aRedirectURIThatIsNotExactlyRegisteredIsNeverRedirectedTo(uri: String) throws {
        let f = try UpgradeFixture()
        _ = try f.withNimbus()
        #expect(try f.nimbusServer.authorize(Self.query(redirect: uri), cookie: nil)
                == .error("Nimbus ID will not send you back to \(uri): it is not a redirect URI Shiny registered."))
    }

    @Test func pkceIsRequiredAndOnlyS256() throws {
        let f = try UpgradeFixture()
        _ = try f.withNimbus()
        func refusal(_ query: [String: String]) throws -> [String: String] {
            guard case .redirect(let url) = try f.nimbusServer.authorize(query, cookie: nil) else { return [:] }
            return WebAuthenticationSession.query(of: url)
        }
        let plain = try refusal(Self.query(method: "plain", challenge: "v" + String(repeating: "a", count: 50)))
        #expect(plain["error"] == "invalid_request" && plain["error_description"] == "transform algorithm not supported: code_challenge_method must be S256")
        #expect(plain["state"] == "s-1" && plain["iss"] == "https://id.nimbus.example")
        var missing = Self.query()
        missing["code_challenge"] = nil
        #expect(try refusal(missing)["error_description"] == "PKCE is required: code_challenge is missing")
        #expect(try refusal(Self.query(method: nil))["error"] == "invalid_request")  // absent means plain (RFC 7636 §4.3)
        #expect(try refusal(Self.query(responseType: "token"))["error"] == "unsupported_response_type")  // no implicit grant
        var unknown = Self.query()
        unknown["client_id"] = "evil-app"
        #expect(try f.nimbusServer.authorize(unknown, cookie: nil) == .error("Nimbus ID does not know this app (client_id evil-app)."))
    }

    @Test func aCodeIsSingleUseShortLivedAndBoundToItsClientRedirectAndVerifier() throws {
        let f = try UpgradeFixture()
        _ = try f.withNimbus()
        let code = try Self.code(f)
        // Another verifier, another client, another redirect URI: each refused, and the code is spent by the try.
        #expect(Self.error(try Self.exchange(f, code, verifier: "w" + String(repeating: "b", count: 50)).1) == "invalid_grant")
        #expect(Self.error(try Self.exchange(f, code).1) == "invalid_grant")  // used once already
        let second = try Self.code(f)
        let (status, body) = try Self.exchange(f, second, client: "cloudnotes-app", redirect: "https://cloudnotes.example/auth/nimbus")
        #expect(status == 400 && Self.error(body) == "invalid_grant" && body["error_description"] as? String == "the code was issued to another client")
        let third = try Self.code(f)
        #expect(try Self.exchange(f, third, redirect: "https://shiny.example/oauth/callback/").1["error_description"] as? String
                == "redirect_uri differs from the authorization request's")
        let fourth = try Self.code(f)
        #expect(try Self.exchange(f, fourth).0 == 200)
        #expect(try Self.exchange(f, fourth).1["error_description"] as? String == "the code was already used")
        let fifth = try Self.code(f)
        f.clock.advance(MockAuthorizationServer.codeLifetime + 1)
        #expect(try Self.exchange(f, fifth).1["error_description"] as? String == "the code has expired")
        #expect(Self.error(try Self.exchange(f, "code-made-up").1) == "invalid_grant")
        #expect(Self.error(try Self.exchange(f, fifth, verifier: "short").1) == "invalid_request")
        #expect(Self.error(try Self.exchange(f, fifth, grant: "password").1) == "unsupported_grant_type")
        #expect(try Self.exchange(f, fifth, client: "evil-app").0 == 401)
    }

    @Test(arguments: ["state", "iss", "no iss"])
    func aChangedStateOrAnotherIssuerIsRefusedByTheClient(tampered: String) throws {
        let f = try UpgradeFixture()
        _ = try f.withNimbus()
        let session = try f.webSession(ephemeral: true)
        try OAuthFlowTests.toConsent(f, session)
        // The provider's own redirect, tampered with on its way back.
        guard case .redirect(let url) = try f.nimbusServer.consent(request: try #require(Self.requestID(session)), allow: true) else {
            Issue.record("no redirect"); return
        }
        var query = WebAuthenticationSession.query(of: url)
        switch tampered {
        case "state": query["state"] = "forged"
        case "iss": query["iss"] = "https://id.other.example"
        default: query["iss"] = nil
        }
        let step = session.callback(MockAuthorizationServer.url(Self.redirect, query.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }))
        if tampered == "state" {
            #expect(step == .failed("The response's state is not this request's: refused (a forged or replayed response)."))
        } else {
            #expect(step == .failed("The response names another issuer (\(query["iss"] ?? "none")), not https://id.nimbus.example: refused as a mix-up."))
        }
        let backend = try f.world.backend(for: f.world.catalog.manifest(id: "shiny")!)
        #expect(try backend.federatedIssuers(of: "jane@mail.example").isEmpty)
    }

    /// The pending request's id, as the consent page's form carries it.
    static func requestID(_ session: WebAuthenticationSession) -> String? {
        session.transcriptLines.last.flatMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["form"] as? [String: Any]
        }?["request"] as? String
    }

    @Test func anIDTokenIsCheckedForSignatureIssuerAudienceNonceAndExpiry() throws {
        let f = try UpgradeFixture()
        _ = try f.withNimbus()
        var query = Self.query()
        query["nonce"] = "n-1"
        let code = try Self.code(f)
        let token = try #require(try Self.exchange(f, code).1["id_token"] as? String)
        let keys = try f.nimbusServer.jwks
        func verify(_ token: String, issuer: String = "https://id.nimbus.example", audience: String = "shiny-web", nonce: String = "n-1") throws -> IDTokenVerifier.Claims {
            try IDTokenVerifier.verify(token, keys: keys, issuer: issuer, audience: audience, nonce: nonce, now: f.clock.now)
        }
        #expect(try verify(token).email == "jane@mail.example")
        #expect(throws: IDTokenVerifier.Refusal(reason: "the ID token is for another client")) { try verify(token, audience: "cloudnotes-app") }
        #expect(throws: IDTokenVerifier.Refusal(reason: "the ID token's nonce is not this request's")) { try verify(token, nonce: "n-2") }
        #expect(throws: IDTokenVerifier.Refusal(reason: "the ID token is from https://id.nimbus.example, not https://appleid.example")) {
            try verify(token, issuer: "https://appleid.example")
        }
        // A payload changed after signing, and a token signed by another key (Sign in with Apple's).
        var parts = token.split(separator: ".").map(String.init)
        var payload = try JSONSerialization.jsonObject(with: Data(Base64URL.decode(parts[1])!)) as! [String: Any]
        payload["sub"] = "sub-someone-else"
        parts[1] = Base64URL.encode(Array(try JSONSerialization.data(withJSONObject: payload)))
        #expect(throws: IDTokenVerifier.Refusal(reason: "the ID token's signature: the signature does not verify")) { try verify(parts.joined(separator: ".")) }
        let foreign = f.world.identityProvider.signJWT(payload)
        #expect(throws: IDTokenVerifier.Refusal(reason: "the ID token's signature: the token's key is not in the provider's key set")) { try verify(foreign) }
        // "alg": "none" is never taken.
        let unsigned = Base64URL.encode(Array(#"{"alg":"none"}"#.utf8)) + "." + parts[1] + "."
        #expect(throws: IDTokenVerifier.Refusal(reason: "the ID token's signature: the token is not signed with ES256")) { try verify(unsigned) }
        f.clock.advance(601)
        #expect(throws: IDTokenVerifier.Refusal(reason: "the ID token has expired")) { try verify(token) }
    }

    /// A code used once is refused as used, with when the next comes, not
    /// as "not right" (the person typed what the app showed).
    @Test func aCodeUsedOnceIsSaidToBeUsed() throws {
        let f = try UpgradeFixture()
        _ = try f.withNimbus()
        let server = try f.nimbusServer
        func signIn() throws -> String {
            guard case .login(let id, _) = server.authorize(Self.query(), cookie: nil) else { throw OAuthError(.serverError, "no login page") }
            _ = server.login(request: id, email: "jane@mail.example", password: UpgradeFixture.nimbusPassword)
            return id
        }
        let first = try signIn()
        let code = try f.nimbusCode()
        guard case .consent = server.secondFactor(request: first, code: code).page else { Issue.record("the code was refused"); return }
        let second = try signIn()
        let period = 30, at = Int(f.clock.now.timeIntervalSince1970)
        #expect(server.secondFactor(request: second, code: code).page
                == .secondFactor(request: second, message: "That code was already used; the next one comes in \(period - at % period) s. 4 attempts left."))
    }

    /// Guessing at the provider's pages: five wrong passwords, or five wrong
    /// codes, lock the account for the cool-down, counted per account in
    /// the provider's file, so a new request (a new browser session) starts
    /// no fresh count and the right answer is refused until the time is up.
    /// (The codes' count was forgotten at the lock-out; passwords had none.)
    @Test func wrongPasswordsAndCodesLockTheAccountAcrossRequests() throws {
        let f = try UpgradeFixture()
        _ = try f.withNimbus()
        let server = try f.nimbusServer
        func newRequest() throws -> String {
            guard case .login(let id, _) = server.authorize(Self.query(), cookie: nil) else { throw OAuthError(.serverError, "no login page") }
            return id
        }
        for attempt in 1...4 {
            let page = server.login(request: try newRequest(), email: "jane@mail.example", password: "guess-\(attempt)").page
            #expect(page == .login(request: (page.request ?? ""), message: "That e-mail or password is not right. \(5 - attempt) \(attempt == 4 ? "attempt" : "attempts") left."))
        }
        let locked = server.login(request: try newRequest(), email: "jane@mail.example", password: "guess-5").page
        #expect(locked.message?.hasPrefix("Too many wrong passwords. For your security, this account takes no sign-in for 15 minutes") == true)
        let right = server.login(request: try newRequest(), email: "JANE@mail.example", password: UpgradeFixture.nimbusPassword).page
        #expect(right.message?.hasPrefix("Too many wrong passwords.") == true)  // the right one too, while it lasts
        f.clock.advance(15 * 60 + 1)
        let id = try newRequest()
        #expect(server.login(request: id, email: "jane@mail.example", password: UpgradeFixture.nimbusPassword).page == .secondFactor(request: id, message: nil))

        // Codes: four wrong across two requests, the fifth locks, and the count is not forgotten.
        for attempt in 1...4 {
            let request = attempt <= 2 ? id : try newRequest()
            if attempt > 2 { _ = server.login(request: request, email: "jane@mail.example", password: UpgradeFixture.nimbusPassword) }
            #expect(server.secondFactor(request: request, code: "000000").page
                    == .secondFactor(request: request, message: "That code is not right. \(5 - attempt) \(attempt == 4 ? "attempt" : "attempts") left."))
        }
        let fifth = try newRequest()
        _ = server.login(request: fifth, email: "jane@mail.example", password: UpgradeFixture.nimbusPassword)
        guard case .redirect(let url) = server.secondFactor(request: fifth, code: "000000").page else { Issue.record("no redirect"); return }
        #expect(WebAuthenticationSession.query(of: url)["error"] == "access_denied")
        let sixth = try newRequest()
        _ = server.login(request: sixth, email: "jane@mail.example", password: UpgradeFixture.nimbusPassword)
        f.clock.advance(30)
        guard case .redirect(let refused) = server.secondFactor(request: sixth, code: try f.nimbusCode()).page else { Issue.record("the right code passed a lock"); return }
        #expect(WebAuthenticationSession.query(of: refused)["error_description"]?.hasPrefix("Too many wrong codes.") == true)
    }
}

extension MockAuthorizationServer.Page {
    var request: String? {
        switch self {
        case .login(let request, _), .secondFactor(let request, _): request
        default: nil
        }
    }
    var message: String? {
        switch self {
        case .login(_, let message), .secondFactor(_, let message): message
        default: nil
        }
    }
}
