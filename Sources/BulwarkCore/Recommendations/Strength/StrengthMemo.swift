/// Strength estimates kept from earlier analyses.
///
/// zxcvbn costs 20 to 50 µs a password, most of a full analysis; an estimate
/// depends only on the password, the account's words and the meter, so a
/// vault opened again need not pay it for passwords it has already judged.
/// The memo is kept sealed in the vault (a note, see `Vault.noteBytes`), and
/// only for the passwords in use: a changed password's estimate is dropped
/// at the next save. Entries are keyed by a SHA-256 of the meter's
/// fingerprint, the password and the account words; the fingerprint is the
/// meter's answers on a few probes, so a different libzxcvbn (or a change to
/// how bulwark names patterns) makes every old entry miss.
public struct StrengthMemo: Sendable, Equatable {
    struct Key: Hashable, Sendable {
        let high: UInt64, low: UInt64
    }

    private(set) var estimates: [Key: Strength] = [:]

    public init() {}

    public var count: Int { estimates.count }

    static func key(password: String, accountWords: [String]) -> Key {
        // Each part length-prefixed: no password (a NUL in it included) and
        // words can spell another password and words.
        var input = fingerprint
        func append(_ text: String) {
            let count = UInt32(text.utf8.count)
            input += [UInt8(count >> 24), UInt8((count >> 16) & 0xFF), UInt8((count >> 8) & 0xFF), UInt8(count & 0xFF)]
            input += text.utf8
        }
        append(password)
        accountWords.forEach(append)
        let digest = Digest.sha256(input)
        func word(_ range: Range<Int>) -> UInt64 { digest[range].reduce(0) { $0 << 8 | UInt64($1) } }
        return Key(high: word(0..<8), low: word(8..<16))
    }

    subscript(key: Key) -> Strength? {
        get { estimates[key] }
        set { estimates[key] = newValue }
    }

    /// The remembered strength when it serves an analysis whose weak line
    /// is `weakBelow`: an estimate always, a floor only when it clears the
    /// line (a floor kept under a lower line says nothing at this one).
    func strength(_ key: Key, weakBelow: Double) -> Strength? {
        guard let strength = estimates[key] else { return nil }
        return !strength.isFloor || strength.bits >= weakBelow + StrengthFloor.margin ? strength : nil
    }

    /// Bumped when bulwark's reading of zxcvbn's answer changes, or how a
    /// floor is worked out (a remembered floor is trusted as made).
    private static let meterRevision = "bulwark-strength/1"
    private static let probes = ["password1", "Tr0ub4dor&3", "qwerty2019", "jane.doe1985", "cytxup-Gyszi6-vozzab"]

    /// The meter's revision and its answers on the probes (about 0.1 ms, once).
    static let fingerprint: [UInt8] = {
        var text = meterRevision
        for probe in probes {
            let strength = StrengthMeter.measure(probe, accountWords: ["jane"])
            text += "|\(strength.bits.bitPattern)|\(strength.pattern?.rawValue ?? "-")"
        }
        return Array(text.utf8) + [0]
    }()

    // MARK: Encoding

    private static let magic = Array("BSM1".utf8)
    private static let recordSize = 16 + 8 + 1
    private static let patterns = WeakPattern.allCases
    private static let floorMark: UInt8 = 255

    /// `BSM1`, then per estimate: the key (16 bytes), the bits (IEEE 754,
    /// little-endian) and the pattern (0 for none, else 1 + its index in
    /// `WeakPattern.allCases`; 255 for a floor, see `StrengthFloor`),
    /// ordered by key so equal memos encode equally. (A memo with floors is
    /// refused by a bulwark from before them, which measures again.)
    public func encoded() -> [UInt8] {
        var out = Self.magic
        out.reserveCapacity(Self.magic.count + estimates.count * Self.recordSize)
        func append(_ value: UInt64, bigEndian: Bool) {
            for shift in stride(from: 0, to: 64, by: 8) {
                out.append(UInt8(truncatingIfNeeded: value >> (bigEndian ? UInt64(56 - shift) : UInt64(shift))))
            }
        }
        for (key, strength) in estimates.sorted(by: { ($0.key.high, $0.key.low) < ($1.key.high, $1.key.low) }) {
            append(key.high, bigEndian: true)
            append(key.low, bigEndian: true)
            append(strength.bits.bitPattern, bigEndian: false)
            out.append(strength.isFloor ? Self.floorMark
                       : strength.pattern.flatMap { pattern in Self.patterns.firstIndex(of: pattern).map { UInt8($0 + 1) } } ?? 0)
        }
        return out
    }

    /// Nil for anything that is not a memo this version wrote: a memo is
    /// only a cache, so a damaged one is dropped, never half-trusted.
    public init?(decoding bytes: [UInt8]) {
        let body = bytes.count - Self.magic.count
        guard body >= 0, Array(bytes.prefix(Self.magic.count)) == Self.magic, body % Self.recordSize == 0 else { return nil }
        estimates.reserveCapacity(body / Self.recordSize)
        var failed = false
        bytes.withUnsafeBufferPointer { buffer in
            var at = Self.magic.count
            func read(bigEndian: Bool) -> UInt64 {
                defer { at += 8 }
                return (0..<8).reduce(UInt64(0)) { value, i in
                    bigEndian ? value << 8 | UInt64(buffer[at + i]) : value | UInt64(buffer[at + i]) << UInt64(8 * i)
                }
            }
            while at < buffer.count {
                let key = Key(high: read(bigEndian: true), low: read(bigEndian: true))
                let bits = Double(bitPattern: read(bigEndian: false))
                let index = Int(buffer[at])
                at += 1
                let isFloor = index == Int(Self.floorMark)
                guard bits.isFinite, bits >= 0, index <= Self.patterns.count || isFloor, estimates[key] == nil else { failed = true; return }
                estimates[key] = isFloor ? Strength(bits: bits, pattern: nil, isFloor: true)
                    : Strength(bits: bits, pattern: index == 0 ? nil : Self.patterns[index - 1])
            }
        }
        if failed { return nil }
    }
}
