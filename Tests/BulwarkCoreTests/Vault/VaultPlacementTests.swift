import Foundation
import Testing
@testable import BulwarkCore

/// The vault keeps its entries in title order and finds each by id through
/// an index it updates change by change: after any mix of additions,
/// renames (same title, new title, titles that tie), edits and deletions,
/// one at a time or many in one write, the list is what a full sort gives, the
/// rows by id agree with it, and a fresh open reads the same, row versions too.
@Suite struct VaultPlacementTests {
    @Test func randomChangesKeepTheOrderAndTheIndex() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("vault.db")
        let vault = try Vault.create(at: path, masterPassword: "m", parameters: testParameters)
        vault.backupPolicy = .none
        var generator = SplitMix64(seed: 22)  // the core's seeded generator: a failure replays
        let titles = ["Bank", "bank", "Äpfel", "Mail 2", "Mail 10", "mail 2", "Zoo", "alpha", "Bank"]
        var live: [String: Entry] = [:]
        for step in 0..<300 {
            let roll = generator.next() % 10
            if roll < 4 || live.isEmpty {  // add one, or a batch larger than the one-by-one path takes
                let count = step % 50 == 0 ? 70 : 1
                let fresh = (0..<count).map { i in
                    Entry(id: "id-\(step)-\(i)", title: titles[Int(generator.next() % UInt64(titles.count))], password: "p\(step)")
                }
                try vault.save(fresh)
                for entry in fresh { live[entry.id] = entry }
            } else if roll < 7 {  // rename or edit one
                var entry = live.values.sorted { $0.id < $1.id }[Int(generator.next() % UInt64(live.count))]
                if roll == 4 { entry.title = titles[Int(generator.next() % UInt64(titles.count))] } else { entry.notes = "edited \(step)" }
                try vault.save(entry)
                live[entry.id] = entry
            } else {  // delete one, or in one write more than the one-by-one path takes
                let doomed = live.keys.sorted().shuffledPrefix(step % 20 == 0 ? 9 : 1, &generator)
                if doomed.count > 1 { try vault.write { ([], doomed) } } else { try vault.remove(id: doomed[0]) }
                for id in doomed { live[id] = nil }
            }
            #expect(vault.entries == Vault.sorted(vault.entries), "out of order after step \(step)")
            #expect(vault.entries.count == live.count && Set(vault.entries.map(\.id)) == Set(live.keys))
            for (id, entry) in live { #expect(vault.entry(id: id) == entry, "step \(step): \(id)") }
            #expect(vault.entry(id: "never") == nil && vault.rows.count == live.count)
        }
        let versions = vault.versions
        #expect(live.keys.allSatisfy { (versions[$0] ?? 0) > 0 })
        vault.close()
        let reopened = try Vault.open(at: path, masterPassword: "m")
        #expect(reopened.entries == Vault.sorted(Array(live.values)))
        #expect(reopened.versions == versions && reopened.rows.count == live.count)
    }
}

extension Array {
    func shuffledPrefix(_ count: Int, _ generator: inout SplitMix64) -> [Element] {
        var copy = self
        for i in copy.indices.reversed() where i > 0 { copy.swapAt(i, Int(generator.next() % UInt64(i + 1))) }
        return Array(copy.prefix(count))
    }
}
