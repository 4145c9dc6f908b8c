/// A dictionary in 64 shards by the key's hash, so that a copy that
/// changes one key copies one shard: the app's snapshot is held by the
/// screen while the session makes the next one, and copying a 100,000-key
/// dictionary to change one key cost more than a frame.
public struct ShardedDictionary<Key: Hashable, Value> {
    @usableFromInline var shards = [[Key: Value]](repeating: [:], count: 64)

    @inlinable public init() {}

    @inlinable public init<S: Sequence>(_ pairs: S) where S.Element == (Key, Value) {
        for (key, value) in pairs { self[key] = value }
    }

    @inlinable static func shard(_ key: Key) -> Int { key.hashValue & 63 }

    @inlinable public subscript(key: Key) -> Value? {
        get { shards[Self.shard(key)][key] }
        set { shards[Self.shard(key)][key] = newValue }
    }

    @inlinable public var count: Int { shards.reduce(0) { $0 + $1.count } }
    @inlinable public var isEmpty: Bool { shards.allSatisfy(\.isEmpty) }
    @inlinable public var keys: [Key] { shards.flatMap(\.keys) }
}

extension ShardedDictionary: Equatable where Value: Equatable {
    @inlinable public static func == (a: ShardedDictionary, b: ShardedDictionary) -> Bool { a.shards == b.shards }
}

extension ShardedDictionary: @unchecked Sendable where Key: Sendable, Value: Sendable {}
