import CCbor
import Foundation

/// The CBOR WebAuthn uses (unsigned and negative integers, byte and text
/// strings, arrays, maps), encoded and decoded by libcbor. Maps keep the
/// order given: callers write CTAP2's canonical order (shorter keys first,
/// then bytewise), as authenticators must.
public indirect enum CBOR: Sendable, Equatable {
    case unsigned(UInt64)
    /// A negative integer, as its value (-7 for ES256).
    case negative(Int64)
    case bytes([UInt8])
    case text(String)
    case array([CBOR])
    case map([(CBOR, CBOR)])
    /// CTAP2's options maps ({"up": true}) carry booleans.
    case bool(Bool)

    public static func == (a: CBOR, b: CBOR) -> Bool {
        switch (a, b) {
        case (.unsigned(let x), .unsigned(let y)): x == y
        case (.negative(let x), .negative(let y)): x == y
        case (.bytes(let x), .bytes(let y)): x == y
        case (.text(let x), .text(let y)): x == y
        case (.array(let x), .array(let y)): x == y
        case (.map(let x), .map(let y)): x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        case (.bool(let x), .bool(let y)): x == y
        default: false
        }
    }

    public static func int(_ value: Int64) -> CBOR { value >= 0 ? .unsigned(UInt64(value)) : .negative(value) }

    /// The value at an integer or text key of a map.
    public subscript(key: CBOR) -> CBOR? {
        guard case .map(let pairs) = self else { return nil }
        return pairs.first { $0.0 == key }?.1
    }

    // MARK: Encoding

    public var encoded: [UInt8] {
        let item = Self.build(self)
        defer { var owned: UnsafeMutablePointer<cbor_item_t>? = item; cbor_decref(&owned) }
        var buffer: UnsafeMutablePointer<UInt8>?
        var size = 0
        let length = cbor_serialize_alloc(item, &buffer, &size)
        defer { free(buffer) }
        precondition(length > 0 && buffer != nil, "libcbor could not serialise")
        return Array(UnsafeBufferPointer(start: buffer, count: length))
    }

    /// An integer in the fewest bytes that hold it: libcbor writes the width
    /// an item was built with, and CTAP2's canonical form (and relying
    /// parties that re-encode the COSE key to find where it ends) needs the least.
    private static func smallest(_ n: UInt64, negative: Bool) -> UnsafeMutablePointer<cbor_item_t> {
        switch n {
        case 0...0xFF: negative ? cbor_build_negint8(UInt8(n)) : cbor_build_uint8(UInt8(n))
        case 0...0xFFFF: negative ? cbor_build_negint16(UInt16(n)) : cbor_build_uint16(UInt16(n))
        case 0...0xFFFF_FFFF: negative ? cbor_build_negint32(UInt32(n)) : cbor_build_uint32(UInt32(n))
        default: negative ? cbor_build_negint64(n) : cbor_build_uint64(n)
        }
    }

    /// A libcbor item with one reference, owned by the caller.
    private static func build(_ value: CBOR) -> UnsafeMutablePointer<cbor_item_t> {
        switch value {
        case .unsigned(let n): return smallest(n, negative: false)
        case .negative(let n): return smallest(UInt64(-(n + 1)), negative: true)  // CBOR stores -1 - n
        case .bytes(let bytes): return bytes.withUnsafeBufferPointer { cbor_build_bytestring($0.baseAddress, $0.count) }
        case .text(let text):
            let utf8 = Array(text.utf8)
            return utf8.withUnsafeBufferPointer { cbor_build_stringn($0.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }, $0.count) }
        case .array(let items):
            let array = cbor_new_definite_array(items.count)!
            for item in items {
                var child: UnsafeMutablePointer<cbor_item_t>? = build(item)
                precondition(cbor_array_push(array, child!), "libcbor array")
                cbor_decref(&child)
            }
            return array
        case .map(let pairs):
            let map = cbor_new_definite_map(pairs.count)!
            for (key, value) in pairs {
                var k: UnsafeMutablePointer<cbor_item_t>? = build(key), v: UnsafeMutablePointer<cbor_item_t>? = build(value)
                precondition(cbor_map_add(map, cbor_pair(key: k, value: v)), "libcbor map")
                cbor_decref(&k)
                cbor_decref(&v)
            }
            return map
        case .bool(let flag): return cbor_build_bool(flag)
        }
    }

    // MARK: Decoding

    public struct DecodeError: Error, Equatable, CustomStringConvertible {
        public let description: String
    }

    /// One CBOR item that must fill `bytes`; `consumed` says how much of
    /// `bytes` it took when trailing bytes are allowed (authenticator data's
    /// COSE key is followed by extensions).
    public static func decode(_ bytes: [UInt8], allowTrailing: Bool = false) throws(DecodeError) -> (value: CBOR, consumed: Int) {
        // libcbor allocates what a header declares before reading the items:
        // nine bytes can ask for an array of four billion. Checked first.
        let end = try Shape.end(of: bytes, at: 0, depth: 0)
        guard allowTrailing || end == bytes.count else { throw DecodeError(description: "bytes after the CBOR item") }
        var result = cbor_load_result()
        let item = bytes.withUnsafeBufferPointer { cbor_load($0.baseAddress, end, &result) }
        guard let item, result.error.code == CBOR_ERR_NONE else { throw DecodeError(description: "not well-formed CBOR") }
        defer { var owned: UnsafeMutablePointer<cbor_item_t>? = item; cbor_decref(&owned) }
        guard allowTrailing || result.read == bytes.count else { throw DecodeError(description: "bytes after the CBOR item") }
        return (try value(of: item, depth: 0), result.read)
    }

    private static func value(of item: UnsafeMutablePointer<cbor_item_t>, depth: Int) throws(DecodeError) -> CBOR {
        guard depth < 16 else { throw DecodeError(description: "CBOR nested too deeply") }
        switch cbor_typeof(item) {
        case CBOR_TYPE_UINT: return .unsigned(cbor_get_int(item))
        case CBOR_TYPE_NEGINT:
            let n = cbor_get_int(item)
            guard n < UInt64(Int64.max) else { throw DecodeError(description: "a negative integer out of range") }
            return .negative(-1 - Int64(n))
        case CBOR_TYPE_BYTESTRING:
            guard cbor_bytestring_is_definite(item) else { throw DecodeError(description: "an indefinite byte string") }
            return .bytes(Array(UnsafeBufferPointer(start: cbor_bytestring_handle(item), count: cbor_bytestring_length(item))))
        case CBOR_TYPE_STRING:
            guard cbor_string_is_definite(item) else { throw DecodeError(description: "an indefinite text string") }
            let bytes = Array(UnsafeBufferPointer(start: cbor_string_handle(item), count: cbor_string_length(item)))
            guard let text = String(bytes: bytes, encoding: .utf8) else { throw DecodeError(description: "a text string that is not UTF-8") }
            return .text(text)
        case CBOR_TYPE_ARRAY:
            var items: [CBOR] = []
            let handle = cbor_array_handle(item)
            for index in 0..<cbor_array_size(item) { items.append(try value(of: handle![index]!, depth: depth + 1)) }
            return .array(items)
        case CBOR_TYPE_MAP:
            var pairs: [(CBOR, CBOR)] = []
            let handle = cbor_map_handle(item)
            for index in 0..<cbor_map_size(item) {
                pairs.append((try value(of: handle![index].key, depth: depth + 1), try value(of: handle![index].value, depth: depth + 1)))
            }
            return .map(pairs)
        // A simple value only (libcbor asserts on asking a float whether it is a bool).
        case CBOR_TYPE_FLOAT_CTRL where cbor_float_get_width(item) == CBOR_FLOAT_0 && cbor_is_bool(item):
            return .bool(cbor_get_bool(item))
        default:
            throw DecodeError(description: "a CBOR type WebAuthn does not use")
        }
    }

    /// A walk over the item's headers with no allocation: every declared
    /// length fits in the bytes that follow (an item takes at least one
    /// byte, a map's pair two), no indefinite lengths or tags (CTAP2's
    /// canonical CBOR has neither), at most 16 levels deep.
    enum Shape {
        static func end(of bytes: [UInt8], at start: Int, depth: Int) throws(DecodeError) -> Int {
            guard depth < 16 else { throw DecodeError(description: "CBOR nested too deeply") }
            guard start < bytes.count else { throw DecodeError(description: "not well-formed CBOR") }
            let major = bytes[start] >> 5, info = bytes[start] & 0x1F
            var index = start + 1
            var argument: UInt64 = UInt64(info)
            switch info {
            case 0..<24: break
            case 24, 25, 26, 27:
                let width = 1 << (info - 24)
                guard bytes.count - index >= width else { throw DecodeError(description: "not well-formed CBOR") }
                argument = bytes[index..<index + width].reduce(0) { $0 << 8 | UInt64($1) }
                index += width
            default:
                throw DecodeError(description: major == 7 && info == 31 ? "not well-formed CBOR" : "an indefinite length or a reserved header in CBOR")
            }
            let remaining = UInt64(bytes.count - index)
            switch major {
            case 0, 1: return index
            case 2, 3:
                guard argument <= remaining else { throw DecodeError(description: "a CBOR string longer than its input") }
                return index + Int(argument)
            case 4, 5:
                let items = major == 4 ? argument : argument.multipliedReportingOverflow(by: 2).partialValue
                guard argument <= remaining, items <= remaining else { throw DecodeError(description: "a CBOR array or map longer than its input") }
                for _ in 0..<items { index = try end(of: bytes, at: index, depth: depth + 1) }
                return index
            case 6: throw DecodeError(description: "a CBOR tag WebAuthn does not use")
            default: return index  // simple values and floats: the decoder says what it holds of them
            }
        }
    }
}
