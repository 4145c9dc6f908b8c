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

    @Test func theNewerSideStandsAndEveryDifferingValueOfTheOlderIsKept() {
        let existing = Self.entry("Shiny", password: "old-pass", modified: 10, fields: [CustomField(name: "PIN", value: "1")], tags: ["Work"], notes: "mine")
        let incoming = Self.entry("Shiny Store", password: "new-pass", modified: 20, urls: ["https://shiny.example", "https://m.shiny.example"],
                                  fields: [CustomField(name: "PIN", value: "2"), CustomField(name: "Q", value: "a")], tags: ["Imported"])
        let (merged, kept) = ImportMerge.merged(existing, with: incoming, now: Self.day(30))
        #expect(merged.id == existing.id)
        #expect(merged.title == "Shiny Store" && merged.password == "new-pass")
        #expect(merged.notes == "mine")  // the newer side had none: nothing is lost
        #expect(merged.urls == ["https://shiny.example", "https://m.shiny.example"] && merged.tags == ["Work", "Imported"])
        #expect(merged.fields == [CustomField(name: "PIN", value: "2"), CustomField(name: "Q", value: "a"),
                                  CustomField(name: "Title (before the import)", value: "Shiny"), CustomField(name: "PIN (before the import)", value: "1")])
        #expect(merged.history.map(\.password) == ["old-pass"] && merged.history[0].reason == "merged on import")
        #expect(merged.created == Self.day(10) && merged.modified == Self.day(30))
        #expect(kept == ["password (in history)", "title", "field PIN"])
        #expect(LosingSide.describe(kept, whose: "the vault's", label: "before the import")
                == "the vault's password is in its history; the vault's title is in a field marked (before the import); the vault's field PIN was added")
    }

    @Test func anOlderIncomingLoginKeepsTheVaultsPasswordAndAddsItsOwnToHistory() {
        let existing = Self.entry("Shiny", password: "current", modified: 20)
        var incoming = Self.entry("Shiny", password: "stale", modified: 5)
        incoming.history = [PasswordHistoryItem(password: "ancient", changedAt: Self.day(1), reason: "from Bitwarden")]
        let (merged, kept) = ImportMerge.merged(existing, with: incoming, now: Self.day(30))
        #expect(merged.password == "current")
        #expect(merged.history.map(\.password) == ["stale", "ancient"])
        #expect(kept == ["password (in history)", "1 old password (in history)"])
    }

    /// The review's case: a Chrome row (no dates) for a login the vault
    /// holds with its own title and notes. Undated, the row is not the
    /// newer side: the vault's title and notes stand, and the row's
    /// differing title, notes and password are all kept and named.
    @Test func anUndatedRowNeverReplacesTheVaultsTitleOrNotes() throws {
        var existing = Self.entry("GitHub personal", password: "vault-Passw0rd", modified: 10, urls: ["https://github.com"], notes: "recovery codes 1234-5678")
        existing.category = .social
        let csv = "name,url,username,password,note\ngithub.com,https://github.com/,jane,chrome-Passw0rd,work account\n"
        let parsed = try Importer.parse(Data(csv.utf8), format: .chromeCSV, now: Self.day(40))
        let result = Importer.classify(parsed, existing: [existing])
        let match = try #require(result.matches.first)
        #expect(!match.incomingIsDated)
        let (merged, kept) = ImportMerge.merged(existing, with: match.incoming, incomingIsDated: match.incomingIsDated, now: Self.day(40))
        #expect(merged.title == "GitHub personal" && merged.notes == "recovery codes 1234-5678" && merged.password == "vault-Passw0rd")
        #expect(merged.category == .social)
        #expect(merged.fields == [CustomField(name: "Title (from the import)", value: "github.com"),
                                  CustomField(name: "Notes (from the import)", value: "work account")])
        #expect(merged.history.map(\.password) == ["chrome-Passw0rd"])
        #expect(merged.urls == ["https://github.com", "https://github.com/"])
        #expect(kept == ["password (in history)", "title", "notes", "website https://github.com/"])
        // A dated file's newer row stands, and the vault's values are kept the same way.
        var dated = match.incoming
        dated.modified = Self.day(20)
        let (newer, keptOfVault) = ImportMerge.merged(existing, with: dated, now: Self.day(40))
        #expect(newer.title == "github.com" && newer.notes == "work account" && newer.password == "chrome-Passw0rd")
        #expect(newer.fields == [CustomField(name: "Title (before the import)", value: "GitHub personal"),
                                 CustomField(name: "Notes (before the import)", value: "recovery codes 1234-5678")])
        #expect(keptOfVault == ["password (in history)", "title", "notes", "website https://github.com"])
    }

    @Test func theSamePasswordAddsNoHistory() {
        let (merged, kept) = ImportMerge.merged(Self.entry("A", password: "same", modified: 1), with: Self.entry("A", password: "same", modified: 2, notes: "new"))
        #expect(merged.history.isEmpty && merged.notes == "new" && kept.isEmpty)
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
