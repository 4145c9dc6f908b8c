import Foundation

/// One JSON value's syntax laid out flat and read in place: a token for
/// each value and member name (its kind and where it lies), a container's
/// token saying where its contents end. A large export's items are each
/// read this way on any core, and nothing is made but the strings asked
/// for: no `Any` and no object per member (boxing those was most of an
/// Enpass import's time). Checked as strictly as `JSONStream` reads a
/// document, by the same code.
struct JSONTape {
    enum Kind: UInt8, Sendable { case object, array, string, escapedString, number, `true`, `false`, null }

    /// For a scalar, its bytes (a string's with its quotes); for an object
    /// or array, `start` is its opening byte and `end` the index of the
    /// token after its last one.
    struct Token: Sendable {
        var kind: Kind
        var start: Int
        var end: Int
    }

    private(set) var bytes = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
    private var tokens: [Token] = []

    /// The value at the tape's start (after `read`).
    let root = 0

    /// Lays out `bytes`, one JSON value; the tape is reused from value to value.
    mutating func read(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONStream.Failure) {
        self.bytes = bytes
        do { try JSONStream.tape(bytes, into: &tokens) } catch let failure as JSONStream.Failure { throw failure } catch {
            throw JSONStream.Failure(offset: 0, message: "\(error)")
        }
    }

    func kind(_ node: Int) -> Kind { tokens[node].kind }

    /// The token after `node` and everything inside it.
    private func next(_ node: Int) -> Int {
        tokens[node].kind == .object || tokens[node].kind == .array ? tokens[node].end : node + 1
    }

    /// Member names looked for together, as bytes (made once, kept in a `static let`).
    struct Names: Sendable {
        let utf8: [[UInt8]]
        init(_ names: [String]) { utf8 = names.map { Array($0.utf8) } }
    }

    /// One look along an object's members: `found` gets each member whose
    /// name is one of `names` (its place among them, and the value), in
    /// the document's order, so that the last of a repeated name is the
    /// one kept, as `JSONObject` keeps it. Nothing when `object` is not one.
    func members(_ object: Int, _ names: Names, _ found: (Int, Int) -> Void) {
        guard tokens[object].kind == .object else { return }
        var key = object + 1
        while key < tokens[object].end {
            let value = key + 1
            if let which = place(of: key, in: names) { found(which, value) }
            key = next(value)
        }
    }

    /// The members of `object` named in `names`, in their order there (nil:
    /// absent; all nil when `object` is not one), found in one look along it.
    func members(_ object: Int?, _ names: Names) -> [Int?] {
        var found = [Int?](repeating: nil, count: names.utf8.count)
        if let object { members(object, names) { which, value in found[which] = value } }
        return found
    }

    /// An object's member (the last one when a name repeats); nil when absent or not an object.
    func member(_ object: Int, _ name: String) -> Int? {
        var value: Int?
        members(object, Names([name])) { _, node in value = node }
        return value
    }

    private func place(of key: Int, in names: Names) -> Int? {
        let token = tokens[key]
        if token.kind == .escapedString {
            guard let name = string(key) else { return nil }
            return names.utf8.firstIndex { name.utf8.elementsEqual($0) }
        }
        let start = bytes.baseAddress! + token.start + 1, count = token.end - token.start - 2
        // The length, then the first byte, before a call to memcmp (most names differ there).
        for (which, wanted) in names.utf8.enumerated() where wanted.count == count {
            if count == 0 { return which }
            let same = wanted.withUnsafeBufferPointer { $0[0] == start[0] && memcmp(start, $0.baseAddress!, count) == 0 }
            if same { return which }
        }
        return nil
    }

    /// An array's elements in order (none when `node` is not an array).
    func elements(_ node: Int) -> [Int] {
        guard tokens[node].kind == .array else { return [] }
        var found: [Int] = []
        var element = node + 1
        while element < tokens[node].end {
            found.append(element)
            element = next(element)
        }
        return found
    }

    /// How many elements an array has (0 when `node` is not an array).
    func count(_ node: Int) -> Int { elements(node).count }

    /// A string's text; nil for any other kind.
    func string(_ node: Int) -> String? {
        let token = tokens[node]
        switch token.kind {
        case .string:
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[(token.start + 1)..<(token.end - 1)]), as: UTF8.self)
        case .escapedString:
            return try? JSONStream.string(UnsafeBufferPointer(rebasing: bytes[token.start..<token.end]))
        default: return nil
        }
    }

    /// An integer written without a fraction or exponent; nil for anything else (a string of digits included).
    func integer(_ node: Int) -> Int? {
        let token = tokens[node]
        guard token.kind == .number else { return nil }
        var value = 0, negative = false
        for (place, byte) in bytes[token.start..<token.end].enumerated() {
            if place == 0, byte == UInt8(ascii: "-") { negative = true; continue }
            guard byte &- UInt8(ascii: "0") < 10 else { return nil }
            let (times, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, over) = times.addingReportingOverflow(Int(byte &- UInt8(ascii: "0")))
            if overflow || over { return nil }
            value = sum
        }
        return negative ? -value : value
    }

    /// A value as text: a string, a number as written, a boolean as "true"/"false"; else "".
    func text(_ node: Int?) -> String {
        guard let node else { return "" }
        let token = tokens[node]
        switch token.kind {
        case .string, .escapedString: return string(node) ?? ""
        case .number: return String(decoding: UnsafeBufferPointer(rebasing: bytes[token.start..<token.end]), as: UTF8.self)
        case .true: return "true"
        case .false: return "false"
        default: return ""
        }
    }

    /// `node` as `JSONStream`'s native values (`JSONObject`, `[Any]`, …):
    /// for an item's rarer parts, which code written for those reads.
    func value(_ node: Int) -> Any? { try? JSONStream.value(in: bytes, at: tokens[node].start) }

    /// A string, or a number as the text it was written as (a numeric
    /// password is still that password), and which; nil for anything else.
    func scalarText(_ node: Int?) -> (text: String, wasNumber: Bool)? {
        guard let node else { return nil }
        switch tokens[node].kind {
        case .string, .escapedString: return string(node).map { ($0, false) }
        case .number: return (text(node), true)
        default: return nil
        }
    }

    /// Whether `node` is the literal `true`.
    func isTrue(_ node: Int?) -> Bool { node.map { tokens[$0].kind == .true } ?? false }

    /// Whether `node` is there and is not `null`.
    func isSet(_ node: Int?) -> Bool { node.map { tokens[$0].kind != .null } ?? false }

    /// A member as text ("" when absent).
    func text(_ object: Int, _ name: String) -> String { text(member(object, name)) }

    /// A member as an integer (nil when absent or not one).
    func integer(_ object: Int, _ name: String) -> Int? { member(object, name).flatMap(integer) }

    /// A member as a string (nil when absent or not a string).
    func string(_ object: Int, _ name: String) -> String? { member(object, name).flatMap(string) }
}
