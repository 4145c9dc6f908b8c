import Testing
@testable import BulwarkCore

/// The chunked array and the sharded dictionary behave as Array and
/// Dictionary do, through random inserts and removals that split chunks
/// and empty them, and a copy changed afterwards leaves the original alone.
@Suite struct ChunkedArrayTests {
    @Test func randomInsertsAndRemovalsMatchAnArray() {
        var g = SplitMix64(seed: 7)
        var array = Array(0..<3000)
        var chunked = ChunkedArray(array)
        #expect(Array(chunked) == array)
        let kept = chunked
        for step in 0..<20_000 {
            // Mostly inserts at one end to split chunks, then mostly removals to empty them.
            if step < 12_000 ? Int.random(in: 0..<3, using: &g) > 0 : Int.random(in: 0..<3, using: &g) == 0 {
                let at = step % 7 == 0 ? Int.random(in: 0...array.count, using: &g) : min(array.count, 100)
                array.insert(step + 10_000, at: at)
                chunked.insert(step + 10_000, at: at)
            } else if !array.isEmpty {
                let at = Int.random(in: 0..<array.count, using: &g)
                #expect(chunked.remove(at: at) == array.remove(at: at))
            }
            if step % 997 == 0 {
                #expect(Array(chunked) == array)
                #expect(chunked.count == array.count)
                if !array.isEmpty {
                    let probe = Int.random(in: 0..<array.count, using: &g)
                    #expect(chunked[probe] == array[probe])
                }
            }
        }
        #expect(Array(chunked) == array)
        #expect(Array(kept) == Array(0..<3000))  // the copy taken before is as it was
        var walked: [Int] = []
        chunked.forEachChunk { start, elements in
            #expect(start == walked.count)
            walked += elements
        }
        #expect(walked == array)
    }

    @Test func insertionIndexFindsTheOrderedPlace() {
        let chunked = ChunkedArray(stride(from: 0, to: 10_000, by: 2))
        #expect(chunked.insertionIndex(of: 0, by: <) == 0)
        #expect(chunked.insertionIndex(of: 5, by: <) == 3)
        #expect(chunked.insertionIndex(of: 4096, by: <) == 2048)
        #expect(chunked.insertionIndex(of: 20_000, by: <) == 5000)
        #expect(ChunkedArray<Int>().insertionIndex(of: 1, by: <) == 0)
    }

    @Test func aShardedDictionaryIsADictionary() {
        var sharded = ShardedDictionary<String, Int>()
        var plain: [String: Int] = [:]
        for i in 0..<2000 {
            sharded["k\(i % 700)"] = i
            plain["k\(i % 700)"] = i
            if i % 5 == 0 { sharded["k\(i % 300)"] = nil; plain["k\(i % 300)"] = nil }
        }
        let kept = sharded
        sharded["k1"] = -1
        #expect(sharded.count == plain.count)
        #expect(Set(sharded.keys) == Set(plain.keys))
        for key in plain.keys where key != "k1" { #expect(sharded[key] == plain[key]) }
        #expect(kept["k1"] == plain["k1"] && sharded["k1"] == -1)
    }
}
