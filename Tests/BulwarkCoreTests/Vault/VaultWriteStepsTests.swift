import Foundation
import Testing
@testable import BulwarkCore

/// A vault write's steps, each alone: the order rows go in, the rows
/// written in one block or through the sealing pipeline, the counter, and
/// a transaction whose later step reads its earlier ones.
@Suite struct VaultWriteStepsTests {
    @Test func rowsGoInIdOrderPastAFewAndAsTheyComeBelow() throws {
        let few = ["c", "a", "b"].map { Entry(id: $0, title: $0) }
        #expect(try Vault.rowOrder(few) == [0, 1, 2])
        let many = (0..<100).map { Entry(id: String(format: "%03d", (37 * $0) % 100), title: "x") }
        let order = try Vault.rowOrder(many)
        #expect(order.map { many[$0].id } == many.map(\.id).sorted() && Set(order).count == 100)
        // Ids sharing their first eight bytes are told apart by the rest.
        let long = (0..<100).map { Entry(id: "prefix00-" + String(format: "%03d", (37 * $0) % 100), title: "x") }
        #expect(try Vault.rowOrder(long).map { long[$0].id } == long.map(\.id).sorted())
    }

    /// The same id twice among many would leave one row for two entries: refused, named.
    @Test func theSameIdTwiceAmongManyIsRefused() {
        var many = (0..<100).map { Entry(id: "prefix00-" + String(format: "%03d", $0), title: "Entry \($0)") }
        many[70] = Entry(id: many[20].id, title: "Twin")
        #expect(throws: VaultError.conflict(title: "Twin", deleted: false)) { try Vault.rowOrder(many) }
    }

    /// Many new entries into a change with none are indexed only when one is
    /// looked up: then found, saved over and removed as any put is; the same
    /// id twice among them writes nothing.
    @Test func aLargeInsertIsFoundWhenLookedUpAndRefusedWhenAnIdRepeats() throws {
        let dir = TemporaryDirectory()
        let vault = try Vault.create(at: dir.file("v.db"), masterPassword: "m", parameters: testParameters)
        let existing = Entry(title: "Held")
        try vault.insertNew([existing])
        let many = (0..<200).map { Entry(title: "Entry \($0)", username: "u\($0)") }
        try vault.transaction { change in
            try change.insert(many)
            #expect(change.entry(id: many[150].id)?.title == "Entry 150")
            var edited = many[150]
            edited.title = "Edited"
            try change.save(edited, basedOn: nil)
            try change.insert([Entry(title: "One more")])
            #expect(throws: VaultError.self) { try change.insert([many[3]]) }
            #expect(change.entries.count == 202)
        }
        #expect(vault.entries.count == 202 && vault.entry(id: many[150].id)?.title == "Edited")

        var twins = (0..<100).map { Entry(title: "New \($0)") }
        twins[99] = Entry(id: twins[10].id, title: "Twin")
        #expect(throws: VaultError.conflict(title: "Twin", deleted: false)) {
            try vault.transaction { change in try change.insert(twins) }
        }
        #expect(throws: VaultError.conflict(title: "Held", deleted: false)) {
            try vault.transaction { change in try change.insert(twins.prefix(98) + [existing]) }
        }
        let reopened = try Vault.open(at: dir.file("v.db"), masterPassword: "m")
        #expect(reopened.entries.count == 202)
    }

    /// 20,000 rows take the pipeline (three blocks of 8,192): each reads
    /// back, sealed under the write's counter, as one block's would.
    @Test func thePipelineWritesWhatOneBlockWould() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("v.db")
        let vault = try Vault.create(at: path, masterPassword: "m", parameters: testParameters)
        let entries = (0..<20_000).map { Entry(title: "Entry \($0)", urls: ["https://\($0).example"], username: "u\($0)", password: "p-\($0)") }
        let before = vault.nextCounter()
        try vault.insertNew(entries)
        let reopened = try Vault.open(at: path, masterPassword: "m")
        #expect(reopened.entries.count == 20_000)
        let byID = Dictionary(uniqueKeysWithValues: reopened.entries.map { ($0.id, $0) })
        #expect(entries.allSatisfy { byID[$0.id] == $0 })
        #expect(entries.allSatisfy { reopened.version(of: $0.id) == before })
        #expect(reopened.nextCounter() == before + 1)
        let check = try VaultFileCheck.examine(at: path)
        #expect(check.headerProblem == nil && check.rows == 20_000 && check.integrity.allSatisfy { $0 == "ok" })
    }

    /// A later step of one change reads what an earlier one put, and a
    /// conflict anywhere writes nothing of it.
    @Test func aTransactionReadsItsOwnPutsAndIsAllOrNothing() throws {
        let dir = TemporaryDirectory()
        let vault = try Vault.create(at: dir.file("v.db"), masterPassword: "m", parameters: testParameters)
        let a = Entry(title: "A", password: "1"), b = Entry(title: "B", password: "2")
        try vault.save([a, b])
        try vault.transaction { change in
            var edited = a
            edited.password = "3"
            try change.save(edited, basedOn: vault.version(of: a.id))
            #expect(change.entry(id: a.id)?.password == "3")
            try change.update([a.id, b.id]) { $0.notes = "seen \($0.password ?? "")" }
        }
        #expect(vault.entry(id: a.id)?.notes == "seen 3" && vault.entry(id: b.id)?.notes == "seen 2")
        let stale = vault.version(of: b.id)! - 1
        #expect(throws: VaultError.self) {
            try vault.transaction { change in
                try change.insert([Entry(title: "C")])
                try change.save(b, basedOn: stale)
            }
        }
        #expect(vault.entries.map(\.title).sorted() == ["A", "B"])
    }

    /// The app's connection leaves its changes in the log, however many,
    /// until it is idle and folds them in; they are durable before and after.
    @Test func theLogIsFoldedWhenAskedNotByAChange() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("v.db")
        let vault = try Vault.create(at: path, masterPassword: "m", parameters: testParameters)
        vault.backupPolicy = .none
        try vault.foldLogWhenIdle()
        func size(_ file: String) -> Int { ((try? FileManager.default.attributesOfItem(atPath: file))?[.size] as? Int) ?? 0 }
        let before = size(path.path)
        // Some 6 MB of changes: past SQLite's automatic fold (a thousand pages, 4 MB).
        for index in 0..<300 { try vault.save(Entry(title: "E\(index)", notes: String(repeating: "n", count: 20_000))) }
        #expect(size(path.path) == before)
        #expect(size(path.path + "-wal") > 4_000_000)
        // Another reader sees them all, from the log.
        let reader = try Vault.open(at: path, masterPassword: "m")
        #expect(reader.entries.count == 300)
        reader.close()
        try vault.foldLog()
        #expect(size(path.path) > before + 5_000_000)
        vault.close()
        #expect(try Vault.open(at: path, masterPassword: "m").entries.count == 300)
    }
}
