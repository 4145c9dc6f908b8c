import BulwarkCore
import Foundation

/// The in-app Messages inbox where mock services deliver SMS codes (its
/// own SQLite file beside the vault). Codes are domain-bound: the last
/// line reads `@domain #code`.
public final class MessagesInbox {
    public struct Message: Sendable, Equatable {
        public let id: Int64
        public let sender: String
        public let body: String
        public let received: Date

        public init(id: Int64, sender: String, body: String, received: Date) {
            self.id = id
            self.sender = sender
            self.body = body
            self.received = received
        }
    }

    private let db: SQLiteDatabase
    private let clock: @Sendable () -> Date

    public init(path: String, clock: @escaping @Sendable () -> Date) throws {
        db = try SQLiteDatabase(path: path, create: true)
        self.clock = clock
        try db.execute("PRAGMA journal_mode=WAL; CREATE TABLE IF NOT EXISTS messages(id INTEGER PRIMARY KEY, sender TEXT NOT NULL, body TEXT NOT NULL, received REAL NOT NULL)")
    }

    public func deliver(from sender: String, body: String) throws {
        try db.query("INSERT INTO messages(sender, body, received) VALUES (?, ?, ?)",
                     [.text(sender), .text(body), .real(clock().timeIntervalSinceReferenceDate)])
    }

    /// Newest first.
    public func messages() throws -> [Message] {
        try db.query("SELECT id, sender, body, received FROM messages ORDER BY id DESC").compactMap { row in
            guard let id = row[0].integer, let sender = row[1].text, let body = row[2].text, case .real(let at) = row[3] else { return nil }
            return Message(id: id, sender: sender, body: body, received: Date(timeIntervalSinceReferenceDate: at))
        }
    }

    /// The newest code bound to a site (the domain or a parent the code names), if one arrived.
    public func latestCode(forSite site: String) throws -> String? { try latestCode(forSites: [site]) }

    /// The newest code bound to any of the sites (a service's associated domains).
    public func latestCode(forSites sites: [String]) throws -> String? {
        for message in try messages() {
            if let bound = DomainBoundCode.parse(message: message.body), sites.contains(where: { bound.isOffered(forSite: $0) }) { return bound.code }
        }
        return nil
    }
}
