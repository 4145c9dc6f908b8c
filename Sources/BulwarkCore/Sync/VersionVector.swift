import Foundation

/// Which machines' changes an entry's value includes: machine id → how
/// many changes of that machine it has seen. One vector descends from
/// another when it has seen everything the other has; neither does when
/// two machines changed the entry without seeing each other's change.
public struct VersionVector: Sendable, Equatable, Hashable, Codable {
    public private(set) var counters: [String: Int64]

    public init(_ counters: [String: Int64] = [:]) { self.counters = counters.filter { $0.value > 0 } }

    public enum Order: Sendable, Equatable { case same, newer, older, concurrent }

    /// How `self` stands to `other`: `.newer` when it has seen all of `other` and more.
    public func compare(_ other: VersionVector) -> Order {
        var ahead = false, behind = false
        for machine in Set(counters.keys).union(other.counters.keys) {
            let mine = counters[machine] ?? 0, theirs = other.counters[machine] ?? 0
            if mine > theirs { ahead = true }
            if mine < theirs { behind = true }
        }
        switch (ahead, behind) {
        case (false, false): return .same
        case (true, false): return .newer
        case (false, true): return .older
        case (true, true): return .concurrent
        }
    }

    /// Both sides' changes, seen.
    public func merged(with other: VersionVector) -> VersionVector {
        VersionVector(counters.merging(other.counters) { max($0, $1) })
    }

    /// One more change, made on `machine`.
    public func bumped(_ machine: String) -> VersionVector {
        var next = counters
        next[machine, default: 0] += 1
        return VersionVector(next)
    }

    /// A change made on `machine` as its change number `counter`: a machine
    /// never numbers two changes alike (a sync killed after its push used a
    /// number this machine's state did not keep), so it takes a number above
    /// every one it may have used (`SyncMerge.Input.counter`).
    public func setting(_ machine: String, to counter: Int64) -> VersionVector {
        var next = counters
        next[machine] = max(counter, next[machine] ?? 0)
        return VersionVector(next)
    }

    /// The vector a canonical text names; nil for anything else.
    public init?(canonical text: String) {
        var counters: [String: Int64] = [:]
        for pair in text.split(separator: ",") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, let value = Int64(parts[1]), value > 0, counters[String(parts[0])] == nil else { return nil }
            counters[String(parts[0])] = value
        }
        self.init(counters)
    }

    /// A canonical text of the vector, for digests and associated data.
    public var canonical: String { counters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",") }
}
