/// A set of ASCII printable characters (space to `~`, 95 of them) as a bit
/// set: what passwordrules classes denote, and what canonicalisation works on.
public struct PrintableSet: Sendable, Hashable {
    private var low: UInt64 = 0   // space (0x20) ... 0x5F
    private var high: UInt64 = 0  // 0x60 ... `~` (0x7E)

    public init() {}

    public init<S: Sequence>(_ characters: S) where S.Element == Character {
        for c in characters { insert(c) }
    }

    public init(range: ClosedRange<UInt8>) {
        for byte in range { insert(byte) }
    }

    public static let upper = PrintableSet(range: 0x41...0x5A)
    public static let lower = PrintableSet(range: 0x61...0x7A)
    public static let digit = PrintableSet(range: 0x30...0x39)
    /// Space to `/`, `:` to `@`, `[` to backquote, `{` to `~`.
    public static let special: PrintableSet = {
        var set = PrintableSet(range: 0x20...0x2F)
        set.formUnion(PrintableSet(range: 0x3A...0x40))
        set.formUnion(PrintableSet(range: 0x5B...0x60))
        set.formUnion(PrintableSet(range: 0x7B...0x7E))
        return set
    }()
    public static let all = PrintableSet(range: 0x20...0x7E)

    public static func isPrintable(_ byte: UInt8) -> Bool { byte >= 0x20 && byte <= 0x7E }

    public mutating func insert(_ byte: UInt8) {
        guard Self.isPrintable(byte) else { return }
        let index = Int(byte) - 0x20
        if index < 64 { low |= 1 << UInt64(index) } else { high |= 1 << UInt64(index - 64) }
    }

    public mutating func insert(_ character: Character) {
        if let byte = character.asciiValue { insert(byte) }
    }

    public func contains(_ byte: UInt8) -> Bool {
        guard Self.isPrintable(byte) else { return false }
        let index = Int(byte) - 0x20
        return index < 64 ? low & (1 << UInt64(index)) != 0 : high & (1 << UInt64(index - 64)) != 0
    }

    public func contains(_ character: Character) -> Bool {
        character.asciiValue.map(contains) ?? false
    }

    public mutating func formUnion(_ other: PrintableSet) {
        low |= other.low
        high |= other.high
    }

    public func union(_ other: PrintableSet) -> PrintableSet {
        var copy = self
        copy.formUnion(other)
        return copy
    }

    public func subtracting(_ other: PrintableSet) -> PrintableSet {
        var copy = self
        copy.low &= ~other.low
        copy.high &= ~other.high
        return copy
    }

    public func isSuperset(of other: PrintableSet) -> Bool { other.subtracting(self).isEmpty }
    public func intersects(_ other: PrintableSet) -> Bool { !(low & other.low == 0 && high & other.high == 0) }

    public var count: Int { low.nonzeroBitCount + high.nonzeroBitCount }
    public var isEmpty: Bool { low == 0 && high == 0 }

    /// The members in code-point order.
    public var bytes: [UInt8] { (0x20...0x7E).filter(contains) }
}
