import BulwarkCore
import Foundation

/// Wrong passwords at the login page and wrong codes at the second-factor
/// page, counted per account in the provider's own file (so a new request,
/// a new session or a restart starts no count afresh), as the services'
/// step-up screens count codes: five wrong ones, then a cool-down during
/// which even the right one is refused. A success clears its count.
extension MockAuthorizationServer {
    public static let maxAttempts = 5
    public static let coolDown: TimeInterval = 15 * 60

    enum Attempt: String { case password, code }

    func createLockoutTable() throws {
        try db.execute("CREATE TABLE IF NOT EXISTS lockouts(account TEXT NOT NULL, kind TEXT NOT NULL, count INTEGER NOT NULL, locked_until REAL NOT NULL, PRIMARY KEY (account, kind));")
    }

    /// When `account` takes this kind of attempt again; nil when it does now.
    func lockedUntil(_ account: String, _ kind: Attempt) -> Date? {
        guard let row = try? db.query("SELECT locked_until FROM lockouts WHERE account = ? AND kind = ?", [.text(account), .text(kind.rawValue)]).first,
              case .real(let until) = row[0], until > now else { return nil }
        return Date(timeIntervalSince1970: until)
    }

    /// Counts a wrong attempt; the attempts left, or the end of the cool-down it began.
    func fail(_ account: String, _ kind: Attempt) -> (left: Int, lockedUntil: Date?) {
        let row = try? db.query("SELECT count, locked_until FROM lockouts WHERE account = ? AND kind = ?", [.text(account), .text(kind.rawValue)]).first
        var count = Int(row?[0].integer ?? 0)
        if case .real(let until)? = row?[1], until > 0, until <= now { count = 0 }  // a cool-down past: a fresh count
        count += 1
        let until = count >= Self.maxAttempts ? now + Self.coolDown : 0
        _ = try? db.query("INSERT OR REPLACE INTO lockouts(account, kind, count, locked_until) VALUES (?, ?, ?, ?)",
                          [.text(account), .text(kind.rawValue), .integer(Int64(count)), .real(until)])
        return (max(0, Self.maxAttempts - count), until > 0 ? Date(timeIntervalSince1970: until) : nil)
    }

    func succeeded(_ account: String, _ kind: Attempt) {
        _ = try? db.query("DELETE FROM lockouts WHERE account = ? AND kind = ?", [.text(account), .text(kind.rawValue)])
    }

    func lockedMessage(_ kind: Attempt, until: Date) -> String {
        "Too many wrong \(kind == .password ? "passwords" : "codes"). For your security, this account takes no \(kind == .password ? "sign-in" : "code") for \(Int(Self.coolDown / 60)) minutes (until \(ISO8601DateFormatter().string(from: until)))."
    }
}
