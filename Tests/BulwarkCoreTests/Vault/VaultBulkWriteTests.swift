import Foundation
import Testing
@testable import BulwarkCore

/// Large writes: sealed on every core, a block at a time, in id order;
/// an import's rows written without being taken into memory.
@Suite struct VaultBulkWriteTests {
    @Test func insertNewWritesRowsThatTheNextSyncAndEveryOtherReaderSee() throws {
        let dir = TemporaryDirectory()
        let (importer, other) = try VaultWritersTests.twoWriters(dir)
        let fresh = (0..<10_000).map { Entry(title: "Bulk \($0)", urls: ["https://bulk\($0).example"], username: "u\($0)", password: "p-\($0)") }
        try importer.insertNew(fresh)
        // Not in this object's memory until it syncs, like another process's rows.
        #expect(importer.entries.count == 2)
        _ = try importer.refresh()
        #expect(importer.entries.count == 10_002)
        _ = try other.refresh()
        let last = try other.find("Bulk 9999")
        #expect(other.entries.count == 10_002 && last.password == "p-9999")
        let reopened = try Vault.open(at: dir.file("vault.db"), masterPassword: "m")
        #expect(reopened.entries.count == 10_002)
        #expect(Set(reopened.entries.map(\.id)).isSuperset(of: fresh.map(\.id)))
        // A later write from the importing object keeps every row.
        try importer.save(Entry(title: "After", password: "x"))
        #expect(try Vault.open(at: dir.file("vault.db"), masterPassword: "m").entries.count == 10_003)
    }

    @Test func insertNewRefusesAnIDTheVaultHolds() throws {
        let dir = TemporaryDirectory()
        let (vault, _) = try VaultWritersTests.twoWriters(dir)
        var copy = try vault.find("Alpha")
        copy.password = "overwrite"
        #expect(throws: VaultError.self) { try vault.insertNew([copy]) }
        #expect(try Vault.open(at: dir.file("vault.db"), masterPassword: "m").find("Alpha").password == "a-1")
    }

    /// Many blocks sealed on several threads each open with their own row's associated data.
    @Test func aLargeSaveSealsEveryRowForItsOwnIDAndVersion() throws {
        let dir = TemporaryDirectory()
        let vault = try Vault.create(at: dir.file("v.db"), masterPassword: "m", parameters: testParameters)
        vault.backupPolicy = .none
        let entries = (0..<20_000).map { Entry(title: "E\($0)", password: "pw\($0)") }
        try vault.save(entries)
        let reopened = try Vault.open(at: dir.file("v.db"), masterPassword: "m")
        #expect(reopened.entries.count == 20_000)
        let byID = Dictionary(uniqueKeysWithValues: reopened.entries.map { ($0.id, $0) })
        #expect(entries.allSatisfy { byID[$0.id]?.password == $0.password && byID[$0.id]?.title == $0.title })
        #expect(try VaultInspection.inspect(at: dir.file("v.db"), masterPassword: "m").problems.isEmpty)
    }

    /// Titles order by their lower-cased bytes, numbers as numbers, then by id; the in-place
    /// insert and the full sort agree.
    @Test func titleOrderIsTheSameWhicheverWayAnEntryArrives() throws {
        let titles = ["beta", "Alpha", "alpha", "Émile", "zeta", "Zeta", "10", "2", ""]
        let dir = TemporaryDirectory()
        let vault = try Vault.create(at: dir.file("v.db"), masterPassword: "m", parameters: testParameters)
        vault.backupPolicy = .none
        for title in titles { try vault.save(Entry(title: title, password: "x")) }
        let oneByOne = vault.entries.map(\.title)
        let reopened = try Vault.open(at: dir.file("v.db"), masterPassword: "m").entries.map(\.title)
        #expect(oneByOne == reopened)
        #expect(reopened.map { $0.lowercased() } == ["", "2", "10", "alpha", "alpha", "beta", "zeta", "zeta", "émile"])
    }
}
