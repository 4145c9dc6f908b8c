import Foundation

/// A JSON reader for large exports: native Swift values (`JSONObject`,
/// `[Any]`, `String`, `Int`, `Double`, `Bool`, `NSNull`) straight from the
/// bytes, and the elements of the arrays at the paths asked for handed
/// over one at a time instead of kept, so a 100,000-item export is never
/// held as one tree of objects (Foundation's `JSONSerialization` took 8 s
/// and 1.7 GB for one of 74 MB). RFC 8259: strict syntax, escapes and
/// surrogate pairs, a depth limit against hostile nesting.
public struct JSONStream {
    public struct Failure: Error, Equatable {
        public let offset: Int
        public let message: String
    }

    /// An array to stream: the keys from the root, `*` for any element of an array.
    public typealias Path = [String]

    private let bytes: UnsafeBufferPointer<UInt8>
    private var at = 0
    /// Where the reader is, as far down as a streamed path reaches (no deeper: it is not needed there).
    private var path: [String] = []
    private var depth = 0
    private let tracked: Int
    private let streamed: [Path]
    private let each: ((Path, Any) throws -> Void)?
    /// Where an object's names and values and an array's elements are
    /// gathered until it closes (nested ones above, gone before their parent's next).
    private let names = MoveStack<String>()
    private let values = MoveStack<Any>()
    private var keptNames = [(bytes: [UInt8], name: String)?](repeating: nil, count: JSONStream.namesKept)
    static let maximumDepth = 256

    /// Parses `data`; each element of an array at one of `streamed` goes to
    /// `each` (with the path it was found at) and is left out of the value returned.
    public static func parse(_ data: Data, streaming streamed: [Path] = [], each: @escaping (Path, Any) throws -> Void = { _, _ in }) throws -> Any {
        try parse(data, streamed: streamed, each: each)
    }

    /// The document with the arrays at `skipped` read for their syntax only
    /// (nothing built: a first look at a large export's other members).
    public static func parse(_ data: Data, skipping skipped: [Path]) throws -> Any {
        try parse(data, streamed: skipped, each: nil)
    }

    private static func parse(_ data: Data, streamed: [Path], each: ((Path, Any) throws -> Void)?) throws -> Any {
        try data.withUnsafeBytes { raw in
            var reader = JSONStream(bytes: raw.bindMemory(to: UInt8.self), streamed: streamed, each: each)
            if raw.starts(with: [0xEF, 0xBB, 0xBF]) { reader.at = 3 }  // a UTF-8 byte-order mark, as some Windows exporters write
            reader.skipSpace()
            let value = try reader.value()
            reader.skipSpace()
            guard reader.at == reader.bytes.count else { throw reader.fail("unexpected text after the document") }
            return value
        }
    }

    private init(bytes: UnsafeBufferPointer<UInt8>, streamed: [Path], each: ((Path, Any) throws -> Void)?) {
        self.bytes = bytes
        self.streamed = streamed
        self.each = each
        tracked = streamed.map(\.count).max() ?? 0
    }

    private func fail(_ message: String) -> Failure { Failure(offset: at, message: message) }

    private mutating func skipSpace() {
        guard at < bytes.count, bytes[at] <= 0x20 else { return }
        // Exporters indent: most of a pretty-printed document's bytes are runs of spaces, passed eight at a time.
        let base = UnsafeRawPointer(bytes.baseAddress!)
        while true {
            while at + 8 <= bytes.count, base.loadUnaligned(fromByteOffset: at, as: UInt64.self) == 0x2020_2020_2020_2020 { at += 8 }
            guard at < bytes.count else { return }
            let byte = bytes[at]
            guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { return }
            at += 1
        }
    }

    private mutating func value() throws -> Any {
        guard at < bytes.count else { throw fail("the document ends early") }
        switch bytes[at] {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return try string()
        case UInt8(ascii: "t"): try literal(Self.trueWord); return true
        case UInt8(ascii: "f"): try literal(Self.falseWord); return false
        case UInt8(ascii: "n"): try literal(Self.nullWord); return Self.null
        default: return try number()
        }
    }

    // Made once: a literal is most of an export's values, and each one's own array and NSNull showed in profiles.
    private static let trueWord = Array("true".utf8), falseWord = Array("false".utf8), nullWord = Array("null".utf8)
    nonisolated(unsafe) private static let null: Any = NSNull()

    private mutating func literal(_ letters: [UInt8]) throws {
        guard at + letters.count <= bytes.count else { throw fail("not a JSON value") }
        for index in letters.indices where bytes[at + index] != letters[index] { throw fail("not a JSON value") }
        at += letters.count
    }

    private mutating func object() throws -> Any {
        guard depth < Self.maximumDepth else { throw fail("nested more than \(Self.maximumDepth) deep") }
        at += 1
        // The path is kept while it is whole and may still lead to a streamed array.
        let tracking = path.count == depth && path.count < tracked
        depth += 1
        defer { depth -= 1 }
        skipSpace()
        if at < bytes.count, bytes[at] == UInt8(ascii: "}") { at += 1; return JSONObject() }
        let namesBase = names.count, valuesBase = values.count
        var closed = false
        defer { if !closed { names.drop(from: namesBase); values.drop(from: valuesBase) } }
        while true {
            skipSpace()
            guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") else { throw fail("expected a member's name") }
            let key = try name()
            skipSpace()
            guard at < bytes.count, bytes[at] == UInt8(ascii: ":") else { throw fail("expected : after a member's name") }
            at += 1
            skipSpace()
            if tracking { path.append(key) }
            let member = try value()
            names.push(key)
            values.push(member)
            if tracking { path.removeLast() }
            skipSpace()
            guard at < bytes.count else { throw fail("the document ends early") }
            if bytes[at] == UInt8(ascii: ",") { at += 1; continue }
            guard bytes[at] == UInt8(ascii: "}") else { throw fail("expected , or } in an object") }
            at += 1
            closed = true
            return JSONObject(keys: names.pop(from: namesBase), values: values.pop(from: valuesBase))
        }
    }

    private func isStreamed(_ path: [String]) -> Bool {
        streamed.contains { wanted in
            wanted.count == path.count && zip(wanted, path).allSatisfy { $0 == "*" || $0 == $1 }
        }
    }

    private mutating func array() throws -> Any {
        guard depth < Self.maximumDepth else { throw fail("nested more than \(Self.maximumDepth) deep") }
        at += 1
        let streaming = path.count == depth && isStreamed(path)
        let tracking = path.count == depth && path.count < tracked
        depth += 1
        defer { depth -= 1 }
        skipSpace()
        if at < bytes.count, bytes[at] == UInt8(ascii: "]") { at += 1; return [Any]() }
        let base = values.count
        var closed = false
        defer { if !closed { values.drop(from: base) } }
        var index = 0
        while true {
            skipSpace()
            if streaming, each == nil {
                try skip()
            } else {
                if tracking { path.append(String(index)) }
                let element = try value()
                if tracking { path.removeLast() }
                if streaming { try each?(path, element) } else { values.push(element) }
            }
            index += 1
            // A streamed element is never looked at again: a mapped file's pages behind it are given back.
            if streaming, let base = bytes.baseAddress { MappedExport.passed(base + at) }
            skipSpace()
            guard at < bytes.count else { throw fail("the document ends early") }
            if bytes[at] == UInt8(ascii: ",") { at += 1; continue }
            guard bytes[at] == UInt8(ascii: "]") else { throw fail("expected , or ] in an array") }
            at += 1
            closed = true
            return values.pop(from: base)
        }
    }

    /// A value read for its syntax only.
    private mutating func skip() throws {
        guard at < bytes.count else { throw fail("the document ends early") }
        switch bytes[at] {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            let closing = bytes[at] == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
            let isObject = closing == UInt8(ascii: "}")
            guard depth < Self.maximumDepth else { throw fail("nested more than \(Self.maximumDepth) deep") }
            depth += 1
            defer { depth -= 1 }
            at += 1
            skipSpace()
            if at < bytes.count, bytes[at] == closing { at += 1; return }
            while true {
                skipSpace()
                if isObject {
                    guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") else { throw fail("expected a member's name") }
                    try skipString()
                    skipSpace()
                    guard at < bytes.count, bytes[at] == UInt8(ascii: ":") else { throw fail("expected : after a member's name") }
                    at += 1
                    skipSpace()
                }
                try skip()
                skipSpace()
                guard at < bytes.count else { throw fail("the document ends early") }
                if bytes[at] == UInt8(ascii: ",") { at += 1; continue }
                guard bytes[at] == closing else { throw fail(isObject ? "expected , or } in an object" : "expected , or ] in an array") }
                at += 1
                return
            }
        case UInt8(ascii: "\""): try skipString()
        case UInt8(ascii: "t"): try literal(Self.trueWord)
        case UInt8(ascii: "f"): try literal(Self.falseWord)
        case UInt8(ascii: "n"): try literal(Self.nullWord)
        default: _ = try number()  // read for its syntax: nothing to keep
        }
    }

    private mutating func skipString() throws {
        at += 1
        while at < bytes.count {
            let byte = bytes[at]
            if byte == UInt8(ascii: "\"") { at += 1; return }
            guard byte >= 0x20 else { throw fail("a control character inside a string") }
            if byte == UInt8(ascii: "\\") {
                guard at + 1 < bytes.count else { break }
                switch bytes[at + 1] {
                case UInt8(ascii: "u"):
                    at += 2
                    _ = try hex4()
                    continue
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"), UInt8(ascii: "n"),
                     UInt8(ascii: "r"), UInt8(ascii: "t"):
                    at += 2
                    continue
                default: throw fail("an unknown escape in a string")
                }
            }
            at += 1
        }
        throw fail("a string is not closed")
    }

    /// A member's name: an export repeats a few dozen names millions of
    /// times, so the last String made for each length and first byte is
    /// kept and given again when the bytes are the same (no UTF-8 checked,
    /// nothing allocated).
    private mutating func name() throws -> String {
        let start = at + 1
        var end = start
        while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\"), bytes[end] >= 0x20 { end += 1 }
        guard end < bytes.count, bytes[end] == UInt8(ascii: "\""), end - start <= 24, end > start else { return try string() }
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

    private mutating func string() throws -> String {
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

    private mutating func hex4() throws -> UInt32 {
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

    private mutating func number() throws -> Any {
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
        if at < bytes.count, bytes[at] == UInt8(ascii: "-") { at += 1 }
        var integral = true
        func digits() -> Int {
            let from = at
            while at < bytes.count, bytes[at] >= UInt8(ascii: "0"), bytes[at] <= UInt8(ascii: "9") { at += 1 }
            return at - from
        }
        let whole = digits()
        guard whole > 0 else { throw fail("not a JSON value") }
        if whole > 1, bytes[at - whole] == UInt8(ascii: "0") { throw fail("a number with a leading zero") }
        if at < bytes.count, bytes[at] == UInt8(ascii: ".") {
            at += 1
            integral = false
            guard digits() > 0 else { throw fail("a number with no digits after its point") }
        }
        if at < bytes.count, bytes[at] == UInt8(ascii: "e") || bytes[at] == UInt8(ascii: "E") {
            at += 1
            integral = false
            if at < bytes.count, bytes[at] == UInt8(ascii: "+") || bytes[at] == UInt8(ascii: "-") { at += 1 }
            guard digits() > 0 else { throw fail("a number with no digits in its exponent") }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<at]), as: UTF8.self)
        if integral, let int = Int(text) { return int }
        guard let double = Double(text) else { throw fail("a number out of range") }
        return double
    }
}

extension JSONStream.Failure {
    /// The line of the failure, for the import's message.
    func line(in data: Data) -> Int { data.prefix(offset).reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) } }
}
