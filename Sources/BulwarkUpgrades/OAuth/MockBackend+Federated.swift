import BulwarkCore
import Foundation

/// A service's side of "Log in with IDP": the ID token checked against the
/// provider's published keys, spent once, and the account found by the
/// (issuer, subject) pair it was linked to; on a first sign-in, linked to
/// the account with the provider's e-mail, or a new account made for it.
extension MockBackend {
    public struct FederatedSignIn: Sendable, Equatable {
        public let user: String
        public let sessionToken: String
        /// The first sign-in through this provider for the account.
        public let linkedNow: Bool
    }

    func ensureFederatedTable() throws {
        try db.execute("CREATE TABLE IF NOT EXISTS federated(issuer TEXT NOT NULL, subject TEXT NOT NULL, user TEXT NOT NULL, PRIMARY KEY (issuer, subject));")
    }

    public func signIn(idToken: String, from provider: MockAuthorizationServer, login: FederatedLogin, nonce: String) throws -> FederatedSignIn {
        try ensureFederatedTable()
        guard manifest.signInWith?.contains(login) == true, login.issuer == provider.issuer else {
            throw Refusal(reason: "\(manifest.name) does not take sign-ins from \(provider.issuer)")
        }
        let claims: IDTokenVerifier.Claims
        do {
            claims = try IDTokenVerifier.verify(idToken, keys: provider.jwks, issuer: login.issuer, audience: login.clientID, nonce: nonce, now: clock())
        } catch { throw Refusal(reason: "\(manifest.name) refused the sign-in: \(error.reason)") }
        guard try spend(idToken) else { throw Refusal(reason: "\(manifest.name) refused the sign-in: the ID token was already used") }
        if let user = try db.query("SELECT user FROM federated WHERE issuer = ? AND subject = ?", [.text(claims.issuer), .text(claims.subject)]).first?[0].text {
            return FederatedSignIn(user: user, sessionToken: try issueSession(user: user), linkedNow: false)
        }
        guard let email = claims.email, !email.isEmpty else { throw Refusal(reason: "\(manifest.name) needs the provider to share an e-mail address") }
        // The provider vouches for the e-mail: the account with it is linked, or one is made (no password).
        if try !hasAccount(email) { try db.query("INSERT INTO accounts(user) VALUES (?)", [.text(email)]) }
        try db.query("INSERT INTO federated(issuer, subject, user) VALUES (?, ?, ?)", [.text(claims.issuer), .text(claims.subject), .text(email)])
        return FederatedSignIn(user: email, sessionToken: try issueSession(user: email), linkedNow: true)
    }

    /// The providers an account signs in through.
    public func federatedIssuers(of user: String) throws -> [String] {
        try ensureFederatedTable()
        return try db.query("SELECT issuer FROM federated WHERE user = ? ORDER BY issuer", [.text(user)]).compactMap { $0.first?.text }
    }
}
