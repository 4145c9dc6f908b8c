import BulwarkCore
import Foundation

/// The mock "Sign in with Apple": team-scoped user ids, a private relay
/// address stable per user and team, identity tokens signed with ES256 by
/// a P-256 key whose JWK set the provider publishes (the backend checks
/// signature, issuer, audience, nonce and expiry against it), single-use
/// authorization codes, credential states, and signed server-to-server
/// notifications (ServerNotifications.swift).
public final class MockIdentityProvider {
    public static let issuer = "https://appleid.example"
    public typealias CredentialState = AppleIDCredentialState
    public typealias Notification = AppleIDNotification

    public struct TokenClaims: Sendable, Equatable {
        public let subject: String, audience: String, nonce: String, email: String, isPrivateEmail: Bool
        public let issuedAt: Date, expires: Date
    }

    public enum Refusal: Error, Sendable, Equatable {
        case badSignature, expired, wrongAudience, wrongNonce, wrongIssuer, codeReused, unknownCode
        public var reason: String {
            switch self {
            case .badSignature: "the identity token's signature does not verify"
            case .expired: "the identity token has expired"
            case .wrongAudience: "the identity token is for another app"
            case .wrongNonce: "the identity token's nonce does not match the request"
            case .wrongIssuer: "the identity token is from another issuer"
            case .codeReused: "the authorization code was already used"
            case .unknownCode: "the authorization code is unknown"
            }
        }
    }

    let db: SQLiteDatabase
    let clock: @Sendable () -> Date
    /// The ES256 signing key and its id, made once and kept in the provider's file.
    let signingKey: P256PrivateKey
    let keyID: String

    public init(path: String, clock: @escaping @Sendable () -> Date) throws {
        db = try SQLiteDatabase(path: path, create: true)
        self.clock = clock
        try db.execute("""
            PRAGMA journal_mode=WAL;
            CREATE TABLE IF NOT EXISTS signing_keys(kid TEXT PRIMARY KEY, pkcs8 BLOB NOT NULL);
            CREATE TABLE IF NOT EXISTS users(apple_id TEXT NOT NULL, team TEXT NOT NULL, user TEXT NOT NULL, relay TEXT NOT NULL,
                                             state TEXT NOT NULL DEFAULT 'authorized', email_enabled INTEGER NOT NULL DEFAULT 1,
                                             named INTEGER NOT NULL DEFAULT 0, private_email INTEGER NOT NULL DEFAULT 0,
                                             PRIMARY KEY (apple_id, team));
            CREATE TABLE IF NOT EXISTS codes(code TEXT PRIMARY KEY, user TEXT NOT NULL, audience TEXT NOT NULL, used INTEGER NOT NULL DEFAULT 0);
            CREATE TABLE IF NOT EXISTS refresh_tokens(token TEXT PRIMARY KEY, user TEXT NOT NULL, audience TEXT NOT NULL,
                                                      revoked INTEGER NOT NULL DEFAULT 0);
            CREATE TABLE IF NOT EXISTS app_transfers(service TEXT PRIMARY KEY, app_id TEXT NOT NULL, old_app_id TEXT NOT NULL);
            CREATE TABLE IF NOT EXISTS user_transfers(transfer_sub TEXT PRIMARY KEY, old_user TEXT NOT NULL UNIQUE, old_team TEXT NOT NULL,
                                                      new_user TEXT NOT NULL, new_team TEXT NOT NULL);
            """)
        // A world from before the provider kept whether each person chose the relay.
        if try !db.query("PRAGMA table_info(users)").contains(where: { $0[1].text == "private_email" }) {
            try db.execute("ALTER TABLE users ADD COLUMN private_email INTEGER NOT NULL DEFAULT 0")
        }
        (signingKey, keyID) = try Self.signingKey(in: db)
    }

    /// The provider's key, made on first use (an older world's HMAC secret is left unused).
    static func signingKey(in db: SQLiteDatabase) throws -> (P256PrivateKey, String) {
        if let row = try db.query("SELECT kid, pkcs8 FROM signing_keys LIMIT 1").first, let kid = row[0].text, let der = row[1].blob {
            return (try P256PrivateKey(pkcs8: der), kid)
        }
        let key = try P256PrivateKey.generate()
        let kid = Base64URL.encode(Array(Digest.sha256(key.publicPoint).prefix(8)))
        try db.query("INSERT INTO signing_keys(kid, pkcs8) VALUES (?, ?)", [.text(kid), .blob(key.pkcs8)])
        return (key, kid)
    }

    /// The JWK set a relying party fetches from the provider (`jwks_uri`).
    public var jwks: [[String: Any]] { [JWS.jwk(publicPoint: signingKey.publicPoint, keyID: keyID)] }

    /// The team-scoped user and relay for an Apple ID, made on first use.
    func account(appleID: String, team: String) throws -> (user: String, relay: String, firstTime: Bool) {
        if let row = try db.query("SELECT user, relay, named FROM users WHERE apple_id = ? AND team = ?", [.text(appleID), .text(team)]).first,
           let user = row[0].text, let relay = row[1].text {
            return (user, relay, row[2].integer == 0)
        }
        // Stable per person and team, as Apple's are; derived rather than
        // drawn so that demo recordings and their snapshots repeat.
        let digest = Digest.sha256(Array("\(appleID)|\(team)".utf8))
        let user = "001\(digest[0] % 100).\(Array(digest[1..<17]).hex).\(1000 + Int(digest[17]) * 30)"
        let relay = "\(Base32Lower.encode(Array(digest[18..<28])))@privaterelay.appleid.example"
        try db.query("INSERT INTO users(apple_id, team, user, relay) VALUES (?, ?, ?, ?)", [.text(appleID), .text(team), .text(user), .text(relay)])
        return (user, relay, true)
    }

    /// What the sheet returns when the person continues: the credential for
    /// this app, with the shared or the relay e-mail, the name on the first
    /// authorization, each only when the app asked for it.
    public func authorize(appleID: String, fullName: String, team: String, audience: String, nonce: String, state: String,
                          hideEmail: Bool, scopes: [AppleIDScope] = AppleIDScope.allCases) throws -> AppleIDCredential {
        let account = try account(appleID: appleID, team: team)
        let wantsEmail = scopes.contains(.email)
        try db.query("UPDATE users SET named = 1, state = 'authorized', private_email = ? WHERE apple_id = ? AND team = ?",
                     [.integer(wantsEmail && hideEmail ? 1 : 0), .text(appleID), .text(team)])
        let email = !wantsEmail ? "" : hideEmail ? account.relay : appleID
        let now = clock()
        // The demo's Apple ID is a real person's, on a device Apple trusts.
        let status: RealUserStatus = account.firstTime ? .likelyReal : .unknown
        let claims = TokenClaims(subject: account.user, audience: audience, nonce: nonce, email: email, isPrivateEmail: wantsEmail && hideEmail,
                                 issuedAt: now, expires: now.addingTimeInterval(600))
        let code = "c" + SecureRandom.bytes(16).hex
        try db.query("INSERT INTO codes(code, user, audience) VALUES (?, ?, ?)", [.text(code), .text(account.user), .text(audience)])
        var credential = AppleIDCredential(user: account.user, email: email, isPrivateRelay: wantsEmail && hideEmail,
                                           fullName: account.firstTime && scopes.contains(.fullName) ? fullName : nil, state: state,
                                           identityToken: sign(claims, realUserStatus: status), authorizationCode: code)
        credential.realUserStatus = status
        credential.authorizedScopes = AppleIDScope.allCases.filter(scopes.contains)
        return credential
    }

    // MARK: Tokens

    func sign(_ claims: TokenClaims, realUserStatus: RealUserStatus? = nil) -> String {
        var payload: [String: Any] = ["iss": Self.issuer, "sub": claims.subject, "aud": claims.audience, "nonce": claims.nonce,
                                      "iat": claims.issuedAt.timeIntervalSince1970, "exp": claims.expires.timeIntervalSince1970]
        if !claims.email.isEmpty {
            payload["email"] = claims.email
            payload["is_private_email"] = claims.isPrivateEmail
        }
        if let realUserStatus { payload["real_user_status"] = realUserStatus.rawValue }
        return signJWT(payload)
    }

    /// A JWT over the payload, signed ES256 with the provider's key.
    func signJWT(_ payload: [String: Any]) -> String {
        (try? JWS.signES256(payload, key: signingKey, keyID: keyID)) ?? ""
    }

    /// A JWT's payload when its signature verifies against the provider's published keys; nil otherwise.
    func verifiedPayload(_ token: String) -> [String: Any]? { try? JWS.verifiedPayload(token, keys: jwks) }

    /// Checks an identity token as a relying party does, against the
    /// published JWK set: signature, issuer, audience, nonce and expiry.
    public func verify(token: String, audience: String, nonce: String) throws(Refusal) -> TokenClaims {
        guard let object = verifiedPayload(token),
              let sub = object["sub"] as? String, let aud = object["aud"] as? String, let tokenNonce = object["nonce"] as? String,
              let iat = object["iat"] as? Double, let exp = object["exp"] as? Double else {
            throw .badSignature
        }
        guard object["iss"] as? String == Self.issuer else { throw .wrongIssuer }
        // No e-mail claim when the app did not ask for the e-mail.
        let claims = TokenClaims(subject: sub, audience: aud, nonce: tokenNonce, email: object["email"] as? String ?? "",
                                 isPrivateEmail: object["is_private_email"] as? Bool ?? false,
                                 issuedAt: Date(timeIntervalSince1970: iat), expires: Date(timeIntervalSince1970: exp))
        guard claims.audience == audience else { throw .wrongAudience }
        guard claims.nonce == nonce else { throw .wrongNonce }
        guard claims.expires > clock() else { throw .expired }
        return claims
    }

    /// Exchanges an authorization code: once only, for its own app.
    public func redeem(code: String, audience: String) throws(Refusal) -> String {
        guard let row = try? db.query("SELECT user, audience, used FROM codes WHERE code = ?", [.text(code)]).first,
              let user = row[0].text, let codeAudience = row[1].text else { throw .unknownCode }
        guard codeAudience == audience else { throw .wrongAudience }
        guard row[2].integer == 0 else { throw .codeReused }
        _ = try? db.query("UPDATE codes SET used = 1 WHERE code = ?", [.text(code)])
        return user
    }

    // MARK: States and notifications

    public func credentialState(user: String, team: String) throws -> CredentialState {
        guard let row = try db.query("SELECT state FROM users WHERE user = ? AND team = ?", [.text(user), .text(team)]).first,
              let text = row[0].text else {
            // An id from before the app moved to this team: it must be migrated.
            return try wasTransferred(user: user, to: team) ? .transferred : .notFound
        }
        return CredentialState(rawValue: text) ?? .notFound
    }

    /// A change in the person's Apple ID settings, as the provider records
    /// it; `ServiceWorld.notify` then posts the signed event to the service.
    public func notify(_ kind: Notification, user: String, team: String) throws {
        switch kind {
        case .consentRevoked:
            try db.query("UPDATE users SET state = 'revoked' WHERE user = ? AND team = ?", [.text(user), .text(team)])
            try revokeRefreshTokens(user: user, audiencePrefix: team)
        case .accountDelete:
            try db.query("DELETE FROM users WHERE user = ? AND team = ?", [.text(user), .text(team)])
            try revokeRefreshTokens(user: user, audiencePrefix: team)
        case .emailDisabled, .emailEnabled:
            // Apple sends these only for an account that chose the private relay: there is no forwarding to stop otherwise.
            guard try usesPrivateRelay(user: user, team: team) else { throw NotSent(kind: kind) }
            try db.query("UPDATE users SET email_enabled = ? WHERE user = ? AND team = ?",
                         [.integer(kind == .emailEnabled ? 1 : 0), .text(user), .text(team)])
        }
    }

    /// Why the provider sent nothing: the event is not one it sends for this account.
    public struct NotSent: Error, Sendable, Equatable, CustomStringConvertible {
        public let kind: Notification
        public var description: String {
            "Sign in with Apple sends \(kind.rawValue) only for an account that hides its e-mail behind the private relay; this one shares its real address, so nothing was sent"
        }
    }

    /// Whether the person chose Hide My Email for this app.
    public func usesPrivateRelay(user: String, team: String) throws -> Bool {
        try db.query("SELECT private_email FROM users WHERE user = ? AND team = ?", [.text(user), .text(team)]).first?[0].integer == 1
    }

    public func isEmailEnabled(user: String, team: String) throws -> Bool {
        try db.query("SELECT email_enabled FROM users WHERE user = ? AND team = ?", [.text(user), .text(team)]).first?[0].integer != 0
    }
}

/// Lower-case letters and digits for relay addresses.
enum Base32Lower {
    static func encode(_ bytes: [UInt8]) -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz234567")
        return String(bytes.map { alphabet[Int($0) % 32] })
    }
}

extension MockIdentityProvider {
    /// The relay address a person has (or will get) for a team, for the sheet to show.
    public func relayAddress(appleID: String, team: String) throws -> String {
        try account(appleID: appleID, team: team).relay
    }
}
