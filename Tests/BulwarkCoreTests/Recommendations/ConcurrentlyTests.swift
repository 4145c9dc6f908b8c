import Foundation
import Synchronization
import Testing
@testable import BulwarkCore

/// The map that spreads work over the cores: results in the items' order
/// whatever the sizes and chunks, and when a transform throws, the error
/// comes out and every result already made is released (none leaks, none
/// is released twice).
@Suite struct ConcurrentlyTests {
    /// Counts the instances alive.
    final class Counted: Sendable {
        static let alive = Atomic<Int>(0)
        let value: Int
        init(_ value: Int) {
            self.value = value
            Self.alive.add(1, ordering: .relaxed)
        }
        deinit { Self.alive.subtract(1, ordering: .relaxed) }
    }

    struct Failed: Error, Equatable { let at: Int }

    @Test(arguments: [0, 1, 63, 64, 65, 10_000])
    func resultsComeInOrder(count: Int) throws {
        for chunk in [1, 7, 64] {
            let results = try Concurrently.map(Array(0..<count), chunk: chunk) { "v\($0)" }
            #expect(results == (0..<count).map { "v\($0)" })
        }
    }

    @Test func aThrowingTransformLeavesNothingBehind() {
        #expect(Counted.alive.load(ordering: .relaxed) == 0)
        for failing in [0, 5, 64, 999] {
            #expect(throws: Failed(at: failing)) {
                _ = try Concurrently.map(Array(0..<1_000), chunk: 16) { i -> Counted in
                    if i == failing { throw Failed(at: i) }
                    return Counted(i)
                }
            }
            #expect(Counted.alive.load(ordering: .relaxed) == 0)
        }
        let kept = try? Concurrently.map(Array(0..<100)) { Counted($0) }
        #expect(kept?.map(\.value) == Array(0..<100) && Counted.alive.load(ordering: .relaxed) == 100)
    }
}
