import Foundation

/// One breach corpus in Have I Been Pwned's "Pwned Passwords" text format:
/// lines of 40 hex digits (a SHA-1), `:`, a count; LF or CRLF; sorted by
/// hash. Searched by binary search over byte offsets, never read whole: each
/// probe lands mid-file, backs up to its line's start and compares, so a
/// lookup touches about log2(lines) lines.
public final class PwnedPasswordsFile: Sendable {
    public let name: String
    private let file: MappedFile
    /// The searched bytes: the file without trailing blank space.
    private let end: Int

    public struct FormatError: Error, CustomStringConvertible, Equatable {
        public let file: String
        public let offset: Int
        public let reason: String
        public var description: String { "\(file): not a Pwned Passwords file at byte \(offset): \(reason)" }
    }

    /// Maps the file and checks its first and last lines and their order.
    public convenience init(path: String) throws {
        let mapped: MappedFile
        do { mapped = try MappedFile(path: path) } catch let failure as MappedFile.Failure {
            throw FormatError(file: path, offset: 0, reason: failure.description)
        }
        try self.init(name: path, file: mapped)
    }

    /// A corpus held in memory (the built-in one).
    public convenience init(name: String, data: Data) throws {
        try self.init(name: name, file: MappedFile(copying: data))
    }

    private init(name: String, file: MappedFile) throws {
        self.name = name
        self.file = file
        var end = file.bytes.count
        while end > 0, [0x0A, 0x0D, 0x20, 0x09].contains(file.bytes[end - 1]) { end -= 1 }
        self.end = end
        guard end > 0 else { throw FormatError(file: name, offset: 0, reason: "the file has no lines") }
        let first = try line(at: 0)
        let last = try line(at: lineStart(before: end - 1))
        guard compare(first.start, last.start) <= 0 else {
            throw FormatError(file: name, offset: 0, reason: "the lines are not sorted by hash")
        }
    }

    /// The count recorded for a SHA-1 (20 bytes), or nil when it is absent.
    public func count(ofSHA1 digest: [UInt8]) throws -> Int? {
        precondition(digest.count == 20)
        let target = Self.upperHex(digest)
        var low = 0, high = end
        while low < high {
            let start = lineStart(before: low + (high - low) / 2)
            let found = try line(at: start)
            let order = target.withUnsafeBufferPointer { compare(start, $0) }
            if order == 0 { return found.count }
            if order < 0 { low = found.next } else { high = start }
        }
        return nil
    }

    // MARK: Lines

    private struct Line { let start: Int; let count: Int; let next: Int }

    private func lineStart(before offset: Int) -> Int {
        var position = offset
        while position > 0, file.bytes[position - 1] != 0x0A { position -= 1 }
        return position
    }

    private func line(at start: Int) throws -> Line {
        let bytes = file.bytes
        guard start + 41 <= end, bytes[start + 40] == 0x3A else {
            throw FormatError(file: name, offset: start, reason: "expected 40 hex digits and ':'")
        }
        for i in start..<start + 40 where Self.hexValue(bytes[i]) == nil {
            throw FormatError(file: name, offset: i, reason: "expected a hex digit")
        }
        var position = start + 41, count = 0, digits = 0
        while position < end, bytes[position] != 0x0D, bytes[position] != 0x0A {
            let byte = bytes[position]
            guard byte >= 0x30, byte <= 0x39, digits < 18 else {
                throw FormatError(file: name, offset: position, reason: "expected a count")
            }
            count = count * 10 + Int(byte - 0x30)
            digits += 1
            position += 1
        }
        guard digits > 0 else { throw FormatError(file: name, offset: position, reason: "expected a count") }
        while position < end, bytes[position] != 0x0A { position += 1 }
        return Line(start: start, count: count, next: min(position + 1, end))
    }

    /// Orders the hash of the line at `start` against `target` (upper-case
    /// hex): negative when the line's hash is smaller. Lower-case files
    /// compare the same, as hex letters sort after digits in either case.
    private func compare(_ start: Int, _ target: UnsafeBufferPointer<UInt8>) -> Int {
        for i in 0..<40 {
            let a = Self.upper(file.bytes[start + i]), b = target[i]
            if a != b { return a < b ? -1 : 1 }
        }
        return 0
    }

    private func compare(_ a: Int, _ b: Int) -> Int {
        for i in 0..<40 {
            let x = Self.upper(file.bytes[a + i]), y = Self.upper(file.bytes[b + i])
            if x != y { return x < y ? -1 : 1 }
        }
        return 0
    }

    private static func upper(_ byte: UInt8) -> UInt8 { byte >= 0x61 && byte <= 0x66 ? byte - 0x20 : byte }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x37
        case 0x61...0x66: byte - 0x57
        default: nil
        }
    }

    static func upperHex(_ digest: [UInt8]) -> [UInt8] {
        let digits = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(40)
        for byte in digest { out.append(digits[Int(byte >> 4)]); out.append(digits[Int(byte & 15)]) }
        return out
    }
}
