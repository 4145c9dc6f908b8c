import CWordFloors
import CZxcvbn
import Glibc

/// The least libzxcvbn can charge for a run of a password it reads as a
/// dictionary word, forwards or backwards (see `make-word-floors.py`).
///
/// Runs are compared by their stand-in class spelling: each byte's class
/// (letters lower-cased; 0 and o one class, 1, i, l, t, 7, !, + and | one, and
/// so on for every "leet" stand-in libzxcvbn knows), so a run that libzxcvbn
/// could take for some word always has that word's spelling. The tables are
/// C data, read in place: nothing is built or copied when first used.
///
/// A run is read one class at a time (`Walk`): up to three classes from an
/// exact table that also says whether a longer word begins so, then from a
/// filter of the spellings that begin a word, so that a walk along a random
/// password stops after a few characters, and only then from the table of
/// longer words (the one lookup that may miss the cache).
enum WordFloorTable {
    /// No word in the tables is longer.
    static let longestSpelling = Int(BULWARK_WORD_FLOOR_LONGEST_SPELLING)

    /// Whether the installed libzxcvbn is the one the tables were made
    /// from: it must give the same estimates for the probe words (a few
    /// microseconds, once). Another library could hold other words, and
    /// then no floor is trusted.
    static let isUsable: Bool = {
        let probes = bulwark_word_floor_probes()!, expected = bulwark_word_floor_probe_bits()!
        return (0..<Int(BULWARK_WORD_FLOOR_PROBES)).allSatisfy { index in
            probes[index].map { ZxcvbnMatch($0, nil, nil) } == expected[index]
        }
    }()

    /// Each ASCII byte's class (callers keep to bytes below 128).
    nonisolated(unsafe) static let classes: UnsafePointer<UInt8> = bulwark_word_floor_classes()!
    nonisolated(unsafe) private static let shortSlots: UnsafePointer<UInt32> = bulwark_word_floor_short_slots()!
    nonisolated(unsafe) private static let prefixBits: UnsafePointer<UInt64> = bulwark_word_floor_prefix_bits()!
    nonisolated(unsafe) private static let slots: UnsafePointer<UInt32> = bulwark_word_floor_slots()!

    /// Gives the tables' pages back (1.4 MB): they are needed only while
    /// strengths are judged, and read-only data of the executable, so the
    /// next use reads them in again from the file (the page cache holds
    /// it). The app does this after each batch of its analysis, before the
    /// batch's report, when its memory peaks.
    static func letGo() {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let tables: [(UnsafeRawPointer, Int)] = [
            (UnsafeRawPointer(slots), (1 << Int(BULWARK_WORD_FLOOR_TABLE_BITS)) * 4),
            (UnsafeRawPointer(shortSlots), (1 << Int(BULWARK_WORD_FLOOR_SHORT_BITS)) * 4),
            (UnsafeRawPointer(prefixBits), (1 << Int(BULWARK_WORD_FLOOR_PREFIX_BITS)) / 8),
        ]
        for (start, count) in tables {
            // Only whole pages of the table: a page it shares holds other data.
            let first = (Int(bitPattern: start) + page - 1) / page * page, end = (Int(bitPattern: start) + count) / page * page
            guard end > first, let address = UnsafeMutableRawPointer(bitPattern: first) else { continue }
            _ = madvise(address, end - first, MADV_DONTNEED)
        }
    }

    /// A run being read, one class at a time.
    struct Walk {
        private var length = 0
        private var key: UInt32 = 0
        /// FNV-1a over the classes so far.
        private var hash: UInt64 = 0xCBF2_9CE4_8422_2325

        /// Adds a class to the run: the floor of the word spelt so, if any,
        /// and whether a longer word may begin so (if not, the walk is over).
        @inline(__always)
        mutating func add(_ classByte: UInt8) -> (floor: Double?, goesOn: Bool) {
            length += 1
            hash = (hash ^ UInt64(classByte)) &* 0x0000_0100_0000_01B3
            if length <= 3 {
                key |= UInt32(classByte) << UInt32(2 + 7 * (length - 1))
                guard let entry = WordFloorTable.short(key | UInt32(length)) else { return (nil, false) }
                return (entry >> 24 == 255 ? nil : Double(entry >> 24) / 8, entry & (1 << 23) != 0)
            }
            var mixed = hash ^ (hash >> 32)
            mixed = mixed &* 0x9E37_79B9_7F4A_7C15
            mixed ^= mixed >> 29
            guard WordFloorTable.mayBegin(mixed) else { return (nil, false) }
            return (WordFloorTable.long(mixed), length < WordFloorTable.longestSpelling)
        }
    }

    @inline(__always)
    private static func short(_ key: UInt32) -> UInt32? {
        let mask = (1 << Int(BULWARK_WORD_FLOOR_SHORT_BITS)) - 1
        var at = Int((key &* 0x9E37_79B1) >> UInt32(32 - BULWARK_WORD_FLOOR_SHORT_BITS))
        while true {
            let slot = shortSlots[at]
            if slot == 0 { return nil }
            if slot & 0x7F_FFFF == key { return slot }
            at = (at + 1) & mask
        }
    }

    @inline(__always)
    private static func mayBegin(_ mixed: UInt64) -> Bool {
        let mask = UInt64(1 << Int(BULWARK_WORD_FLOOR_PREFIX_BITS)) - 1
        let first = mixed & mask, second = (mixed >> UInt64(BULWARK_WORD_FLOOR_PREFIX_BITS)) & mask
        return prefixBits[Int(first >> 6)] & (1 << (first & 63)) != 0 && prefixBits[Int(second >> 6)] & (1 << (second & 63)) != 0
    }

    /// The floor in bits of the longer word whose mixed hash this is, or
    /// nil. (16 bits of the hash are kept per slot: another spelling that
    /// shares them only lowers the answer.)
    @inline(__always)
    private static func long(_ mixed: UInt64) -> Double? {
        let mask = (1 << Int(BULWARK_WORD_FLOOR_TABLE_BITS)) - 1
        // Never 0 (see make-word-floors.py): no slot in use reads as empty.
        let fingerprint = max(UInt32(truncatingIfNeeded: mixed >> 48), 1)
        var at = Int(truncatingIfNeeded: mixed) & mask
        // Robin Hood order: a slot nearer its home than we are to ours
        // means the spelling is not here.
        var distance: UInt32 = 0
        while true {
            let slot = slots[at]
            if slot == 0 || slot & 0xFF < distance { return nil }
            if slot & 0xFF == distance, slot >> 16 == fingerprint { return Double((slot >> 8) & 0xFF) / 8 }
            distance += 1
            at = (at + 1) & mask
        }
    }
}
