/// A value that carries its own key (an entry its id).
public protocol TableKeyed {
    var tableKey: String { get }
}

/// Values by the key each carries, in 64 shards as `ShardedDictionary`
/// keeps them (a copy that changes one key copies one shard), but each
/// slot holds the value and 32 bits of its key's hash, not the key: the
/// key is read back from the value when the bits agree.
///
/// The vault's entries by id were a `ShardedDictionary<String, Entry>`:
/// at 100,000 entries 64 dictionaries of 4,096 buckets of 24 bytes (the
/// 1,562 keys of a shard just past three quarters of 2,048), 6.3 MB; here
/// 2,048 slots of 16 bytes a shard, 2 MB (24 with each row's version
/// beside the entry, `VaultRows`: 3 MB for what two maps held in 11).
///
/// Open addressing with linear probing, at most 13/16 full, and removal by
/// shifting the run that follows back (no tombstones). The hash bits pick
/// the shard (the low 6) and the slot (the 32 above them), so a shard
/// grows without hashing a key again.
public struct ShardedTable<Element: TableKeyed> {
    @usableFromInline struct Slot {
        /// The key's hash bits, never 0 (0: the slot is free).
        var tag: UInt32
        var element: Element?
    }

    @usableFromInline struct Shard {
        var slots: [Slot] = []
        var count = 0
    }

    @usableFromInline var shards = [Shard](repeating: Shard(), count: 64)

    public init() {}

    public init<S: Sequence>(_ elements: S) where S.Element == Element {
        for element in elements { self[element.tableKey] = element }
    }

    public var count: Int { shards.reduce(0) { $0 + $1.count } }
    public var isEmpty: Bool { shards.allSatisfy { $0.count == 0 } }

    /// The element with this key; set to put one (its own key must be this
    /// one) or nil to take it out.
    public subscript(key: String) -> Element? {
        get {
            let (shard, tag) = Self.place(key)
            guard let slot = shards[shard].find(key, tag: tag) else { return nil }
            return shards[shard].slots[slot].element
        }
        set {
            let (shard, tag) = Self.place(key)
            if let newValue {
                precondition(newValue.tableKey == key, "an element put under a key not its own")
                shards[shard].put(newValue, key: key, tag: tag)
            } else {
                shards[shard].remove(key, tag: tag)
            }
        }
    }

    /// Every element, in no order.
    public var elements: [Element] { shards.flatMap { $0.slots.compactMap(\.element) } }

    /// Visits every element, in no order, without copying them into an array.
    public func forEachElement(_ body: (Element) throws -> Void) rethrows {
        for shard in shards {
            for slot in shard.slots { if let element = slot.element { try body(element) } }
        }
    }

    /// The shard (the hash's low 6 bits) and the tag (the 32 above, 0 made 1).
    @usableFromInline static func place(_ key: String) -> (shard: Int, tag: UInt32) {
        let hash = key.hashValue
        let tag = UInt32(truncatingIfNeeded: hash >> 6)
        return (hash & 63, tag == 0 ? 1 : tag)
    }
}

extension ShardedTable.Shard {
    /// The slot holding `key`, or nil.
    func find(_ key: String, tag: UInt32) -> Int? {
        guard !slots.isEmpty else { return nil }
        let mask = slots.count - 1
        var slot = Int(tag) & mask
        while slots[slot].tag != 0 {
            if slots[slot].tag == tag, slots[slot].element?.tableKey == key { return slot }
            slot = (slot + 1) & mask
        }
        return nil
    }

    mutating func put(_ element: Element, key: String, tag: UInt32) {
        if let slot = find(key, tag: tag) {
            slots[slot].element = element
            return
        }
        if (count + 1) * 16 > slots.count * 13 { grow() }
        insertNew(ShardedTable.Slot(tag: tag, element: element))
        count += 1
    }

    mutating func remove(_ key: String, tag: UInt32) {
        guard var hole = find(key, tag: tag) else { return }
        let mask = slots.count - 1
        // Each later member of the run whose home is not in the hole's wake
        // moves back into it.
        var next = (hole + 1) & mask
        while slots[next].tag != 0 {
            let home = Int(slots[next].tag) & mask
            let homeIsAfterHole = hole <= next ? (hole < home && home <= next) : (hole < home || home <= next)
            if !homeIsAfterHole {
                slots[hole] = slots[next]
                hole = next
            }
            next = (next + 1) & mask
        }
        slots[hole] = ShardedTable.Slot(tag: 0, element: nil)
        count -= 1
    }

    private mutating func insertNew(_ new: ShardedTable.Slot) {
        let mask = slots.count - 1
        var slot = Int(new.tag) & mask
        while slots[slot].tag != 0 { slot = (slot + 1) & mask }
        slots[slot] = new
    }

    /// Twice the slots (16 to start), every element placed again by its tag.
    private mutating func grow() {
        let old = slots
        slots = [ShardedTable.Slot](repeating: ShardedTable.Slot(tag: 0, element: nil), count: max(16, old.count * 2))
        for slot in old where slot.tag != 0 { insertNew(slot) }
    }
}

extension ShardedTable: @unchecked Sendable where Element: Sendable {}
