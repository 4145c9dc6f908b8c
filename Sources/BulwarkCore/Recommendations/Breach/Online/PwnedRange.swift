import Foundation

/// Have I Been Pwned's range API, k-anonymity style: a client sends the
/// first 5 hex digits of a password's SHA-1 and gets back every breached
/// hash with that prefix, as `SUFFIX:COUNT` lines (the other 35 digits).
/// With `Add-Padding: true` the answer also holds made-up suffixes with
/// count 0, so that its size says nothing of the prefix; they are dropped.
public enum PwnedRange {
    /// The 5 upper-case hex digits sent for a SHA-1.
    public static func prefix(of sha1: [UInt8]) -> String { String(sha1.hex.prefix(5)).uppercased() }

    /// The 35 upper-case hex digits looked for in the answer.
    public static func suffix(of sha1: [UInt8]) -> String { String(sha1.hex.dropFirst(5)).uppercased() }

    public struct MalformedAnswer: Error, Equatable, CustomStringConvertible {
        public let line: Int
        public let reason: String
        public var description: String { "line \(line): \(reason)" }
    }

    /// The breached suffixes of an answer and their counts (padding, count
    /// 0, left out). Lines end in CRLF or LF; anything else is refused whole.
    public static func parse(_ body: Data) throws(MalformedAnswer) -> [String: Int] {
        var found: [String: Int] = [:]
        var number = 0
        for raw in body.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            number += 1
            var line = raw
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            if line.isEmpty { continue }
            guard line.count >= 37, line.count <= 35 + 1 + 12 else {
                throw MalformedAnswer(line: number, reason: "expected 35 hex digits, ':' and a count")
            }
            let suffix = line.prefix(35), colon = line[line.startIndex + 35], digits = line.dropFirst(36)
            guard suffix.allSatisfy(isHex), colon == UInt8(ascii: ":"), digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                  let count = Int(String(decoding: digits, as: UTF8.self)) else {
                throw MalformedAnswer(line: number, reason: "expected 35 hex digits, ':' and a count")
            }
            if count > 0 { found[String(decoding: suffix, as: UTF8.self).uppercased()] = count }
        }
        return found
    }

    private static func isHex(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
    }

    /// The hits among `sha1s` in the answered ranges, as a corpus searched
    /// like the others; nil when there is none.
    public static func corpus(named name: String, sha1s: [[UInt8]], ranges: [String: [String: Int]]) -> PwnedPasswordsFile? {
        var lines = Set<String>()
        for sha1 in sha1s {
            let prefix = prefix(of: sha1), suffix = suffix(of: sha1)
            if let count = ranges[prefix]?[suffix] { lines.insert("\(prefix)\(suffix):\(count)") }
        }
        guard !lines.isEmpty else { return nil }
        return try? PwnedPasswordsFile(name: name, data: Data(lines.sorted().joined(separator: "\n").utf8))
    }
}
