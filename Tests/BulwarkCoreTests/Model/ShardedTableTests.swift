import Testing
@testable import BulwarkCore

/// The table of values by the key each carries, against a dictionary kept
/// beside it: random puts, replacements and removals, in numbers that make
/// shards grow from nothing and fill up to their limit, so that runs of
/// slots wrap around a shard's end and removals shift them back; and a
/// copy changed apart from the original, as the app's snapshot and the
/// vault share one.
@Suite struct ShardedTableTests {
    struct Item: TableKeyed, Equatable {
        let tableKey: String
        let value: Int
    }

    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func randomChangesMatchADictionary(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var model: [String: Int] = [:]
        var table = ShardedTable<Item>()
        for step in 0..<20_000 {
            let key = "k\(random.next() % 3_000)"
            switch random.next() % 10 {
            case 0..<6:
                let value = Int(random.next() % 1_000)
                table[key] = Item(tableKey: key, value: value)
                model[key] = value
            default:
                table[key] = nil
                model[key] = nil
            }
            // Checked by hand: 40,000 #expects take a minute.
            if table.count != model.count || table["absent\(step)"] != nil {
                Issue.record("step \(step): \(table.count) elements, \(model.count) expected, or an absent key found")
                return
            }
            if step % 500 == 0 || step > 19_900 {
                for (key, value) in model where table[key] != Item(tableKey: key, value: value) {
                    Issue.record("step \(step): \(key) not found as \(value)")
                    return
                }
                #expect(table.elements.map(\.tableKey).sorted() == model.keys.sorted())
            }
        }
        // Emptied, every slot is free again and everything can come back.
        for key in model.keys { table[key] = nil }
        #expect(table.isEmpty && table.elements.isEmpty)
        for i in 0..<5_000 { table["k\(i)"] = Item(tableKey: "k\(i)", value: i) }
        var missing = 0
        for i in 0..<5_000 where table["k\(i)"]?.value != i { missing += 1 }
        #expect(table.count == 5_000 && missing == 0)
    }

    @Test func aCopyChangedLeavesTheOriginal() {
        let original = ShardedTable((0..<1_000).map { Item(tableKey: "k\($0)", value: $0) })
        var copy = original
        copy["k1"] = nil
        copy["k2"] = Item(tableKey: "k2", value: -2)
        copy["new"] = Item(tableKey: "new", value: 0)
        #expect(original.count == 1_000 && original["k1"]?.value == 1 && original["k2"]?.value == 2 && original["new"] == nil)
        #expect(copy.count == 1_000 && copy["k1"] == nil && copy["k2"]?.value == -2 && copy["new"]?.value == 0)
    }
}
