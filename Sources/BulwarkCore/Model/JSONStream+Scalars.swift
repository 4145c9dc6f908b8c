import Foundation

// The scalars of `JSONStream`: strings (a member's name kept and given
// again), their escapes, and numbers.
extension JSONStream {
    /// A member's name: an export repeats a few dozen names millions of
    /// times, so the last String made for each length and first byte is
    /// kept and given again when the bytes are the same (no UTF-8 checked,
    /// nothing allocated).
    mutating func name() throws -> String {
        let start = at + 1
        var end = start
        while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\"), bytes[end] >= 0x20 { end += 1 }
        guard end < bytes.count, bytes[end] == UInt8(ascii: "\""), end - start <= 24, end > start, !keptNames.isEmpty else { return try string() }
        let slot = ((end - start) &* 31 &+ Int(bytes[start])) & (Self.namesKept - 1)
        let seen = UnsafeBufferPointer(rebasing: bytes[start..<end])
        if let kept = keptNames[slot], kept.bytes.count == seen.count, kept.bytes.withUnsafeBufferPointer({ memcmp($0.baseAddress!, seen.baseAddress!, seen.count) == 0 }) {
            at = end + 1
            return kept.name
        }
        let made = try string()
        keptNames[slot] = (Array(seen), made)
        return made
    }

    static let namesKept = 256

    /// A string's text from its bytes, quotes included (`JSONTape`'s strings with escapes).
    static func string(_ quoted: UnsafeBufferPointer<UInt8>) throws -> String {
        var reader = JSONStream(bytes: quoted, streamed: [], each: nil, building: false)
        return try reader.string()
    }

    mutating func string() throws -> String {
        at += 1
        let start = at
        // The common case: no escapes, read in place.
        while at < bytes.count {
            let byte = bytes[at]
            if byte == UInt8(ascii: "\"") {
                let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<at]), as: UTF8.self)
                at += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            guard byte >= 0x20 else { throw fail("a control character inside a string") }
            at += 1
        }
        var out = Array(bytes[start..<at])
        while at < bytes.count {
            let byte = bytes[at]
            if byte == UInt8(ascii: "\"") {
                at += 1
                return String(decoding: out, as: UTF8.self)
            }
            guard byte >= 0x20 else { throw fail("a control character inside a string") }
            if byte != UInt8(ascii: "\\") {
                out.append(byte)
                at += 1
                continue
            }
            guard at + 1 < bytes.count else { break }
            at += 2
            switch bytes[at - 1] {
            case UInt8(ascii: "\""): out.append(0x22)
            case UInt8(ascii: "\\"): out.append(0x5C)
            case UInt8(ascii: "/"): out.append(0x2F)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if (0xD800...0xDBFF).contains(scalar), at + 1 < bytes.count, bytes[at] == UInt8(ascii: "\\"), bytes[at + 1] == UInt8(ascii: "u") {
                    at += 2
                    let low = try hex4()
                    if (0xDC00...0xDFFF).contains(low) { scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00) } else { at -= 6 }
                }
                // A lone surrogate is no character: U+FFFD, as a decoder of invalid UTF-8 gives.
                let character = Unicode.Scalar(scalar) ?? "\u{FFFD}"
                out.append(contentsOf: Array(String(Character(character)).utf8))
            default: throw fail("an unknown escape in a string")
            }
        }
        throw fail("a string is not closed")
    }

    mutating func hex4() throws -> UInt32 {
        guard at + 4 <= bytes.count else { throw fail("a \\u escape is cut short") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[at]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw fail("a \\u escape that is not four hex digits")
            }
            value = value << 4 | UInt32(digit)
            at += 1
        }
        return value
    }

    /// A number's syntax checked, its value not made (a tape's token is
    /// read when asked for): RFC 8259's grammar, as `number` reads it.
    mutating func skipNumber() throws {
        if at < bytes.count, bytes[at] == UInt8(ascii: "-") { at += 1 }
        func digits() -> Int {
            let from = at
            while at < bytes.count, bytes[at] &- UInt8(ascii: "0") < 10 { at += 1 }
            return at - from
        }
        let whole = digits()
        guard whole > 0 else { throw fail("not a JSON value") }
        if whole > 1, bytes[at - whole] == UInt8(ascii: "0") { throw fail("a number with a leading zero") }
        if at < bytes.count, bytes[at] == UInt8(ascii: ".") {
            at += 1
            guard digits() > 0 else { throw fail("a number with no digits after its point") }
        }
        if at < bytes.count, bytes[at] == UInt8(ascii: "e") || bytes[at] == UInt8(ascii: "E") {
            at += 1
            if at < bytes.count, bytes[at] == UInt8(ascii: "+") || bytes[at] == UInt8(ascii: "-") { at += 1 }
            guard digits() > 0 else { throw fail("a number with no digits in its exponent") }
        }
    }

    mutating func number() throws -> Any {
        // The common case, a plain integer of up to 18 digits, without a String made.
        var scan = at, negative = false, integer = 0
        if scan < bytes.count, bytes[scan] == UInt8(ascii: "-") { negative = true; scan += 1 }
        let first = scan
        while scan < bytes.count, scan - first < 18, bytes[scan] &- UInt8(ascii: "0") < 10 {
            integer = integer * 10 + Int(bytes[scan] &- UInt8(ascii: "0"))
            scan += 1
        }
        let ended = scan == bytes.count || !(bytes[scan] &- UInt8(ascii: "0") < 10 || bytes[scan] == UInt8(ascii: ".")
                                             || bytes[scan] == UInt8(ascii: "e") || bytes[scan] == UInt8(ascii: "E"))
        if scan > first, ended, scan - first == 1 || bytes[first] != UInt8(ascii: "0") {
            at = scan
            return negative ? -integer : integer
        }
        let start = at
        try skipNumber()
        let integral = !bytes[start..<at].contains { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<at]), as: UTF8.self)
        if integral, let int = Int(text) { return int }
        guard let double = Double(text) else { throw fail("a number out of range") }
        return double
    }
}
