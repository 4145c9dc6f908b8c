import BulwarkCore
import Foundation

/// One mock OpenID provider's authorization server, as strict as today's
/// best practice asks (RFC 9700): the authorization code grant only (RFC
/// 6749 §4.1), PKCE with S256 required (RFC 7636), redirect URIs compared
/// exactly as registered, `state` echoed and `iss` added to the response
/// (RFC 9207), codes single use, short-lived and bound to the client, the
/// redirect URI and the challenge; ID tokens signed ES256 under a published
/// JWK set. Its accounts, sessions, pending requests and codes live in its
/// own SQLite file, never in the vault. Every endpoint takes and returns
/// what HTTP would carry (query or form parameters, a cookie, a redirect URL
/// or a JSON body), so a transcript can show them.
public final class MockAuthorizationServer {
    public let manifest: IdentityProviderManifest
    let db: SQLiteDatabase
    let clock: @Sendable () -> Date
    let signingKey: P256PrivateKey
    let keyID: String
    public static let codeLifetime: TimeInterval = 60
    public static let requestLifetime: TimeInterval = 600
    public static let sessionLifetime: TimeInterval = 8 * 3600
    static let hashParameters = ScryptParameters(logN: 10)

    public init(manifest: IdentityProviderManifest, path: String, clock: @escaping @Sendable () -> Date) throws {
        self.manifest = manifest
        self.clock = clock
        db = try SQLiteDatabase(path: path, create: true)
        try db.execute("""
            PRAGMA journal_mode=WAL;
            CREATE TABLE IF NOT EXISTS signing_keys(kid TEXT PRIMARY KEY, pkcs8 BLOB NOT NULL);
            CREATE TABLE IF NOT EXISTS accounts(email TEXT PRIMARY KEY, salt BLOB NOT NULL, hash BLOB NOT NULL, subject TEXT NOT NULL UNIQUE,
                                                totp TEXT);
            CREATE TABLE IF NOT EXISTS requests(id TEXT PRIMARY KEY, client TEXT NOT NULL, redirect TEXT NOT NULL, state TEXT NOT NULL,
                                                nonce TEXT NOT NULL, challenge TEXT NOT NULL, scope TEXT NOT NULL, expires REAL NOT NULL,
                                                subject TEXT, second_factor_due INTEGER NOT NULL DEFAULT 0);
            CREATE TABLE IF NOT EXISTS sessions(cookie TEXT PRIMARY KEY, subject TEXT NOT NULL, expires REAL NOT NULL);
            CREATE TABLE IF NOT EXISTS consents(subject TEXT NOT NULL, client TEXT NOT NULL, PRIMARY KEY (subject, client));
            CREATE TABLE IF NOT EXISTS codes(code TEXT PRIMARY KEY, client TEXT NOT NULL, redirect TEXT NOT NULL, challenge TEXT NOT NULL,
                                             subject TEXT NOT NULL, nonce TEXT NOT NULL, expires REAL NOT NULL, used INTEGER NOT NULL DEFAULT 0);
            CREATE TABLE IF NOT EXISTS totp_steps(subject TEXT PRIMARY KEY, last_step INTEGER NOT NULL);
            CREATE TABLE IF NOT EXISTS code_failures(subject TEXT PRIMARY KEY, count INTEGER NOT NULL);
            """)
        (signingKey, keyID) = try MockIdentityProvider.signingKey(in: db)
        try createLockoutTable()
    }

    var now: Double { clock().timeIntervalSince1970 }
    public var issuer: String { manifest.issuer }
    /// The `jwks_uri` document's keys.
    public var jwks: [[String: Any]] { [JWS.jwk(publicPoint: signingKey.publicPoint, keyID: keyID)] }

    // MARK: Accounts

    /// Signs a person up at the provider (the demo's set-up; `services enroll`).
    public func enroll(email: String, password: String, totpSecret: String?) throws {
        guard try db.query("SELECT 1 FROM accounts WHERE email = ?", [.text(email)]).isEmpty else {
            throw OAuthError(.invalidRequest, "\(manifest.name) already has an account for \(email)")
        }
        let salt = SecureRandom.bytes(16)
        // A pairwise-free, stable subject: what the provider tells every client.
        let subject = "sub-" + Array(Digest.sha256(Array("\(manifest.issuer)|\(email)".utf8)).prefix(12)).hex
        try db.query("INSERT INTO accounts(email, salt, hash, subject, totp) VALUES (?, ?, ?, ?, ?)",
                     [.text(email), .blob(salt), .blob(try hash(password, salt)), .text(subject), totpSecret.map { .text($0) } ?? .null])
    }

    public func hasAccount(_ email: String) throws -> Bool { !(try db.query("SELECT 1 FROM accounts WHERE email = ?", [.text(email)])).isEmpty }

    private func hash(_ password: String, _ salt: [UInt8]) throws -> [UInt8] {
        try Scrypt.derive(password: Array(password.utf8), salt: salt, parameters: Self.hashParameters)
    }
}

/// An error with RFC 6749's code (§4.1.2.1 for the authorization endpoint,
/// §5.2 for the token endpoint) and a description for the person.
public struct OAuthError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: String, Sendable {
        case invalidRequest = "invalid_request", unauthorizedClient = "unauthorized_client", accessDenied = "access_denied"
        case unsupportedResponseType = "unsupported_response_type", invalidScope = "invalid_scope", serverError = "server_error"
        case invalidClient = "invalid_client", invalidGrant = "invalid_grant", unsupportedGrantType = "unsupported_grant_type"
    }
    public let code: Code
    public let detail: String
    public init(_ code: Code, _ detail: String) {
        self.code = code
        self.detail = detail
    }
    public var description: String { "\(code.rawValue): \(detail)" }
}
