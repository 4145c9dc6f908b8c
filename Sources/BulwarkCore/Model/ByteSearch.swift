import Foundation

/// Substring and subsequence search on UTF-8 bytes. For ASCII needles these
/// agree with searching characters (an ASCII byte is never part of a longer
/// sequence in UTF-8), and they cost no locks and no allocation: Foundation's
/// string search took most of the time where 100k strings are searched.
public enum ByteSearch {
    public static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        haystack.withUnsafeBufferPointer { contains($0, needle) }
    }

    public static func contains(_ text: UnsafeBufferPointer<UInt8>, _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty else { return true }
        guard needle.count <= text.count, let base = text.baseAddress else { return false }
        // memchr to each candidate first byte, memcmp for the rest.
        return needle.withUnsafeBufferPointer { pattern in
            let last = text.count - pattern.count
            var start = 0
            while start <= last {
                guard let hit = memchr(base + start, Int32(pattern[0]), last - start + 1) else { return false }
                let at = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                if memcmp(base + at, pattern.baseAddress!, pattern.count) == 0 { return true }
                start = at + 1
            }
            return false
        }
    }

    /// Whether `needle`'s characters appear in `haystack` in order, not
    /// necessarily together. A character is its whole UTF-8 sequence, so a
    /// non-ASCII letter only ever matches itself.
    public static func containsInOrder(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        haystack.withUnsafeBufferPointer { containsInOrder($0, needle) }
    }

    public static func containsInOrder(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: [UInt8]) -> Bool {
        if needle.allSatisfy({ $0 < 0x80 }) {  // the usual query: a byte is a letter
            var wanted = 0
            for byte in haystack where wanted < needle.count && byte == needle[wanted] { wanted += 1 }
            return wanted == needle.count
        }
        var wanted = needle.startIndex, from = 0
        while wanted < needle.endIndex {
            let lead = needle[wanted]
            let width = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
            let character = needle[wanted..<min(needle.endIndex, wanted + width)]
            guard character.count <= haystack.count - from,
                  let found = (from...(haystack.count - character.count)).first(where: {
                      haystack[$0..<($0 + character.count)].elementsEqual(character)
                  }) else { return false }
            from = found + character.count
            wanted += character.count
        }
        return true
    }
}
