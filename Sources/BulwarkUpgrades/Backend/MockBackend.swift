import BulwarkCore
import Foundation

/// One mock service's server: accounts with salted password hashes,
/// sign-in, 2FA challenges with expiry and at most 5 attempts, session
/// tokens, password changes checked against its own rules, and Sign in with
/// Apple linking (after which password sign-in is refused). Its state is its
/// own SQLite file beside the vault, never in the vault.
public final class MockBackend {
    public let manifest: ServiceManifest
    private let db: SQLiteDatabase
    private let clock: @Sendable () -> Date
    private let inbox: MessagesInbox
    private let identityProvider: MockIdentityProvider
    static let hashParameters = ScryptParameters(logN: 10)
    public static let maxAttempts = 5
    public static let challengeLifetime: TimeInterval = 300

    public enum SignIn: Sendable, Equatable {
        case accepted(sessionToken: String)
        case refused(String)
    }

    public enum Authorization: Sendable, Equatable {
        case authorized
        case refused(String?)
        case stepUpRequired
    }

    public struct Challenge: Sendable, Equatable {
        public let id: String
        public let method: StepUpScreen.Method
        public let attemptsLeft: Int
        public let expiresAt: Date
        public let phoneHint: String?
    }

    public enum Verification: Sendable, Equatable {
        case passed
        case wrong(attemptsLeft: Int)
        case locked
        case expired
    }

    public struct Refusal: Error, Sendable, Equatable { public let reason: String }

    public init(manifest: ServiceManifest, path: String, inbox: MessagesInbox, identityProvider: MockIdentityProvider,
                clock: @escaping @Sendable () -> Date) throws {
        self.manifest = manifest
        self.inbox = inbox
        self.identityProvider = identityProvider
        self.clock = clock
        db = try SQLiteDatabase(path: path, create: true)
        try db.execute("""
            PRAGMA journal_mode=WAL;
            CREATE TABLE IF NOT EXISTS accounts(user TEXT PRIMARY KEY, salt BLOB, hash BLOB, totp_secret TEXT, phone TEXT,
                                                apple_user TEXT, apple_email TEXT, apple_relay INTEGER NOT NULL DEFAULT 0);
            CREATE TABLE IF NOT EXISTS challenges(id TEXT PRIMARY KEY, user TEXT NOT NULL, code TEXT, expires REAL NOT NULL,
                                                  attempts_left INTEGER NOT NULL, passed INTEGER NOT NULL DEFAULT 0);
            CREATE TABLE IF NOT EXISTS sessions(token TEXT PRIMARY KEY, user TEXT NOT NULL, expires REAL NOT NULL);
            """)
    }

    private var now: Double { clock().timeIntervalSinceReferenceDate }

    private func hash(_ password: String, salt: [UInt8]) throws -> [UInt8] {
        try Scrypt.derive(password: Array(password.utf8), salt: salt, parameters: Self.hashParameters)
    }

    // MARK: Accounts

    /// Signs a person up (the demo's set-up, and `bulwark services enroll`).
    public func enroll(user: String, password: String, totpSecret: String? = nil, phone: String? = nil) throws {
        let salt = SecureRandom.bytes(16)
        try db.query("INSERT OR REPLACE INTO accounts(user, salt, hash, totp_secret, phone) VALUES (?, ?, ?, ?, ?)",
                     [.text(user), .blob(salt), .blob(try hash(password, salt: salt)),
                      totpSecret.map { .text($0) } ?? .null, phone.map { .text($0) } ?? .null])
    }

    public func hasAccount(_ user: String) throws -> Bool {
        !(try db.query("SELECT 1 FROM accounts WHERE user = ?", [.text(user)])).isEmpty
    }

    /// Whether the password is the account's (false for a linked account).
    public func passwordMatches(user: String, password: String) throws -> Bool {
        guard let row = try db.query("SELECT salt, hash, apple_user FROM accounts WHERE user = ?", [.text(user)]).first,
              let salt = row[0].blob, let stored = row[1].blob, row[2] == .null else { return false }
        return try hash(password, salt: salt) == stored
    }

    /// The Sign in with Apple link, if the account has one.
    public func link(of user: String) throws -> (appleUser: String, email: String, isPrivateRelay: Bool)? {
        guard let row = try db.query("SELECT apple_user, apple_email, apple_relay FROM accounts WHERE user = ?", [.text(user)]).first,
              let appleUser = row[0].text, let email = row[1].text else { return nil }
        return (appleUser, email, row[2].integer == 1)
    }

    public func signIn(user: String, password: String) throws -> SignIn {
        guard try hasAccount(user) else { return .refused("no account with that username") }
        if try link(of: user) != nil { return .refused("this account signs in with Apple; its password no longer works") }
        guard try passwordMatches(user: user, password: password) else { return .refused("wrong password") }
        return .accepted(sessionToken: try issueSession(user: user))
    }

    /// Sign in with Apple: the identity token must be this app's, fresh, and the linked user's.
    public func signInWithApple(identityToken: String, nonce: String) throws -> SignIn {
        let claims: MockIdentityProvider.TokenClaims
        do { claims = try identityProvider.verify(token: identityToken, audience: manifest.appID, nonce: nonce) } catch {
            return .refused(error.reason)
        }
        guard let row = try db.query("SELECT user FROM accounts WHERE apple_user = ?", [.text(claims.subject)]).first,
              let user = row[0].text else { return .refused("no account is linked to this Apple ID") }
        return .accepted(sessionToken: try issueSession(user: user))
    }

    public func issueSession(user: String) throws -> String {
        let token = "s" + SecureRandom.bytes(16).hex
        try db.query("INSERT INTO sessions(token, user, expires) VALUES (?, ?, ?)", [.text(token), .text(user), .real(now + 3600)])
        return token
    }

    public func sessionUser(_ token: String) throws -> String? {
        guard let row = try db.query("SELECT user, expires FROM sessions WHERE token = ?", [.text(token)]).first,
              case .real(let expires) = row[1], expires > now else { return nil }
        return row[0].text
    }

    // MARK: Upgrades

    /// May this person change their sign-in? With the current password or a
    /// session token; step-up when the service asks for it.
    public func authorize(user: String, password: String?, sessionToken: String?, stepUpPassed: Bool) throws -> Authorization {
        if let failure = manifest.behaviour.failure { return .refused(failure.reason) }
        guard try hasAccount(user) else { return .refused("\(manifest.name) has no account named \(user).") }
        if try link(of: user) != nil { return .refused("This account already signs in with Apple.") }
        if let sessionToken {
            guard try sessionUser(sessionToken) == user else { return .refused("Your session has expired. Sign in again.") }
        } else {
            guard let password, try passwordMatches(user: user, password: password) else {
                return .refused("The current password is not right.")
            }
        }
        if manifest.behaviour.stepUp == .always && manifest.twoFactor != .none && !stepUpPassed { return .stepUpRequired }
        KillPoint.reach("backend-authorised")
        return .authorized
    }

    /// The running challenge for this person, or a new one (an SMS is sent
    /// only for a new one, so a code stays good across tries until it expires).
    public func challenge(user: String, fresh: Bool = false) throws -> Challenge {
        let method: StepUpScreen.Method = manifest.twoFactor == .sms ? .sms : .totp
        if !fresh, let row = try db.query("SELECT id, expires, attempts_left FROM challenges WHERE user = ? AND passed = 0 AND attempts_left > 0 AND expires > ? ORDER BY expires DESC LIMIT 1",
                                          [.text(user), .real(now)]).first,
           let id = row[0].text, case .real(let expires) = row[1], let attempts = row[2].integer {
            return Challenge(id: id, method: method, attemptsLeft: Int(attempts), expiresAt: Date(timeIntervalSinceReferenceDate: expires),
                             phoneHint: try phoneHint(user))
        }
        let id = "ch" + SecureRandom.bytes(8).hex
        var code: String?
        if method == .sms {
            var random = SecureRandom()
            code = String(String(random.below(1_000_000) + 1_000_000).dropFirst())
            try inbox.deliver(from: manifest.name, body: "Your \(manifest.name) code is \(code!). Do not share it.\n\n@\(manifest.primaryDomain) #\(code!)")
        }
        let expires = now + Self.challengeLifetime
        try db.query("INSERT INTO challenges(id, user, code, expires, attempts_left) VALUES (?, ?, ?, ?, ?)",
                     [.text(id), .text(user), code.map { .text($0) } ?? .null, .real(expires), .integer(Int64(Self.maxAttempts))])
        return Challenge(id: id, method: method, attemptsLeft: Self.maxAttempts, expiresAt: Date(timeIntervalSinceReferenceDate: expires),
                         phoneHint: try phoneHint(user))
    }

    private func phoneHint(_ user: String) throws -> String? {
        guard let phone = try db.query("SELECT phone FROM accounts WHERE user = ?", [.text(user)]).first?[0].text else { return nil }
        return "•••• " + phone.suffix(2)
    }

    public func verify(challenge id: String, code: String) throws -> Verification {
        guard let row = try db.query("SELECT user, code, expires, attempts_left FROM challenges WHERE id = ?", [.text(id)]).first,
              let user = row[0].text, case .real(let expires) = row[2], let attempts = row[3].integer else { return .expired }
        guard attempts > 0 else { return .locked }
        guard expires > now else { return .expired }
        let expected: [String]
        if let sms = row[1].text { expected = [sms] } else {
            guard let uri = try db.query("SELECT totp_secret FROM accounts WHERE user = ?", [.text(user)]).first?[0].text,
                  let config = try? OTPAuthURL.parse(uri) else { return .wrong(attemptsLeft: Int(attempts) - 1) }
            let at = Int64(clock().timeIntervalSince1970)
            expected = [config.code(at: at - 30), config.code(at: at), config.code(at: at + 30)]  // one step of drift either way
        }
        if expected.contains(code.filter { !$0.isWhitespace }) {
            try db.query("UPDATE challenges SET passed = 1 WHERE id = ?", [.text(id)])
            return .passed
        }
        try db.query("UPDATE challenges SET attempts_left = attempts_left - 1 WHERE id = ?", [.text(id)])
        return attempts - 1 == 0 ? .locked : .wrong(attemptsLeft: Int(attempts) - 1)
    }

    /// The password this backend will set instead of the proposed one, when it does that.
    public func substitutePassword() throws -> String? {
        guard manifest.behaviour.substitutesPassword else { return nil }
        var generator = try PasswordGenerator(rules: try PasswordRules.parse(manifest.passwordRules ?? ""))
        return generator.next()
    }

    /// Commits a new password after checking it against the service's own
    /// rules and refusing the current one.
    public func commitPassword(user: String, newPassword: String) throws -> String {
        if let text = manifest.passwordRules, let rules = try? PasswordRules.parse(text) {
            let violations = rules.violations(of: newPassword)
            if let first = violations.first { throw Refusal(reason: "The new password does not meet \(manifest.name)'s rules: \(first).") }
        }
        if try passwordMatches(user: user, password: newPassword) {
            throw Refusal(reason: "The new password must be different from the current one.")
        }
        let salt = SecureRandom.bytes(16)
        try db.query("UPDATE accounts SET salt = ?, hash = ? WHERE user = ?", [.blob(salt), .blob(try hash(newPassword, salt: salt)), .text(user)])
        KillPoint.reach("backend-committed")
        return newPassword
    }

    /// Links the account to Sign in with Apple: the code is exchanged once,
    /// the token must carry the request's nonce, be this app's and fresh.
    public func linkSignInWithApple(user: String, credential: AppleIDCredential, nonce: String) throws {
        let claims: MockIdentityProvider.TokenClaims
        do {
            claims = try identityProvider.verify(token: credential.identityToken, audience: manifest.appID, nonce: nonce)
            let codeUser = try identityProvider.redeem(code: credential.authorizationCode, audience: manifest.appID)
            guard codeUser == claims.subject else { throw MockIdentityProvider.Refusal.badSignature }
        } catch let refusal as MockIdentityProvider.Refusal {
            throw Refusal(reason: "Sign in with Apple was refused: \(refusal.reason).")
        }
        try db.query("UPDATE accounts SET apple_user = ?, apple_email = ?, apple_relay = ?, salt = NULL, hash = NULL WHERE user = ?",
                     [.text(claims.subject), .text(claims.email), .integer(claims.isPrivateEmail ? 1 : 0), .text(user)])
        KillPoint.reach("linked")
    }
}
