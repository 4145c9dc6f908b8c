import Foundation
import Testing
@testable import BulwarkCore

/// Two `Vault` objects on one file are two SQLite connections, as two
/// processes would hold: each sees the other's writes, a stale edit is a
/// conflict, and the index always matches the file.
@Suite struct VaultWritersTests {
    static func twoWriters(_ dir: TemporaryDirectory) throws -> (Vault, Vault) {
        let path = dir.file("vault.db")
        let first = try Vault.create(at: path, masterPassword: "m", parameters: testParameters)
        first.backupPolicy = .none
        try first.save([Entry(title: "Alpha", password: "a-1"), Entry(title: "Beta", password: "b-1")])
        let second = try Vault.open(at: path, masterPassword: "m")
        second.backupPolicy = .none
        return (first, second)
    }

    /// The bug this format fixes: a writer holding a stale list wrote the
    /// index from it, and the vault stopped opening.
    @Test func aWriterWithAStaleListKeepsTheOtherWritersRows() throws {
        let dir = TemporaryDirectory()
        let (app, cli) = try Self.twoWriters(dir)
        try cli.save(Entry(title: "Added elsewhere", password: "x"))
        var alpha = try app.find("Alpha")
        alpha.notes = "edited in the app"
        try app.save(alpha)
        try app.remove(id: try app.find("Beta").id)
        #expect(app.entries.map(\.title) == ["Added elsewhere", "Alpha"])
        try cli.save(Entry(title: "Gamma", password: "g"))

        let reopened = try Vault.open(at: dir.file("vault.db"), masterPassword: "m")
        #expect(reopened.entries.map(\.title) == ["Added elsewhere", "Alpha", "Gamma"])
        #expect(try reopened.find("Alpha").notes == "edited in the app")
        #expect(reopened.counter == 6)  // create, first save, and four writes
    }

    @Test func aStaleEditIsAConflictNeverAnOverwrite() throws {
        let dir = TemporaryDirectory()
        let (app, cli) = try Self.twoWriters(dir)
        let base = try #require(app.version(of: try app.find("Alpha").id))
        var theirs = try cli.find("Alpha")
        theirs.changePassword(to: "a-theirs", reason: "edited")
        try cli.save(theirs)

        var mine = try app.find("Alpha")
        mine.changePassword(to: "a-mine", reason: "edited")
        #expect(throws: VaultError.conflict(title: "Alpha", deleted: false)) { try app.save(mine, basedOn: base) }
        // The failed write brought the app up to the file: theirs is what it holds now.
        #expect(try app.find("Alpha").password == "a-theirs")
        #expect(try Vault.open(at: dir.file("vault.db"), masterPassword: "m").find("Alpha").password == "a-theirs")
        // Based on their version, mine goes in.
        try app.save(mine, basedOn: app.version(of: mine.id))
        #expect(try cli.refresh()?.changed == [mine.id])
        #expect(try cli.find("Alpha").password == "a-mine")

        try cli.remove(id: mine.id)
        #expect(throws: VaultError.conflict(title: "Alpha", deleted: true)) { try app.save(mine) }
        #expect(throws: VaultError.entryNotFound(mine.id)) { try app.update(mine.id) { $0.notes = "x" } }
    }

    @Test func updateAppliesToTheNewestRow() throws {
        let dir = TemporaryDirectory()
        let (app, cli) = try Self.twoWriters(dir)
        let id = try app.find("Beta").id
        try cli.update(id) { $0.notes = "from the CLI" }
        let updated = try app.update(id) { $0.tags = ["from the app"] }
        #expect(updated.notes == "from the CLI" && updated.tags == ["from the app"])
        #expect(try Vault.open(at: dir.file("vault.db"), masterPassword: "m").find(id) == updated)
    }

    @Test func refreshReportsWhatAnotherWriterDid() throws {
        let dir = TemporaryDirectory()
        let (app, cli) = try Self.twoWriters(dir)
        #expect(try app.refresh() == nil)
        let alpha = try cli.find("Alpha"), beta = try cli.find("Beta")
        let added = Entry(title: "Delta", password: "d")
        try cli.save(added)
        try cli.update(alpha.id) { $0.title = "Aardvark" }
        try cli.remove(id: beta.id)

        let changes = try #require(try app.refresh())
        #expect(changes.added == [added.id] && changes.changed == [alpha.id])
        #expect(changes.removed == [VaultChanges.Removed(id: beta.id, title: "Beta")])
        #expect(app.entries.map(\.title) == ["Aardvark", "Delta"])
        #expect(app.entries == cli.entries && app.counter == cli.counter)
        #expect(try app.refresh() == nil)
    }

    @Test func aWriterWaitsForTheLockThenSaysBusy() throws {
        let dir = TemporaryDirectory()
        let (app, _) = try Self.twoWriters(dir)
        let holder = try SQLiteDatabase(path: dir.file("vault.db").path, create: false)
        try holder.execute("BEGIN IMMEDIATE")
        let started = Date()
        #expect(throws: VaultError.busy) { try app.save(Entry(title: "Blocked")) }
        #expect(Date().timeIntervalSince(started) >= 4.5)
        try holder.execute("ROLLBACK")
        try app.save(Entry(title: "Unblocked"))
        #expect(app.entries.map(\.title) == ["Alpha", "Beta", "Unblocked"])
    }

    @Test func aVaultReKeyedElsewhereRefusesStaleWrites() throws {
        let dir = TemporaryDirectory()
        let (app, cli) = try Self.twoWriters(dir)
        try cli.changeMasterPassword(to: "new")
        #expect(throws: VaultError.keyChanged) { try app.save(Entry(title: "Sealed under the old key")) }
        #expect(throws: VaultError.keyChanged) { try app.setNote("n", "v") }
        #expect(throws: VaultError.keyChanged) { try app.refresh() }
        let reopened = try Vault.open(at: dir.file("vault.db"), masterPassword: "new")
        #expect(reopened.entries.map(\.title) == ["Alpha", "Beta"])
    }
}
