import Foundation

/// The byte layout of structured fields before they are sealed: a list of
/// length-prefixed UTF-8 strings. Much faster than JSON for 100k entries,
/// and decoding never trusts a length (a damaged field reads as nil).
enum FieldCoding {
    static func encode(_ strings: [String]) -> [UInt8] { encode(parts: strings.map { Array($0.utf8) }) }

    static func decode(_ bytes: ArraySlice<UInt8>) -> [String]? {
        var out: [String] = []
        return split(bytes, { out.append(String(decoding: $0, as: UTF8.self)) }) ? out : nil
    }

    /// A list of byte strings, length-prefixed (an entry's fields in one box).
    static func encode(parts: [[UInt8]]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(parts.reduce(0) { $0 + $1.count + 4 })
        for part in parts {
            let n = UInt32(part.count)
            out += [UInt8(n & 0xFF), UInt8((n >> 8) & 0xFF), UInt8((n >> 16) & 0xFF), UInt8(n >> 24)]
            out += part
        }
        return out
    }

    /// Slices of the one plaintext buffer: no copy per field.
    static func decode(parts bytes: [UInt8]) -> [ArraySlice<UInt8>]? {
        var out: [ArraySlice<UInt8>] = []
        out.reserveCapacity(16)
        return split(bytes[...], { out.append($0) }) ? out : nil
    }

    /// Walks the length-prefixed parts; false when a length runs past the end.
    private static func split(_ bytes: ArraySlice<UInt8>, _ each: (ArraySlice<UInt8>) -> Void) -> Bool {
        var i = bytes.startIndex
        while i < bytes.endIndex {
            guard i + 4 <= bytes.endIndex else { return false }
            let n = Int(bytes[i]) | Int(bytes[i + 1]) << 8 | Int(bytes[i + 2]) << 16 | Int(bytes[i + 3]) << 24
            i += 4
            guard n >= 0, i + n <= bytes.endIndex else { return false }
            each(bytes[i..<(i + n)])
            i += n
        }
        return true
    }

    /// An optional string: a marker byte, then the text.
    static func encodeOptional(_ string: String?) -> [UInt8] { string.map { [1] + Array($0.utf8) } ?? [0] }

    static func decodeOptional(_ bytes: ArraySlice<UInt8>) -> String?? {
        guard let marker = bytes.first else { return .none }
        switch marker {
        case 0 where bytes.count == 1: return .some(nil)
        case 1: return .some(String(decoding: bytes.dropFirst(), as: UTF8.self))
        default: return .none
        }
    }

    static func date(_ date: Date) -> String { String(date.timeIntervalSinceReferenceDate) }
    static func date(_ text: String) -> Date? { Double(text).map(Date.init(timeIntervalSinceReferenceDate:)) }
}
