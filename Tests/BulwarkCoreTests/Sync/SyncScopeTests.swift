import Foundation
import Testing
@testable import BulwarkCore

/// A sync decides only the entries changed since the last one; a deletion,
/// which leaves no row to see, makes it walk every entry.
@Suite struct SyncScopeTests {
    typealias F = SyncFixture

    static func scope(_ machine: F.Machine, remote: [String] = []) throws -> SyncScope? {
        var state = try #require(try SyncState.load(for: machine.vault))
        return try SyncScope.changed(in: machine.vault, since: state.vaultCounter, rowsThen: state.rowsAtMerge, known: &state.known,
                                     remote: remote, rewrite: false)
    }

    @Test func aOneChangeSyncDecidesThatEntryAlone() throws {
        let f = try SyncFixture()
        let laptop = try f.first(entries: (0..<40).map { F.entry("Site \($0)") })
        #expect(try Self.scope(laptop)?.local.isEmpty == true)
        try F.edit(laptop, "Site 7", at: 10) { $0.notes = "changed" }
        let scope = try #require(try Self.scope(laptop))
        #expect(scope.local.values.map(\.title) == ["Site 7"] && scope.known.count == 1)
        #expect(try laptop.sync().outgoing == ["Site 7"])
        #expect(try Self.scope(laptop)?.local.isEmpty == true)
    }

    /// One entry deleted and one added keeps the count: the new one is not
    /// known, so the rows of the last merge do not add up, and every entry is walked.
    @Test func aDeletionIsSeenThoughTheCountIsTheSame() throws {
        let f = try SyncFixture()
        let laptop = try f.first(entries: [F.entry("Mail"), F.entry("Bank"), F.entry("Forum")])
        let desktop = try f.clone("desktop")
        try laptop.vault.remove(id: try #require(laptop.entry("Bank")).id)
        try laptop.vault.save(F.entry("Shop", at: 5))
        #expect(try Self.scope(laptop) == nil)
        #expect(try laptop.sync().outgoing.sorted() == ["Bank (deleted)", "Shop"])
        try desktop.sync()
        #expect(desktop.titles() == ["Forum", "Mail", "Shop"])
        // An edit beside a deletion: one row fewer than the merge left, and walked too.
        try laptop.vault.remove(id: try #require(laptop.entry("Forum")).id)
        try F.edit(laptop, "Mail", at: 20) { $0.notes = "edited" }
        #expect(try Self.scope(laptop) == nil)
        try laptop.sync()
        try desktop.sync()
        #expect(desktop.titles() == ["Mail", "Shop"] && desktop.entry("Mail")?.notes == "edited")
    }

    /// What the remote changed is decided with this machine's side, unchanged here.
    @Test func theRemotesChangesAreDecidedWithThisMachinesEntries() throws {
        let f = try SyncFixture()
        let laptop = try f.first(entries: [F.entry("Mail"), F.entry("Bank")])
        let desktop = try f.clone("desktop")
        let bank = try #require(desktop.entry("Bank")).id
        let scope = try #require(try Self.scope(desktop, remote: [bank]))
        #expect(scope.local.keys.sorted() == [bank] && scope.known.keys.sorted() == [bank])
        try F.edit(laptop, "Bank", at: 10) { $0.notes = "from the laptop" }
        try laptop.sync()
        #expect(try desktop.sync().incoming.map(\.title) == ["Bank"])
        #expect(desktop.entry("Bank")?.notes == "from the laptop" && desktop.titles() == ["Bank", "Mail"])
    }
}

extension SyncScope: Equatable {
    public static func == (a: SyncScope, b: SyncScope) -> Bool { a.local == b.local && a.known == b.known }
}
