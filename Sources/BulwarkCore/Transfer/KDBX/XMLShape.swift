import Foundation

/// A first pass over XML before FoundationXML's parser sees it: every tag
/// closed in order, names and attributes well-formed, nothing but elements,
/// attributes and text after an optional XML declaration (KeePass writes
/// no DTD, processing instruction, comment or CDATA). The kdbx-xml fuzzer
/// found inputs that crash FoundationXML's parser (a mismatched end tag,
/// an empty processing instruction: null pointers inside its callbacks),
/// so a document outside that shape is refused here, never handed to it.
enum XMLShape {
    /// KeePass writes at most two attributes on an element (Protected,
    /// ProtectInMemory); libxml2 checks each new attribute against every
    /// earlier one, so 200,000 on one element took 8 s. Far more than any
    /// KeePass file has, far fewer than makes that slow.
    static let attributeLimit = 16

    static func check(_ bytes: [UInt8], depthLimit: Int) -> String? {
        bytes.withUnsafeBufferPointer { check($0, depthLimit: depthLimit) }
    }

    /// Whether the bytes are UTF-8, checked without making a String of them:
    /// eight ASCII bytes at a time, the standard library's decoder for the rest.
    static func isUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let n = bytes.count
        var i = 0
        var mark = MappedExport.step
        while i < n {
            if i >= mark {
                MappedExport.passed(base + i)  // a mapped export's pages behind are given back
                mark += MappedExport.step
            }
            if i + 8 <= n, UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                i += 8
                continue
            }
            if base[i] < 0x80 {
                i += 1
                continue
            }
            // One scalar is at most four bytes: decoded from a window of four.
            var iterator = UnsafeBufferPointer(rebasing: bytes[i..<min(n, i + 4)]).makeIterator()
            var decoder = UTF8()
            guard case .scalarValue(let scalar) = decoder.decode(&iterator) else { return false }
            i += UTF8.width(scalar)
        }
        return true
    }

    static func check(_ bytes: UnsafeBufferPointer<UInt8>, depthLimit: Int) -> String? {
        var none: XMLSplit.Finder?
        return check(bytes, depthLimit: depthLimit, finding: &none)
    }

    /// The check, with `split` told of every tag (`XMLSplit.Finder`).
    static func check(_ bytes: UnsafeBufferPointer<UInt8>, depthLimit: Int, finding split: inout XMLSplit.Finder?) -> String? {
        var part = Part(unmatched: nil, givesBack: true)
        if let problem = scan(bytes, 0..<bytes.count, depthLimit: depthLimit, part: &part, finding: &split) { return problem }
        return part.stack.isEmpty ? nil : "an element that is never closed"
    }

    /// What a scan of part of a document leaves: the elements still open,
    /// and (the second part's) the end tags of elements the part before opened.
    struct Part {
        var stack: [Slice<UnsafeBufferPointer<UInt8>>] = []
        /// Nil: every end tag must close an element the part opened.
        var unmatched: [Slice<UnsafeBufferPointer<UInt8>>]?
        /// The deepest it went below where it began.
        var deepest = 0
        /// Whether a mapped export's pages behind are given back as it goes.
        let givesBack: Bool
    }

    /// Bytes from this size on are checked in two parts at once (`checkOnTwoCores`).
    static let twoCoresFrom = 1 << 20

    /// The check, its two halves on two cores (the second half begins at a
    /// '<', which outside a comment or CDATA, refused anyway, is always a
    /// tag), joined where the first half's open elements are the ones the
    /// second half closes. Any problem in either, or a join that does not
    /// fit, is named by the check in one go (the same message as ever).
    /// `alongside` is done as a third part of the same work (one call
    /// across the cores: a second inside it found them taken, and ran on one).
    static func checkOnTwoCores(_ bytes: UnsafeBufferPointer<UInt8>, depthLimit: Int, finding split: inout XMLSplit.Finder?,
                                alongside: @escaping @Sendable () -> Void = {}) -> String? {
        var joined = false
        return checkOnTwoCores(bytes, depthLimit: depthLimit, finding: &split, joined: &joined, alongside: alongside)
    }

    /// The same, saying whether the halves were joined (rather than the document checked again in one go).
    static func checkOnTwoCores(_ bytes: UnsafeBufferPointer<UInt8>, depthLimit: Int, finding split: inout XMLSplit.Finder?, joined: inout Bool,
                                alongside: @escaping @Sendable () -> Void = {}) -> String? {
        let n = bytes.count
        // A little past the middle: the cut (`XMLSplit`), found in the first half, is the first entry after it.
        guard n >= twoCoresFrom, let base = bytes.baseAddress, let tag = memchr(base + n * 11 / 20, 0x3C, n - n * 11 / 20) else {
            alongside()
            return check(bytes, depthLimit: depthLimit, finding: &split)
        }
        let middle = base.distance(to: tag.assumingMemoryBound(to: UInt8.self))
        // Each half writes only its own fields (a class, so the closure across the cores shares them).
        final class Halves: @unchecked Sendable {
            var first = Part(unmatched: nil, givesBack: false), second = Part(unmatched: [], givesBack: false)
            var firstProblem: String?, secondProblem: String?
            var finder: XMLSplit.Finder?
            init(finder: XMLSplit.Finder?) { self.finder = finder }
        }
        let halves = Halves(finder: split)
        nonisolated(unsafe) let shared = bytes
        DispatchQueue.concurrentPerform(iterations: 3) { index in
            switch index {
            case 0: halves.firstProblem = scan(shared, 0..<middle, depthLimit: depthLimit, part: &halves.first, finding: &halves.finder)
            case 1:
                var none: XMLSplit.Finder?
                halves.secondProblem = scan(shared, middle..<n, depthLimit: depthLimit, part: &halves.second, finding: &none)
            default: alongside()
            }
        }
        let (first, second, finder) = (halves.first, halves.second, halves.finder)
        let closes = second.unmatched ?? []
        let joins = halves.firstProblem == nil && halves.secondProblem == nil && second.stack.isEmpty && closes.count == first.stack.count
            && first.stack.count + second.deepest <= depthLimit
            && zip(first.stack.reversed(), closes).allSatisfy { $0.elementsEqual($1) }
        guard joins else { return check(bytes, depthLimit: depthLimit, finding: &split) }
        split = finder
        joined = true
        return nil
    }

    /// The tags in `range` of `bytes`, checked; what is left open (and
    /// closed from before) in `part`.
    private static func scan(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, depthLimit: Int, part: inout Part,
                             finding split: inout XMLSplit.Finder?) -> String? {
        var i = range.lowerBound
        let n = range.upperBound
        // Compared in place: a copy of each pattern and of the bytes at every '<' was a fifth of a 100,000-entry import.
        func matches(_ pattern: StaticString, at index: Int) -> Bool {
            let count = pattern.utf8CodeUnitCount
            guard index + count <= n else { return false }
            let start = pattern.utf8Start
            for offset in 0..<count where bytes[index + offset] != start[offset] { return false }
            return true
        }
        func starts(_ pattern: StaticString, at index: Int) -> Bool { matches(pattern, at: index) }
        func find(_ pattern: StaticString, from index: Int) -> Int? {
            var j = index
            while j < n {
                if matches(pattern, at: j) { return j }
                j += 1
            }
            return nil
        }
        func isNameByte(_ b: UInt8) -> Bool {
            (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39) || b == 0x5F || b == 0x2D || b == 0x2E || b == 0x3A || b >= 0x80
        }
        var mark = part.givesBack ? MappedExport.step : Int.max
        while i < n {
            if i >= mark, let base = bytes.baseAddress {
                MappedExport.passed(base + i)  // a mapped export's pages behind are given back (names behind are read again if compared)
                mark += MappedExport.step
            }
            // To the next '<' (memchr: text between tags was a byte at a time).
            guard bytes[i] == 0x3C else {
                guard let next = memchr(bytes.baseAddress! + i, 0x3C, n - i) else { break }
                i = bytes.baseAddress!.distance(to: next.assumingMemoryBound(to: UInt8.self))
                continue
            }
            // A tag's second byte decides (the four patterns tried at every tag were a tenth of the check).
            let second = i + 1 < n ? bytes[i + 1] : 0
            if second == UInt8(ascii: "?") || second == UInt8(ascii: "!") {
                guard starts("<?xml ", at: i) && bytes[0..<i].allSatisfy({ [0xEF, 0xBB, 0xBF, 0x20, 0x09, 0x0A, 0x0D].contains($0) }) else {
                    if starts("<?", at: i) { return "a processing instruction" }
                    if starts("<!--", at: i) { return "a comment" }
                    return "a DTD, CDATA or other declaration"
                }
                // version="1.0" encoding="utf-8" standalone="yes": nothing else
                // (libxml2 reads a malformed declaration as a processing instruction).
                guard let end = find("?>", from: i + 6), end - i < 200,
                      bytes[(i + 6)..<end].allSatisfy({ isNameByte($0) && $0 < 0x80 || [0x20, 0x3D, 0x22, 0x27].contains($0) }) else {
                    return "a malformed XML declaration"
                }
                i = end + 2
                continue
            }
            // An element's start or end tag.
            let closing = i + 1 < n && bytes[i + 1] == 0x2F
            var j = i + (closing ? 2 : 1)
            let nameStart = j
            while j < n, isNameByte(bytes[j]) { j += 1 }
            guard j > nameStart, !(bytes[nameStart] >= 0x30 && bytes[nameStart] <= 0x39) else { return "a tag without a valid name" }
            let name = bytes[nameStart..<j]
            // Attributes, strictly: (space+ name space* = space* "value" or 'value')*, then space*, then > or />.
            func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
            var attributes = 0
            while true {
                var k = j
                while k < n, isSpace(bytes[k]) { k += 1 }
                guard k < n else { return "an unterminated tag" }
                if bytes[k] == 0x3E || (bytes[k] == 0x2F && k + 1 < n && bytes[k + 1] == 0x3E && !closing) {
                    j = bytes[k] == 0x3E ? k : k + 1
                    break
                }
                guard !closing, k > j else { return "a malformed tag" }
                let attributeStart = k
                while k < n, isNameByte(bytes[k]) { k += 1 }
                guard k > attributeStart else { return "a malformed attribute" }
                attributes += 1
                if attributes > attributeLimit { return "an element with more than \(attributeLimit) attributes" }
                while k < n, isSpace(bytes[k]) { k += 1 }
                guard k < n, bytes[k] == 0x3D else { return "an attribute without a value" }
                k += 1
                while k < n, isSpace(bytes[k]) { k += 1 }
                guard k < n, bytes[k] == 0x22 || bytes[k] == 0x27 else { return "an unquoted attribute value" }
                let quote = bytes[k]
                k += 1
                while k < n, bytes[k] != quote {
                    if bytes[k] == 0x3C { return "a '<' inside an attribute value" }
                    k += 1
                }
                guard k < n else { return "an unterminated attribute value" }
                j = k + 1
            }
            guard j < n else { return "an unterminated tag" }
            let selfClosing = bytes[j - 1] == 0x2F
            if closing {
                if part.stack.isEmpty, part.unmatched != nil {
                    part.unmatched!.append(name)  // an element the part before opened: matched when the two are joined
                } else {
                    guard let open = part.stack.popLast(), open.count == name.count,
                          memcmp(bytes.baseAddress! + open.startIndex, bytes.baseAddress! + name.startIndex, name.count) == 0 else {
                        return "an end tag that does not close the open element"
                    }
                }
                split?.ended(end: j)
            } else {
                split?.started(name: name.startIndex..<name.endIndex, start: i, end: j, selfClosing: selfClosing)
                if !selfClosing {
                    part.stack.append(name)
                    if part.stack.count > depthLimit { return "nesting deeper than \(depthLimit) levels" }
                    if let unmatched = part.unmatched { part.deepest = max(part.deepest, part.stack.count - unmatched.count) }
                }
            }
            i = j + 1
        }
        return nil
    }
}
