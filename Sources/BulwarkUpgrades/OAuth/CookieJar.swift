import BulwarkCore
import Foundation

/// The browser's cookie jar for web authentication sessions: it belongs to
/// the service world (a file beside the services' own), never to the vault.
/// A shared session reads and writes it, so a provider's login is
/// remembered; an ephemeral session (`prefersEphemeralWebBrowserSession`)
/// keeps its cookies in memory and drops them when it ends.
public final class CookieJar {
    private let db: SQLiteDatabase?
    private var memory: [String: (value: String, expires: Double)] = [:]
    private let clock: @Sendable () -> Date

    /// `path` nil: an ephemeral jar.
    public init(path: String?, clock: @escaping @Sendable () -> Date) throws {
        self.clock = clock
        db = try path.map { try SQLiteDatabase(path: $0, create: true) }
        try db?.execute("CREATE TABLE IF NOT EXISTS cookies(domain TEXT PRIMARY KEY, value TEXT NOT NULL, expires REAL NOT NULL);")
    }

    public var isEphemeral: Bool { db == nil }

    public func cookie(for domain: String) -> String? {
        let now = clock().timeIntervalSince1970
        if let db {
            guard let row = try? db.query("SELECT value, expires FROM cookies WHERE domain = ?", [.text(domain)]).first,
                  case .real(let expires) = row[1], expires > now else { return nil }
            return row[0].text
        }
        return memory[domain].flatMap { $0.expires > now ? $0.value : nil }
    }

    public func set(_ value: String, for domain: String, lifetime: TimeInterval) {
        let expires = clock().timeIntervalSince1970 + lifetime
        if let db {
            _ = try? db.query("INSERT OR REPLACE INTO cookies(domain, value, expires) VALUES (?, ?, ?)", [.text(domain), .text(value), .real(expires)])
        } else {
            memory[domain] = (value, expires)
        }
    }
}
