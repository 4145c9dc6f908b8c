import BulwarkCore
import Foundation

/// The backend's side of passkeys (its relying party keeps the keys): an
/// account upgraded to a passkey stops taking its password, and a
/// security-key step-up is passed by an assertion the relying party
/// verified for the same account, counted like a code.
extension MockBackend {
    public func isPasskeyOnly(_ user: String) throws -> Bool {
        !(try db.query("SELECT 1 FROM passkey_only WHERE user = ?", [.text(user)])).isEmpty
    }

    /// From now on the account signs in with its passkey: the password hash is dropped.
    public func turnOffPasswordSignIn(user: String) throws {
        try db.transaction {
            try db.query("UPDATE accounts SET salt = NULL, hash = NULL WHERE user = ?", [.text(user)])
            try db.query("INSERT OR IGNORE INTO passkey_only(user) VALUES (?)", [.text(user)])
        }
        KillPoint.reach("backend-committed")
    }

    /// A security-key challenge answered: `assertedUser` is the account the
    /// relying party verified the assertion for (nil when it refused it).
    public func verifySecurityKey(challenge id: String, assertedUser: String?) throws -> Verification {
        guard let row = try db.query("SELECT user, expires FROM challenges WHERE id = ? AND passed = 0", [.text(id)]).first,
              let user = row[0].text, case .real(let expires) = row[1] else { return .expired }
        if let until = try lockedUntil(user) { return .locked(until: until) }
        guard expires > now else { return .expired }
        guard assertedUser == user else { return try fail(user, reused: false) }
        return try pass(challenge: id, user: user)
    }
}
