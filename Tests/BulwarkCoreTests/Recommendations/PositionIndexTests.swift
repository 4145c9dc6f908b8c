import Testing
@testable import BulwarkCore

/// The analyzer's index of positions by id, against a dictionary kept
/// beside it through random adds, moves and removals the way the analyzer
/// makes them (a removed record's place taken by the last). Small tables,
/// so runs of slots wrap around the end and removals shift them back.
@Suite struct PositionIndexTests {
    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func randomChangesMatchADictionary(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var ids: [String] = []
        var model: [String: Int] = [:]
        var index = PositionIndex()
        var next = 0
        for step in 0..<6_000 {
            let grow = ids.count < 40 || random.next() % 5 < 3
            if grow && ids.count < 300 {
                // A new id, or one that was removed before coming back.
                let id = random.next() % 4 == 0 && next > 0 ? "id\(random.next() % UInt64(next))" : "id\(next)"
                if id == "id\(next)" { next += 1 }
                if let at = model[id] {
                    index.set(id, to: at) { ids[$0] }  // already in: set again where it is
                } else {
                    index.set(id, to: ids.count) { ids[$0] }
                    model[id] = ids.count
                    ids.append(id)
                }
            } else if !ids.isEmpty {
                let at = Int(random.next() % UInt64(ids.count)), id = ids[at], last = ids.count - 1
                index.remove(id) { ids[$0] }
                if at < last {
                    index.set(ids[last], to: at) { ids[$0] }
                    model[ids[last]] = at
                    ids.swapAt(at, last)
                }
                ids.removeLast()
                model[id] = nil
            }
            #expect(index.count == model.count, "step \(step)")
            for (id, at) in model where index.position(of: id, idAt: { ids[$0] }) != at {
                Issue.record("step \(step): \(id) not found at \(at)")
                return
            }
            #expect(index.position(of: "absent\(step)") { ids[$0] } == nil)
            #expect(index.positions.sorted() == Array(ids.indices))
        }
    }
}
