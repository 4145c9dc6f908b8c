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

    let bytes: UnsafeBufferPointer<UInt8>
    var at = 0
    /// Where the reader is, as far down as a streamed path reaches (no deeper: it is not needed there).
    private var path: [String] = []
    private var depth = 0
    private let tracked: Int
    private let streamed: [Path]
    private let each: ((Path, Any) throws -> Void)?
    /// Where each skipped element of a streamed array lies (`JSONItemIndex`).
    private var skipped: ((Path, Range<Int>) -> Void)?
    /// The tokens of a value read for its syntax, when they are kept (`JSONTape`).
    private var tape: [JSONTape.Token]?
    /// Where an object's names and values and an array's elements are
    /// gathered until it closes (nested ones above, gone before their parent's next).
    private let names: MoveStack<String>
    private let values: MoveStack<Any>
    var keptNames: [(bytes: [UInt8], name: String)?]
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

    /// The document with the arrays at `skipped` read for their syntax
    /// only, and where each of their elements lies handed to `element`
    /// (byte offsets in `data`; the elements' own reading can then be shared out).
    public static func parse(_ data: Data, skipping skipped: [Path], element: @escaping (Path, Range<Int>) -> Void) throws -> Any {
        try parse(data, streamed: skipped, each: nil, skipped: element)
    }

    /// One value's tokens (`bytes` whole, space around it allowed), checked as strictly as a document.
    static func tape(_ bytes: UnsafeBufferPointer<UInt8>, into tokens: inout [JSONTape.Token]) throws {
        var reader = JSONStream(bytes: bytes, streamed: [], each: nil, building: false)
        tokens.removeAll(keepingCapacity: true)
        reader.tape = tokens
        tokens = []
        defer { tokens = reader.tape ?? [] }
        reader.skipSpace()
        try reader.skip()
        reader.skipSpace()
        guard reader.at == bytes.count else { throw reader.fail("unexpected text after the value") }
    }

    /// The value at `offset` of `bytes` as native values (an item's rarer
    /// parts, read off its tape: `JSONTape.value`).
    static func value(in bytes: UnsafeBufferPointer<UInt8>, at offset: Int) throws -> Any {
        var reader = JSONStream(bytes: bytes, streamed: [], each: nil)
        reader.at = offset
        return try reader.value()
    }

    private static func parse(_ data: Data, streamed: [Path], each: ((Path, Any) throws -> Void)?,
                              skipped: ((Path, Range<Int>) -> Void)? = nil) throws -> Any {
        try data.withUnsafeBytes { raw in
            var reader = JSONStream(bytes: raw.bindMemory(to: UInt8.self), streamed: streamed, each: each)
            reader.skipped = skipped
            if raw.starts(with: [0xEF, 0xBB, 0xBF]) { reader.at = 3 }  // a UTF-8 byte-order mark, as some Windows exporters write
            reader.skipSpace()
            let value = try reader.value()
            reader.skipSpace()
            guard reader.at == reader.bytes.count else { throw reader.fail("unexpected text after the document") }
            return value
        }
    }

    /// `building` false: a reader that makes no values (an item's tape, a string's escapes) needs no room for them.
    init(bytes: UnsafeBufferPointer<UInt8>, streamed: [Path], each: ((Path, Any) throws -> Void)?, building: Bool = true) {
        self.bytes = bytes
        names = MoveStack(capacity: building ? 256 : 1)
        values = MoveStack(capacity: building ? 256 : 1)
        keptNames = building ? Array(repeating: nil, count: Self.namesKept) : []
        self.streamed = streamed
        self.each = each
        tracked = streamed.map(\.count).max() ?? 0
    }

    func fail(_ message: String) -> Failure { Failure(offset: at, message: message) }

    private mutating func skipSpace() {
        guard at < bytes.count, bytes[at] <= 0x20 else { return }
        // Exporters indent: most of a pretty-printed document's bytes are runs of spaces, passed eight at a time.
        let base = UnsafeRawPointer(bytes.baseAddress!)
        while true {
            // Up to the first byte that is not a space, eight at a time (the
            // run's last few counted from the word, not passed one by one).
            while at + 8 <= bytes.count {
                let others = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: at, as: UInt64.self)) ^ 0x2020_2020_2020_2020
                if others != 0 {
                    at += others.trailingZeroBitCount / 8
                    break
                }
                at += 8
            }
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
                let start = at
                try skip()
                skipped?(path, start..<at)
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

    /// A value read for its syntax only, laid out on `tape` when one is kept.
    private mutating func skip() throws {
        guard at < bytes.count else { throw fail("the document ends early") }
        switch bytes[at] {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            let closing = bytes[at] == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
            let isObject = closing == UInt8(ascii: "}")
            guard depth < Self.maximumDepth else { throw fail("nested more than \(Self.maximumDepth) deep") }
            depth += 1
            defer { depth -= 1 }
            let slot = tape?.count ?? 0
            tape?.append(JSONTape.Token(kind: isObject ? .object : .array, start: at, end: 0))
            defer { if tape != nil { let end = tape!.count; tape![slot].end = end } }
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
        case UInt8(ascii: "t"): try scalar(.true) { try $0.literal(Self.trueWord) }
        case UInt8(ascii: "f"): try scalar(.false) { try $0.literal(Self.falseWord) }
        case UInt8(ascii: "n"): try scalar(.null) { try $0.literal(Self.nullWord) }
        default: try scalar(.number) { try $0.skipNumber() }  // read for its syntax: nothing to keep
        }
    }

    private mutating func scalar(_ kind: JSONTape.Kind, _ read: (inout JSONStream) throws -> Void) throws {
        let start = at
        try read(&self)
        tape?.append(JSONTape.Token(kind: kind, start: start, end: at))
    }

    private mutating func skipString() throws {
        let start = at
        var escaped = false
        at += 1
        while at < bytes.count {
            passPlainBytes()
            guard at < bytes.count else { break }
            let byte = bytes[at]
            if byte == UInt8(ascii: "\"") {
                at += 1
                tape?.append(JSONTape.Token(kind: escaped ? .escapedString : .string, start: start, end: at))
                return
            }
            guard byte >= 0x20 else { throw fail("a control character inside a string") }
            if byte == UInt8(ascii: "\\") {
                guard at + 1 < bytes.count else { break }
                escaped = true
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
}

extension JSONStream {
    /// Passes a string's bytes eight at a time up to the first that is a
    /// quote, a backslash or a control character (the byte-at-a-time loop
    /// takes that one): a string's bytes were an eighth of an Enpass import.
    /// Each test sets a byte's high bit where it matches; a borrow can set
    /// one only above a true match, so the lowest set bit is the first.
    @inline(__always) fileprivate mutating func passPlainBytes() {
        let base = UnsafeRawPointer(bytes.baseAddress!)
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        while at + 8 <= bytes.count {
            let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: at, as: UInt64.self))
            let quote = word ^ 0x2222_2222_2222_2222, backslash = word ^ 0x5C5C_5C5C_5C5C_5C5C
            let found = ((quote &- ones) & ~quote | (backslash &- ones) & ~backslash | (word &- 0x2020_2020_2020_2020) & ~word) & highs
            if found != 0 {
                at += found.trailingZeroBitCount / 8
                return
            }
            at += 8
        }
    }
}

extension JSONStream.Failure {
    /// The line of the failure, for the import's message.
    func line(in data: Data) -> Int { data.prefix(offset).reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) } }
}
