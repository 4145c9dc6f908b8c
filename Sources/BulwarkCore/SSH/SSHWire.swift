import Foundation

/// The SSH wire encoding (RFC 4251 §5): big-endian uint32, length-prefixed
/// strings, and mpints (two's complement, minimal, a zero byte before a
/// high bit).
struct SSHWriter {
    private(set) var bytes: [UInt8] = []

    mutating func uint32(_ value: UInt32) { bytes += withUnsafeBytes(of: value.bigEndian, Array.init) }
    mutating func byte(_ value: UInt8) { bytes.append(value) }
    mutating func string(_ value: [UInt8]) {
        uint32(UInt32(value.count))
        bytes += value
    }
    mutating func string(_ value: String) { string(Array(value.utf8)) }
    /// A non-negative integer from its big-endian magnitude.
    mutating func mpint(_ magnitude: [UInt8]) {
        let trimmed = Array(magnitude.drop { $0 == 0 })
        string(trimmed.first.map { $0 & 0x80 != 0 } == true ? [0] + trimmed : trimmed)
    }
}

/// Reads the SSH wire encoding; every read is bounded by what is left (nil past the end).
struct SSHReader {
    private let bytes: [UInt8]
    private(set) var at = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { at == bytes.count }

    mutating func byte() -> UInt8? {
        guard at < bytes.count else { return nil }
        defer { at += 1 }
        return bytes[at]
    }

    mutating func uint32() -> UInt32? {
        guard bytes.count - at >= 4 else { return nil }
        defer { at += 4 }
        return bytes[at..<at + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }

    mutating func string() -> [UInt8]? {
        guard let length = uint32(), Int(length) <= bytes.count - at else { return nil }
        defer { at += Int(length) }
        return Array(bytes[at..<at + Int(length)])
    }

    mutating func text() -> String? { string().flatMap { String(validating: $0, as: UTF8.self) } }

    /// An mpint's magnitude (a negative one is refused).
    mutating func mpint() -> [UInt8]? {
        guard let value = string(), value.first.map({ $0 & 0x80 == 0 }) ?? true else { return nil }
        return Array(value.drop { $0 == 0 })
    }
}
