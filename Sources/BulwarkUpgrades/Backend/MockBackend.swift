import BulwarkCore
import Foundation

/// One mock service's server, as strict as a real one: accounts with
/// salted password hashes (enrolment never overwrites one), sign-in, 2FA
/// challenges that expire, wrong codes counted per account with a cool-down
/// that a new challenge does not reset, a TOTP code accepted once (RFC 6238
/// §5.2), a passed step-up proven by a single-use grant rather than a flag,
/// session tokens, password changes checked against its own rules, and
/// Sign in with Apple linking (after which password sign-in is refused)
/// with identity tokens accepted once. Its state is its own SQLite file
/// beside the vault, never in the vault.
public final class MockBackend {
    public let manifest: ServiceManifest
    let db: SQLiteDatabase
    let clock: @Sendable () -> Date
    private let inbox: MessagesInbox
    let identityProvider: MockIdentityProvider
    static let hashParameters = ScryptParameters(logN: 10)
    public static let maxAttempts = 5
    public static let challengeLifetime: TimeInterval = 300
    /// After `maxAttempts` wrong codes the account takes no code for this
    /// long (the manifest's `codeCoolDownMinutes`, 15 by default).
    public var coolDown: TimeInterval { TimeInterval(manifest.behaviour.codeCoolDownMinutes * 60) }
    /// How long a passed step-up stays good for the change it was asked for.
    public static let grantLifetime: TimeInterval = 120

    public typealias SignIn = ServiceSignIn

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
        /// The code was right: `grant` proves it to `authorize`, once.
        case passed(grant: String)
        case wrong(attemptsLeft: Int)
        /// A TOTP code that was already accepted once.
        case reused(attemptsLeft: Int)
        case locked(until: Date)
        case expired
    }

    public typealias Refusal = ServiceRefusal

    /// Where its codes and own passwords come from (see MockDraws).
    public var draws = MockDraws.system

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
            CREATE TABLE IF NOT EXISTS code_failures(user TEXT PRIMARY KEY, count INTEGER NOT NULL, locked_until REAL NOT NULL DEFAULT 0);
            CREATE TABLE IF NOT EXISTS totp_steps(user TEXT PRIMARY KEY, last_step INTEGER NOT NULL);
            CREATE TABLE IF NOT EXISTS grants(token TEXT PRIMARY KEY, user TEXT NOT NULL, expires REAL NOT NULL);
            CREATE TABLE IF NOT EXISTS used_tokens(digest BLOB PRIMARY KEY, expires REAL NOT NULL);
            -- Sign in with Apple after linking: events received, revoked links, refresh tokens.
            CREATE TABLE IF NOT EXISTS apple_events(id INTEGER PRIMARY KEY, apple_user TEXT NOT NULL, kind TEXT NOT NULL);
            CREATE TABLE IF NOT EXISTS apple_state(apple_user TEXT PRIMARY KEY, revoked INTEGER NOT NULL);
            -- Accounts that sign in with a passkey only (their password hash dropped).
            CREATE TABLE IF NOT EXISTS passkey_only(user TEXT PRIMARY KEY);
            CREATE TABLE IF NOT EXISTS apple_tokens(apple_user TEXT PRIMARY KEY, refresh_token TEXT NOT NULL, checked REAL NOT NULL,
                                                    real_user_status INTEGER NOT NULL DEFAULT 1);
            """)
    }

    var now: Double { clock().timeIntervalSinceReferenceDate }

    private func hash(_ password: String, salt: [UInt8]) throws -> [UInt8] {
        try Scrypt.derive(password: Array(password.utf8), salt: salt, parameters: Self.hashParameters)
    }

    // MARK: Accounts

    /// Signs a person up (the demo's set-up, and `bulwark services enroll`).
    /// An existing account is never replaced: that would drop its Sign in
    /// with Apple link and turn password sign-in back on.
    public func enroll(user: String, password: String, totpSecret: String? = nil, phone: String? = nil) throws {
        guard try !hasAccount(user) else { throw Refusal(reason: "\(manifest.name) already has an account named \(user); nothing was changed.") }
        let salt = SecureRandom.bytes(16)
        try db.query("INSERT INTO accounts(user, salt, hash, totp_secret, phone) VALUES (?, ?, ?, ?, ?)",
                     [.text(user), .blob(salt), .blob(try hash(password, salt: salt)),
                      totpSecret.map { .text($0) } ?? .null, phone.map { .text($0) } ?? .null])
    }

    public func hasAccount(linkedTo appleUser: String) throws -> Bool {
        !(try db.query("SELECT 1 FROM accounts WHERE apple_user = ?", [.text(appleUser)])).isEmpty
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
        if try isPasskeyOnly(user) { return .refused("this account signs in with a passkey; its password no longer works") }
        guard try passwordMatches(user: user, password: password) else { return .refused("wrong password") }
        return .accepted(sessionToken: try issueSession(user: user))
    }

    /// Sign in with Apple: the identity token must be this app's, fresh, and the linked user's.
    public func signInWithApple(identityToken: String, nonce: String) throws -> SignIn {
        let claims: MockIdentityProvider.TokenClaims
        do { claims = try identityProvider.verify(token: identityToken, audience: manifest.appID, nonce: nonce) } catch {
            return .refused(error.reason)
        }
        guard try spend(identityToken) else { return .refused("this identity token was already used") }
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

    /// An identity token is accepted once: a replay is refused until long
    /// after the token itself expires.
    func spend(_ token: String) throws -> Bool {
        try db.query("DELETE FROM used_tokens WHERE expires < ?", [.real(now)])
        let digest = Digest.sha256(Array(token.utf8))
        guard try db.query("SELECT 1 FROM used_tokens WHERE digest = ?", [.blob(digest)]).isEmpty else { return false }
        try db.query("INSERT INTO used_tokens(digest, expires) VALUES (?, ?)", [.blob(digest), .real(now + 86_400)])
        return true
    }

    /// May this person change their sign-in? With the current password or a
    /// session token; step-up when the service asks for it, proven by the
    /// grant a passed code earned (once, for this user, for two minutes).
    public func authorize(user: String, password: String?, sessionToken: String?, stepUpGrant: String?) throws -> Authorization {
        if let failure = manifest.behaviour.failure { return .refused(failure.reason) }
        guard try hasAccount(user) else { return .refused("\(manifest.name) has no account named \(user).") }
        if try link(of: user) != nil { return .refused("This account already signs in with Apple.") }
        if try isPasskeyOnly(user) { return .refused("This account already signs in with a passkey.") }
        if let until = try lockedUntil(user) { return .refused(lockedMessage(until)) }
        if let sessionToken {
            guard try sessionUser(sessionToken) == user else { return .refused("Your session has expired. Sign in again.") }
        } else {
            guard let password, try passwordMatches(user: user, password: password) else {
                return .refused("The current password is not right.")
            }
        }
        if manifest.behaviour.stepUp == .always && manifest.twoFactor != .none {
            guard try redeem(grant: stepUpGrant, user: user) else { return .stepUpRequired }
        }
        KillPoint.reach("backend-authorised")
        return .authorized
    }

    private func redeem(grant: String?, user: String) throws -> Bool {
        guard let grant, let row = try db.query("SELECT user, expires FROM grants WHERE token = ?", [.text(grant)]).first else { return false }
        try db.query("DELETE FROM grants WHERE token = ?", [.text(grant)])
        guard row[0].text == user, case .real(let expires) = row[1], expires > now else { return false }
        return true
    }

    /// When the account takes codes again after too many wrong ones; nil when it does now.
    public func lockedUntil(_ user: String) throws -> Date? {
        guard let row = try db.query("SELECT locked_until FROM code_failures WHERE user = ?", [.text(user)]).first,
              case .real(let until) = row[0], until > now else { return nil }
        return Date(timeIntervalSinceReferenceDate: until)
    }

    func lockedMessage(_ until: Date) -> String {
        "Too many wrong codes. For your security, this account takes no code for \(Int(coolDown / 60)) minutes (until \(ISO8601DateFormatter().string(from: until)))."
    }

    /// Wrong codes left for this account before the cool-down, across challenges.
    private func attemptsLeft(_ user: String) throws -> Int {
        let failures = try db.query("SELECT count FROM code_failures WHERE user = ?", [.text(user)]).first?.first?.integer ?? 0
        return max(0, Self.maxAttempts - Int(failures))
    }

    /// The running challenge for this person, or a new one (an SMS is sent
    /// only for a new one, so a code stays good across tries until it expires).
    public func challenge(user: String, fresh: Bool = false) throws -> Challenge {
        let method: StepUpScreen.Method = switch manifest.twoFactor {
        case .sms: .sms
        case .securityKey: .securityKey
        case .none, .totp: .totp
        }
        if !fresh, let row = try db.query("SELECT id, expires, attempts_left FROM challenges WHERE user = ? AND passed = 0 AND attempts_left > 0 AND expires > ? ORDER BY expires DESC LIMIT 1",
                                          [.text(user), .real(now)]).first,
           let id = row[0].text, case .real(let expires) = row[1], let attempts = row[2].integer {
            return Challenge(id: id, method: method, attemptsLeft: min(Int(attempts), try attemptsLeft(user)),
                             expiresAt: Date(timeIntervalSinceReferenceDate: expires), phoneHint: try phoneHint(user))
        }
        let id = "ch" + SecureRandom.bytes(8).hex
        var code: String?
        if method == .sms {
            code = draws.smsCode()
            try inbox.deliver(from: manifest.name, body: "Your \(manifest.name) code is \(code!). Do not share it.\n\n@\(manifest.primaryDomain) #\(code!)")
        }
        let expires = now + Self.challengeLifetime
        try db.query("INSERT INTO challenges(id, user, code, expires, attempts_left) VALUES (?, ?, ?, ?, ?)",
                     [.text(id), .text(user), code.map { .text($0) } ?? .null, .real(expires), .integer(Int64(Self.maxAttempts))])
        return Challenge(id: id, method: method, attemptsLeft: try attemptsLeft(user), expiresAt: Date(timeIntervalSinceReferenceDate: expires),
                         phoneHint: try phoneHint(user))
    }

    private func phoneHint(_ user: String) throws -> String? {
        guard let phone = try db.query("SELECT phone FROM accounts WHERE user = ?", [.text(user)]).first?[0].text else { return nil }
        return "•••• " + phone.suffix(2)
    }

    public func verify(challenge id: String, code: String) throws -> Verification {
        guard let row = try db.query("SELECT user, code, expires FROM challenges WHERE id = ? AND passed = 0", [.text(id)]).first,
              let user = row[0].text, case .real(let expires) = row[2] else { return .expired }
        if let until = try lockedUntil(user) { return .locked(until: until) }
        guard expires > now else { return .expired }
        let typed = code.filter { !$0.isWhitespace }
        if let sms = row[1].text {
            if ConstantTime.equal(Array(typed.utf8), Array(sms.utf8)) { return try pass(challenge: id, user: user) }
        } else if let uri = try db.query("SELECT totp_secret FROM accounts WHERE user = ?", [.text(user)]).first?[0].text,
                  let config = try? OTPAuthURL.parse(uri), case .totp(let period) = config.kind {
            // One step of drift either way; a step once accepted is never accepted again.
            let at = Int64(clock().timeIntervalSince1970)
            let last = try db.query("SELECT last_step FROM totp_steps WHERE user = ?", [.text(user)]).first?.first?.integer
            for offset in [-1, 0, 1] {
                let moment = at + Int64(offset * period)
                guard ConstantTime.equal(Array(typed.utf8), Array(config.code(at: moment).utf8)) else { continue }
                let step = Int64(OneTimePassword.timeStep(at: moment, period: period))
                if let last, step <= last { return try fail(user, reused: true) }
                try db.query("INSERT OR REPLACE INTO totp_steps(user, last_step) VALUES (?, ?)", [.text(user), .integer(step)])
                return try pass(challenge: id, user: user)
            }
        }
        return try fail(user, reused: false)
    }

    func pass(challenge id: String, user: String) throws -> Verification {
        try db.query("UPDATE challenges SET passed = 1 WHERE id = ?", [.text(id)])
        try db.query("DELETE FROM code_failures WHERE user = ?", [.text(user)])
        let grant = "g" + SecureRandom.bytes(16).hex
        try db.query("INSERT INTO grants(token, user, expires) VALUES (?, ?, ?)", [.text(grant), .text(user), .real(now + Self.grantLifetime)])
        return .passed(grant: grant)
    }

    /// A wrong (or reused) code counts against the account, not the challenge.
    func fail(_ user: String, reused: Bool) throws -> Verification {
        let failures = (try db.query("SELECT count FROM code_failures WHERE user = ?", [.text(user)]).first?.first?.integer ?? 0) + 1
        let lockedUntil = failures >= Int64(Self.maxAttempts) ? now + coolDown : 0
        try db.query("INSERT OR REPLACE INTO code_failures(user, count, locked_until) VALUES (?, ?, ?)",
                     [.text(user), .integer(failures >= Int64(Self.maxAttempts) ? 0 : failures), .real(lockedUntil)])
        if lockedUntil > 0 { return .locked(until: Date(timeIntervalSinceReferenceDate: lockedUntil)) }
        let left = Self.maxAttempts - Int(failures)
        return reused ? .reused(attemptsLeft: left) : .wrong(attemptsLeft: left)
    }

    /// The password this backend will set instead of the proposed one, when it does that.
    public func substitutePassword() throws -> String? {
        guard manifest.behaviour.substitutesPassword else { return nil }
        return try draws.servicePassword(rules: try PasswordRules.parse(manifest.passwordRules ?? ""))
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
        let claims = try accept(credential, nonce: nonce)
        // The code for tokens, once; the refresh token kept for the daily check.
        try exchangeAndKeep(credential, subject: claims.subject)
        try db.query("UPDATE accounts SET apple_user = ?, apple_email = ?, apple_relay = ?, salt = NULL, hash = NULL WHERE user = ?",
                     [.text(claims.subject), .text(claims.email), .integer(claims.isPrivateEmail ? 1 : 0), .text(user)])
        KillPoint.reach("linked")
    }

    /// Creates an account for a Sign in with Apple credential (Sign up with
    /// Apple): its user name is the e-mail the person chose to share, and it
    /// has no password. An Apple ID signs up once.
    public func signUpWithApple(credential: AppleIDCredential, nonce: String) throws {
        let claims = try accept(credential, nonce: nonce)
        guard try !hasAccount(linkedTo: claims.subject) else {
            throw Refusal(reason: "\(manifest.name) already has an account for this Apple ID; sign in with Apple instead")
        }
        guard try !hasAccount(claims.email) else { throw Refusal(reason: "\(manifest.name) already has an account named \(claims.email)") }
        guard !claims.email.isEmpty else { throw Refusal(reason: "\(manifest.name) needs an e-mail address to sign up") }
        try exchangeAndKeep(credential, subject: claims.subject)
        try db.query("INSERT INTO accounts(user, apple_user, apple_email, apple_relay) VALUES (?, ?, ?, ?)",
                     [.text(claims.email), .text(claims.subject), .text(claims.email), .integer(claims.isPrivateEmail ? 1 : 0)])
    }

    /// A credential's identity token, checked (this app's, fresh, the
    /// request's nonce) and spent: it is never accepted twice.
    private func accept(_ credential: AppleIDCredential, nonce: String) throws -> MockIdentityProvider.TokenClaims {
        do {
            let claims = try identityProvider.verify(token: credential.identityToken, audience: manifest.appID, nonce: nonce)
            guard try spend(credential.identityToken) else { throw Refusal(reason: "Sign in with Apple was refused: the identity token was already used.") }
            return claims
        } catch let refusal as MockIdentityProvider.Refusal {
            throw Refusal(reason: "Sign in with Apple was refused: \(refusal.reason).")
        }
    }
}
