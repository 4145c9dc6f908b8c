import BulwarkCore
import Foundation

/// Every entry's title and "title username site", lower-cased, as UTF-8
/// bytes: made once per snapshot, on the first search, so each keystroke of
/// a search through 100k entries compares bytes instead of lower-casing and
/// searching 300k strings. Shared by the copies of one snapshot.
public final class SearchText: @unchecked Sendable {  // `keys` is guarded by `lock`
    public struct Key: Sendable {
        public let title: [UInt8]
        public let haystack: [UInt8]
    }

    private let lock = NSLock()
    private var keys: [Key]?

    public init() {}

    func keys(for entries: [Entry]) -> [Key] {
        lock.withLock {
            if let keys, keys.count == entries.count { return keys }
            let made = entries.map { entry in
                let title = entry.title.lowercased()
                // Custom fields are found by their names, never their values (which may be secret).
                let names = entry.fields.isEmpty ? "" : " " + entry.fields.map(\.name).joined(separator: " ").lowercased()
                return Key(title: Array(title.utf8), haystack: Array((title + " " + entry.username.lowercased() + " " + entry.site + names).utf8))
            }
            keys = made
            return made
        }
    }
}
