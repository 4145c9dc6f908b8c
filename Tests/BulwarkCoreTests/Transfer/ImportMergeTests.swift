import Foundation
import Testing
@testable import BulwarkCore

/// Merging an incoming login into the one the vault holds for the same site and user name.
@Suite struct ImportMergeTests {
    static func day(_ n: Double) -> Date { Date(timeIntervalSince1970: n * 86_400) }

    static func entry(_ title: String, password: String, modified: Double, urls: [String] = ["https://shiny.example"],
                      fields: [CustomField] = [], tags: [String] = [], notes: String = "") -> Entry {
        var e = Entry(title: title, urls: urls, username: "jane", password: password, notes: notes, tags: tags, created: day(modified))
        e.fields = fields
        e.modified = day(modified)
        e.passwordChanged = day(modified)
        return e
    }

    @Test func theNewerSideWinsAndTheOlderPasswordGoesToHistory() {
        let existing = Self.entry("Shiny", password: "old-pass", modified: 10, fields: [CustomField(name: "PIN", value: "1")], tags: ["Work"], notes: "mine")
        let incoming = Self.entry("Shiny Store", password: "new-pass", modified: 20, urls: ["https://shiny.example", "https://m.shiny.example"],
                                  fields: [CustomField(name: "PIN", value: "2"), CustomField(name: "Q", value: "a")], tags: ["Imported"])
        let merged = ImportMerge.merged(existing, with: incoming, now: Self.day(30))
        #expect(merged.id == existing.id)
        #expect(merged.title == "Shiny Store" && merged.password == "new-pass")
        #expect(merged.notes == "mine")  // the newer side had none: nothing is lost
        #expect(merged.urls == ["https://shiny.example", "https://m.shiny.example"] && merged.tags == ["Work", "Imported"])
        #expect(merged.fields == [CustomField(name: "PIN", value: "2"), CustomField(name: "Q", value: "a")])
        #expect(merged.history.map(\.password) == ["old-pass"] && merged.history[0].reason == "merged on import")
        #expect(merged.created == Self.day(10) && merged.modified == Self.day(30))
    }

    @Test func anOlderIncomingLoginKeepsTheVaultsPasswordAndAddsItsOwnToHistory() {
        let existing = Self.entry("Shiny", password: "current", modified: 20)
        var incoming = Self.entry("Shiny", password: "stale", modified: 5)
        incoming.history = [PasswordHistoryItem(password: "ancient", changedAt: Self.day(1), reason: "from Bitwarden")]
        let merged = ImportMerge.merged(existing, with: incoming, now: Self.day(30))
        #expect(merged.password == "current")
        #expect(merged.history.map(\.password) == ["stale", "ancient"])
    }

    @Test func theSamePasswordAddsNoHistory() {
        let merged = ImportMerge.merged(Self.entry("A", password: "same", modified: 1), with: Self.entry("A", password: "same", modified: 2, notes: "new"))
        #expect(merged.history.isEmpty && merged.notes == "new")
    }

    /// Duplicates are found by content hash and confirmed field by field:
    /// two different items whose hashes collide are both kept.
    @Test func aHashCollisionNeverDropsAnItem() {
        let a = Entry(title: "A", password: "1"), b = Entry(title: "B", password: "2"), again = Entry(title: "A", password: "1")
        var seen = Importer.ContentSet(existing: [a], candidates: [b, again])
        let first = seen.insert(.existing(0), hash: 42)
        let collided = seen.insert(.candidate(0), hash: 42)  // same hash, other content: kept
        let duplicate = seen.insert(.candidate(1), hash: 42)  // same content: a duplicate
        #expect(first && collided && !duplicate)
        #expect(Importer.contentHash(a) == Importer.contentHash(again) && Importer.sameContent(a, again))
        var other = again
        other.fields = [CustomField(name: "x", value: "y")]
        #expect(!Importer.sameContent(a, other))
    }
}
