import BulwarkCore
import Foundation

/// The token endpoint of the mock Sign in with Apple, and what a backend
/// does with it: the authorization code is exchanged once for an access
/// token, a refresh token and an identity token; the backend keeps the
/// refresh token and checks it no more than once a day (Apple's own
/// guidance), signing the person out when it no longer validates: the way a
/// service learns of a revocation whose notification never came.
extension MockIdentityProvider {
    public struct TokenResponse: Sendable, Equatable {
        public let accessToken: String
        public let refreshToken: String
        public let identityToken: String
        public let expiresIn: Int
        public let subject: String
    }

    /// `grant_type=authorization_code`: the code is spent, for its own app only.
    public func exchange(code: String, audience: String) throws(Refusal) -> TokenResponse {
        let user = try redeem(code: code, audience: audience)
        let now = clock()
        let claims = TokenClaims(subject: user, audience: audience, nonce: "", email: "", isPrivateEmail: false,
                                 issuedAt: now, expires: now.addingTimeInterval(600))
        let refresh = "r" + SecureRandom.bytes(24).hex
        guard (try? db.query("INSERT INTO refresh_tokens(token, user, audience) VALUES (?, ?, ?)", [.text(refresh), .text(user), .text(audience)])) != nil else {
            throw .unknownCode
        }
        return TokenResponse(accessToken: "a" + SecureRandom.bytes(24).hex, refreshToken: refresh, identityToken: sign(claims),
                             expiresIn: 3600, subject: user)
    }

    /// `grant_type=refresh_token`, as a validation: whether the token still
    /// stands (its app's, not revoked, the person's authorization alive).
    public func validate(refreshToken: String, audience: String, team: String) throws -> Bool {
        guard let row = try db.query("SELECT user, audience, revoked FROM refresh_tokens WHERE token = ?", [.text(refreshToken)]).first,
              let user = row[0].text, row[1].text == audience, row[2].integer == 0 else { return false }
        return try credentialState(user: user, team: team) == .authorized
    }

    /// A stopped or deleted authorization ends the app's refresh tokens.
    func revokeRefreshTokens(user: String, audiencePrefix team: String) throws {
        try db.query("UPDATE refresh_tokens SET revoked = 1 WHERE user = ? AND audience LIKE ?", [.text(user), .text(team + ".%")])
    }
}

extension MockBackend {
    public static let refreshCheckInterval: TimeInterval = 86_400

    /// Exchanges a credential's code and keeps the refresh token; the
    /// exchange must be for the identity token's own subject.
    func exchangeAndKeep(_ credential: AppleIDCredential, subject: String) throws {
        let response: MockIdentityProvider.TokenResponse
        do { response = try identityProvider.exchange(code: credential.authorizationCode, audience: manifest.appID) } catch {
            throw Refusal(reason: "Sign in with Apple was refused: \(error.reason).")
        }
        guard response.subject == subject else { throw Refusal(reason: "Sign in with Apple was refused: the authorization code is for someone else.") }
        try db.query("INSERT OR REPLACE INTO apple_tokens(apple_user, refresh_token, checked, real_user_status) VALUES (?, ?, ?, ?)",
                     [.text(subject), .text(response.refreshToken), .real(now), .integer(Int64(credential.realUserStatus.rawValue))])
    }

    /// What Sign in with Apple said of the person when the account was linked.
    public func realUserStatus(appleUser: String) throws -> RealUserStatus? {
        return try db.query("SELECT real_user_status FROM apple_tokens WHERE apple_user = ?", [.text(appleUser)]).first?[0].integer
            .flatMap { RealUserStatus(rawValue: Int($0)) }
    }

    /// The once-a-day check of each refresh token on the world's clock; a
    /// token that no longer validates signs the person out, as a
    /// consent-revoked event would. Returns how many were signed out.
    @discardableResult
    public func checkRefreshTokens() throws -> Int {
        var signedOut = 0
        for row in try db.query("SELECT apple_user, refresh_token FROM apple_tokens WHERE checked <= ?", [.real(now - Self.refreshCheckInterval)]) {
            guard let user = row[0].text, let token = row[1].text else { continue }
            try db.query("UPDATE apple_tokens SET checked = ? WHERE apple_user = ?", [.real(now), .text(user)])
            guard try !identityProvider.validate(refreshToken: token, audience: manifest.appID, team: manifest.teamID),
                  try !isRevoked(appleUser: user) else { continue }
            try signOut(appleUser: user, because: .consentRevoked)
            signedOut += 1
        }
        return signedOut
    }
}
