/// Positions in an array by the id each element holds: a hash table of
/// positions alone (four bytes a slot), the ids read back from the array
/// through `idAt`. The analyzer's records carry their ids already; a
/// `[String: Int]` of 100,000 of them took 262,144 slots of 24 bytes
/// (6.3 MB), this takes 1 MB.
///
/// Open addressing with linear probing, at most half full, and removal by
/// shifting the run that follows back (no tombstones). The caller keeps
/// the array and the index in step: an id is set before or after its
/// element is appended, and removed while its element is still there.
struct PositionIndex {
    private var slots: [Int32] = []
    private(set) var count = 0
    private static let empty: Int32 = -1

    init() {}

    /// Room for `count` ids without growing.
    mutating func reserve(_ count: Int, idAt: (Int) -> String) {
        if count * 2 > slots.count { rehash(capacity: Self.capacity(for: count), idAt: idAt) }
    }

    func position(of id: String, idAt: (Int) -> String) -> Int? {
        guard !slots.isEmpty else { return nil }
        let mask = slots.count - 1
        var slot = id.hashValue & mask
        while true {
            let found = slots[slot]
            if found == Self.empty { return nil }
            if idAt(Int(found)) == id { return Int(found) }
            slot = (slot + 1) & mask
        }
    }

    /// Puts `id` at `position`, or moves it there when it is already in.
    /// When it is new, `idAt` is not asked for `position` itself.
    mutating func set(_ id: String, to position: Int, idAt: (Int) -> String) {
        precondition(position >= 0 && position < Int(Int32.max), "a position out of the index's range")
        if (count + 1) * 2 > slots.count { rehash(capacity: Self.capacity(for: count + 1), idAt: idAt) }
        let mask = slots.count - 1
        var slot = id.hashValue & mask
        while slots[slot] != Self.empty {
            if idAt(Int(slots[slot])) == id {
                slots[slot] = Int32(position)
                return
            }
            slot = (slot + 1) & mask
        }
        slots[slot] = Int32(position)
        count += 1
    }

    /// Takes `id` out (nothing when it is not in).
    mutating func remove(_ id: String, idAt: (Int) -> String) {
        guard !slots.isEmpty else { return }
        let mask = slots.count - 1
        var hole = id.hashValue & mask
        while true {
            if slots[hole] == Self.empty { return }
            if idAt(Int(slots[hole])) == id { break }
            hole = (hole + 1) & mask
        }
        // Each later member of the run that may not sit past the hole (its
        // home is not in the hole's wake) moves back into it.
        var next = (hole + 1) & mask
        while slots[next] != Self.empty {
            let home = idAt(Int(slots[next])).hashValue & mask
            let homeIsAfterHole = hole <= next ? (hole < home && home <= next) : (hole < home || home <= next)
            if !homeIsAfterHole {
                slots[hole] = slots[next]
                hole = next
            }
            next = (next + 1) & mask
        }
        slots[hole] = Self.empty
        count -= 1
    }

    /// Every position held, in no order.
    var positions: [Int] { slots.compactMap { $0 == Self.empty ? nil : Int($0) } }

    mutating func removeAll() {
        slots = []
        count = 0
    }

    private static func capacity(for count: Int) -> Int {
        var capacity = 16
        while capacity < count * 2 { capacity *= 2 }
        return capacity
    }

    private mutating func rehash(capacity: Int, idAt: (Int) -> String) {
        let old = slots
        slots = [Int32](repeating: Self.empty, count: capacity)
        let mask = capacity - 1
        for position in old where position != Self.empty {
            var slot = idAt(Int(position)).hashValue & mask
            while slots[slot] != Self.empty { slot = (slot + 1) & mask }
            slots[slot] = position
        }
    }
}
