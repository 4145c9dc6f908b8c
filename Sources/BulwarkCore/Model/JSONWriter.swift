import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A JSON value with its keys in the order they are to be written.
public indirect enum JSONValue: Sendable, Equatable {
    case string(String), int(Int64), number(Double), bool(Bool), null
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.string(let x), .string(let y)): x == y
        case (.int(let x), .int(let y)): x == y
        case (.number(let x), .number(let y)): x == y
        case (.bool(let x), .bool(let y)): x == y
        case (.null, .null): true
        case (.array(let x), .array(let y)): x == y
        case (.object(let x), .object(let y)): x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: false
        }
    }

    public static func optional(_ text: String?) -> JSONValue { text.map { .string($0) } ?? .null }
}

/// Bytes written as they are made, to a file descriptor (flushed every
/// 64 KiB) or kept in memory (`descriptor` nil): exports and listings of
/// 100,000 entries never hold the whole text.
public final class ByteSink {
    var buffer: [UInt8] = []
    private let descriptor: Int32?
    public private(set) var failed = false

    public init(descriptor: Int32?) {
        self.descriptor = descriptor
        buffer.reserveCapacity(1 << 16)
    }

    /// What was written, when kept in memory.
    public var bytes: [UInt8] { buffer }

    public func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        flushIfFull()
    }

    public func append(_ bytes: [UInt8]) {
        buffer.append(contentsOf: bytes)
        flushIfFull()
    }

    func flushIfFull() {
        if descriptor != nil && buffer.count >= 1 << 16 { flush() }
    }

    /// Writes what is buffered; false once a write has failed (a full disk, a closed pipe).
    @discardableResult
    public func flush() -> Bool {
        guard let descriptor, !buffer.isEmpty else { return !failed }
        var offset = 0
        while offset < buffer.count && !failed {
            let written = buffer[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            if written <= 0 { failed = true } else { offset += written }
        }
        buffer.removeAll(keepingCapacity: true)
        return !failed
    }
}

/// Writes JSON into its own bytes as it goes, pretty-printed two spaces
/// deep with `" : "`, as bulwark's JSON has always been: a value type, so
/// the bytes of one element (an export's item) are made without touching
/// shared state, on any core, then handed to a `ByteSink` in order. With
/// `terminalSafe`, every character a terminal could act on or hide is a
/// `\u` escape (what `TerminalText.jsonEscaped` does to finished text).
public struct JSONWriter: Sendable {
    public private(set) var bytes: [UInt8] = []
    private let terminalSafe: Bool
    /// Indentation of the outermost value (an element of an enclosing
    /// array written elsewhere), in levels of two spaces.
    private let baseDepth: Int
    /// Open objects and arrays, innermost last: whether each is an array,
    /// and how many members or elements it has so far.
    private var levels: [(isArray: Bool, count: Int)] = []
    /// No line breaks or indentation (a document for programs, as CXF exporters write theirs).
    private let compact: Bool

    public init(terminalSafe: Bool, baseDepth: Int = 0, compact: Bool = false) {
        self.terminalSafe = terminalSafe
        self.baseDepth = baseDepth
        self.compact = compact
        bytes.reserveCapacity(1024)
    }

    /// Text written as it is (punctuation between elements written apart).
    public mutating func raw(_ text: String) { bytes.append(contentsOf: text.utf8) }

    /// Hands the bytes so far to `sink`, and starts again empty.
    public mutating func move(to sink: ByteSink) {
        sink.append(bytes)
        bytes.removeAll(keepingCapacity: true)
    }

    public mutating func beginObject() {
        element()
        bytes.append(0x7B)
        levels.append((false, 0))
    }

    public mutating func endObject() { close(0x7D) }

    public mutating func beginArray() {
        element()
        bytes.append(0x5B)
        levels.append((true, 0))
    }

    public mutating func endArray() { close(0x5D) }

    /// A member's key; its value is the next thing written.
    public mutating func key(_ name: String) {
        separate()
        quoted(name)
        if compact { bytes.append(0x3A) } else { bytes.append(contentsOf: [0x20, 0x3A, 0x20]) }
    }

    public mutating func string(_ text: String) {
        element()
        quoted(text)
    }

    public mutating func int(_ number: Int64) {
        element()
        bytes.append(contentsOf: String(number).utf8)
    }

    /// A finite number as JSONSerialization writes one: its shortest exact
    /// form, a whole number without ".0" (one that is not finite, as null).
    public mutating func number(_ number: Double) {
        element()
        let text = number.isFinite ? number.description : "null"
        bytes.append(contentsOf: (text.hasSuffix(".0") ? String(text.dropLast(2)) : text).utf8)
    }

    public mutating func bool(_ flag: Bool) {
        element()
        bytes.append(contentsOf: (flag ? "true" : "false").utf8)
    }

    public mutating func null() {
        element()
        bytes.append(contentsOf: "null".utf8)
    }

    public mutating func optional(_ text: String?) { if let text { string(text) } else { null() } }

    public mutating func strings(_ texts: [String]) {
        beginArray()
        for text in texts { string(text) }
        endArray()
    }

    /// A whole value.
    public mutating func value(_ value: JSONValue) {
        switch value {
        case .string(let text): string(text)
        case .int(let number): int(number)
        case .number(let number): self.number(number)
        case .bool(let flag): bool(flag)
        case .null: null()
        case .array(let items):
            beginArray()
            for item in items { self.value(item) }
            endArray()
        case .object(let members):
            beginObject()
            for (name, member) in members {
                key(name)
                self.value(member)
            }
            endObject()
        }
    }

    /// Inside an array, a new element starts on its own line.
    private mutating func element() {
        if let top = levels.last, top.isArray { separate() }
    }

    private mutating func separate() {
        guard !levels.isEmpty else { return }
        if levels[levels.count - 1].count > 0 { bytes.append(0x2C) }
        levels[levels.count - 1].count += 1
        guard !compact else { return }
        bytes.append(0x0A)
        indent(levels.count)
    }

    private mutating func close(_ bracket: UInt8) {
        let level = levels.removeLast()
        if level.count > 0, !compact {
            bytes.append(0x0A)
            indent(levels.count)
        }
        bytes.append(bracket)
    }

    private mutating func indent(_ depth: Int) {
        bytes.append(contentsOf: repeatElement(0x20, count: (baseDepth + depth) * 2))
    }

    private mutating func quoted(_ text: String) {
        bytes.append(0x22)
        var text = text
        let plain = text.withUTF8 { utf8 in
            for byte in utf8 where byte < 0x20 || byte >= 0x7F || byte == 0x22 || byte == 0x5C { return false }
            bytes.append(contentsOf: utf8)
            return true
        }
        if !plain {
            for scalar in text.unicodeScalars { escaped(scalar) }
        }
        bytes.append(0x22)
    }

    private mutating func escaped(_ scalar: Unicode.Scalar) {
        let v = scalar.value
        switch v {
        case 0x22: bytes.append(contentsOf: [0x5C, 0x22])
        case 0x5C: bytes.append(contentsOf: [0x5C, 0x5C])
        case 0x0A: bytes.append(contentsOf: [0x5C, 0x6E])
        case 0x0D: bytes.append(contentsOf: [0x5C, 0x72])
        case 0x09: bytes.append(contentsOf: [0x5C, 0x74])
        case 0..<0x20: escape(UInt16(v))
        case 0x20..<0x7F: bytes.append(UInt8(v))
        default:
            if terminalSafe && (v == 0x7F || (0x80..<0xA0).contains(v) || v == 0x2028 || v == 0x2029 || scalar.properties.generalCategory == .format) {
                for unit in String(scalar).utf16 { escape(unit) }
            } else {
                bytes.append(contentsOf: String(scalar).utf8)
            }
        }
    }

    private mutating func escape(_ unit: UInt16) {
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        bytes.append(contentsOf: [0x5C, 0x75, digits[Int(unit >> 12)], digits[Int((unit >> 8) & 0xF)], digits[Int((unit >> 4) & 0xF)], digits[Int(unit & 0xF)]])
    }
}
