import Foundation

/// One breach corpus in Have I Been Pwned's "Pwned Passwords" text format:
/// lines of 40 hex digits (a SHA-1), `:`, a count; LF or CRLF; sorted by
/// hash. A large file is searched by binary search over byte offsets, never
/// read whole: each probe lands mid-file, backs up to its line's start and
/// compares. A small one (the built-in list) is checked line by line on
/// load and indexed by the first 64 bits of each hash.
public final class PwnedPasswordsFile: Sendable {
    public let name: String
    private let file: MappedFile
    /// The searched bytes: the file without trailing blank space.
    private let end: Int
    /// For small files: each line's first 64 hash bits, sorted, and where the line starts.
    private nonisolated(unsafe) var index: (keys: [UInt64], starts: [Int])?  // set once, in init

    /// Files up to this size are read whole on load: every line checked, and indexed.
    public static let wholeReadLimit = 8 << 20

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

    /// A corpus held in memory (the built-in one). `wholeReadLimit` is for
    /// tests that need a small file searched like a big one.
    public convenience init(name: String, data: Data, wholeReadLimit: Int = PwnedPasswordsFile.wholeReadLimit) throws {
        try self.init(name: name, file: MappedFile(copying: data), wholeReadLimit: wholeReadLimit)
    }

    private init(name: String, file: MappedFile, wholeReadLimit: Int = PwnedPasswordsFile.wholeReadLimit) throws {
        self.name = name
        self.file = file
        var end = file.bytes.count
        while end > 0, [0x0A, 0x0D, 0x20, 0x09].contains(file.bytes[end - 1]) { end -= 1 }
        self.end = end
        index = nil
        guard end > 0 else { throw FormatError(file: name, offset: 0, reason: "the file has no lines") }
        let first = try line(at: 0)
        let last = try line(at: lineStart(before: end - 1))
        guard compare(first.start, last.start) <= 0 else {
            throw FormatError(file: name, offset: 0, reason: "the lines are not sorted by hash")
        }
        if end <= wholeReadLimit { index = try readWhole() }
    }

    /// Checks every line and its order, and indexes the lines.
    private func readWhole() throws -> (keys: [UInt64], starts: [Int]) {
        var keys: [UInt64] = [], starts: [Int] = []
        var start = 0
        while start < end {
            let line = try line(at: start)
            if let previous = starts.last {
                let order = compare(previous, start)
                if order > 0 { throw FormatError(file: name, offset: start, reason: "the lines are not sorted by hash") }
                if order == 0 { throw FormatError(file: name, offset: start, reason: "the hash appears twice") }
            }
            keys.append(key(at: start))
            starts.append(start)
            start = line.next
        }
        return (keys, starts)
    }

    /// Every line read and its order checked, for `bulwark doctor`: a
    /// search only sees the lines it probes, so an unsorted or damaged
    /// file can look fine until a lookup lands on the damage.
    public func survey() -> (lines: Int, problem: FormatError?) {
        var lines = 0, start = 0, previous: Int?
        while start < end {
            let next: Int
            do { next = try line(at: start).next } catch let error as FormatError { return (lines, error) } catch {
                return (lines, FormatError(file: name, offset: start, reason: "\(error)"))
            }
            if let previous {
                let order = compare(previous, start)
                if order > 0 { return (lines, FormatError(file: name, offset: start, reason: "line \(lines + 1) is not sorted by hash after the one before")) }
                if order == 0 { return (lines, FormatError(file: name, offset: start, reason: "line \(lines + 1) repeats the hash before it")) }
            }
            lines += 1
            previous = start
            start = next
        }
        return (lines, nil)
    }

    /// The count recorded for a SHA-1 (20 bytes), or nil when it is absent.
    ///
    /// A binary search whose probes are interpolated: SHA-1s are uniform,
    /// so the target's first 64 bits say where in the remaining range its
    /// line should be, and a 10-million-line file is usually settled in a
    /// handful of probes instead of 24 (each probe into a cold region of a
    /// big file costs a page fault). Whenever an interpolated probe fails
    /// to halve the range, the next probe bisects, so a skewed file costs
    /// at most twice the probes of plain bisection.
    public func count(ofSHA1 digest: [UInt8]) throws -> Int? {
        precondition(digest.count == 20)
        let target = Self.upperHex(digest)
        return try target.withUnsafeBufferPointer { target in try count(ofUpperHex: target, key: Self.key(digest)) }
    }

    /// The same search with the hex form already made (a corpus of several
    /// files makes it once per lookup).
    func count(ofUpperHex target: UnsafeBufferPointer<UInt8>, key targetKey: UInt64) throws -> Int? {
        if let index { return try indexedCount(index, target, targetKey) }
        var low = 0, high = end
        var lowKey = UInt64.min, highKey = UInt64.max
        var interpolate = true
        while low < high {
            let range = high - low
            var probe = low + range / 2
            if interpolate, range > 512, highKey > lowKey, targetKey >= lowKey, targetKey <= highKey {
                let fraction = Double(targetKey - lowKey) / Double(highKey - lowKey)
                probe = min(high - 1, low + Int(fraction * Double(range)))
            }
            let start = lineStart(before: probe)
            let order = try compare(lineAt: start, with: target)
            if order == 0 { return try line(at: start).count }
            if order < 0 {
                low = try nextLine(after: start)
                lowKey = key(at: start)
            } else {
                high = start
                highKey = key(at: start)
            }
            interpolate = !interpolate || (high - low) * 2 <= range
        }
        return nil
    }

    /// Bisects the keys of a small file, then compares the lines whose
    /// first 64 bits match (almost always none or one).
    private func indexedCount(_ index: (keys: [UInt64], starts: [Int]), _ target: UnsafeBufferPointer<UInt8>, _ targetKey: UInt64) throws -> Int? {
        var low = 0, high = index.keys.count
        while low < high {
            let mid = (low + high) / 2
            if index.keys[mid] < targetKey { low = mid + 1 } else { high = mid }
        }
        while low < index.keys.count, index.keys[low] == targetKey {
            if try compare(lineAt: index.starts[low], with: target) == 0 { return try line(at: index.starts[low]).count }
            low += 1
        }
        return nil
    }

    /// Every hash in the file that begins with `prefix` (hex digits, as a
    /// range API is asked), with its count: a lower-bound bisection over
    /// byte offsets, then the lines walked while they share the prefix.
    /// For `bulwark watch`, which holds only prefixes and salted digests.
    public func range(_ prefix: String) throws -> [(sha1: [UInt8], count: Int)] {
        let target = Array(prefix.uppercased().utf8)
        precondition(!target.isEmpty && target.count <= 40)
        func order(_ start: Int) throws -> Int {
            guard start + 41 <= end else { throw FormatError(file: name, offset: start, reason: "expected 40 hex digits and ':'") }
            for i in 0..<target.count {
                let byte = Self.upper(file.bytes[start + i])
                guard Self.hexValue(byte) != nil else { throw FormatError(file: name, offset: start + i, reason: "expected a hex digit") }
                if byte != target[i] { return byte < target[i] ? -1 : 1 }
            }
            return 0
        }
        var low = 0, high = end
        while low < high {
            let start = lineStart(before: low + (high - low) / 2)
            if try order(start) < 0 { low = try nextLine(after: start) } else { high = start }
        }
        var found: [(sha1: [UInt8], count: Int)] = []
        var start = low
        while start < end, try order(start) == 0 {
            let line = try line(at: start)
            let digest = stride(from: 0, to: 40, by: 2).map { UInt8(Self.hexValue(file.bytes[start + $0])! << 4 | Self.hexValue(file.bytes[start + $0 + 1])!) }
            found.append((digest, line.count))
            start = line.next
        }
        return found
    }

    static func key(_ digest: [UInt8]) -> UInt64 { digest.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) } }

    /// The first 64 bits of the hash on the line at `start` (whose first 16
    /// digits `compare` has read and checked).
    private func key(at start: Int) -> UInt64 {
        var key: UInt64 = 0
        for i in start..<start + 16 { key = key << 4 | UInt64(Self.hexValue(file.bytes[i]) ?? 0) }
        return key
    }

    /// Orders the hash on the line at `start` against `target`: negative
    /// when the line's is smaller. Checks the digits it reads (at least the
    /// first 16) and the `:`; the count is read only on a match.
    private func compare(lineAt start: Int, with target: UnsafeBufferPointer<UInt8>) throws -> Int {
        let bytes = file.bytes
        guard start + 41 <= end, bytes[start + 40] == 0x3A else {
            throw FormatError(file: name, offset: start, reason: "expected 40 hex digits and ':'")
        }
        var result = 0
        for i in 0..<40 {
            let byte = bytes[start + i]
            guard Self.hexValue(byte) != nil else { throw FormatError(file: name, offset: start + i, reason: "expected a hex digit") }
            if result == 0 {
                let a = Self.upper(byte), b = target[i]
                if a != b { result = a < b ? -1 : 1 }
            }
            if result != 0 && i >= 15 { break }
        }
        return result
    }

    private func nextLine(after start: Int) throws -> Int {
        var position = start + 41
        while position < end, file.bytes[position] != 0x0A { position += 1 }
        return min(position + 1, end)
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
        // LF or CRLF, or the end of the file: nothing else may follow the count.
        if position < end, bytes[position] == 0x0D { position += 1 }
        guard position == end || bytes[position] == 0x0A else {
            throw FormatError(file: name, offset: position, reason: "expected the end of the line")
        }
        return Line(start: start, count: count, next: min(position + 1, end))
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
