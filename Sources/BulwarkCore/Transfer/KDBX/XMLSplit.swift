import Foundation

/// Where a large KeePass document is cut in two so that each half is
/// parsed (and its entries mapped) on a core of its own: libxml2 reads
/// one document on one core, and at 100,000 entries its parse was half of
/// a KDBX import. The cut is before an entry of a group, near the middle.
/// The first part is the document up to it, closed by the open elements'
/// end tags; the second is the rest, opened by their start tags, each open
/// group's own values (its UUID and name, for the entries' paths and the
/// recycle bin) and the recycle bin's UUID. Protected values are unmasked
/// in document order, so the second part's stream starts where the first
/// part's protected values end (`streamOffset`), which the first part's
/// own reading confirms before either part's entries are used (`KDBXSplitRead`).
struct XMLSplit {
    /// The `<Entry` tag the second part starts with.
    let at: Int
    let closing: [UInt8]
    let opening: [UInt8]
    /// The bytes of the inner stream the protected values before the cut use.
    let streamOffset: Int

    /// Documents smaller than this are read in one go: the second parser is not worth its start.
    static let threshold = 1 << 20

    /// Follows `XMLShape.check` through the document and notes the cut at
    /// the first entry of a group at or after the middle, when the open
    /// elements allow one.
    struct Finder {
        private let bytes: UnsafeBufferPointer<UInt8>
        private let target: Int
        private(set) var found: XMLSplit?
        private var opens: [Open] = []
        private var protectedBytes = 0
        /// No cut can be made: a protected value before it holds an entity (the parser's to expand, not counted here), or what would open the second part holds one.
        private var blocked = false
        private var recycleBin: Range<Int>?

        private struct Open {
            let kind: Kind
            let name: Range<Int>
            let start: Int
            let tagEnd: Int
            /// Where a group's first entry or group starts: its own values are before it.
            var headerEnd: Int?
            /// A group's UUID or name after its first child: not in the header the second part is opened with.
            var lateHeader = false
        }

        /// The elements the finder acts on, told apart by length first (a
        /// comparison of every tag with each name was half the finder).
        private enum Kind: UInt8 {
            case other, group, entry, value, binary, string, binaries, meta, recycleBinUUID, uuid, name
        }

        init(_ bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
            target = bytes.count / 2
        }

        private func named(_ range: Range<Int>, _ text: StaticString) -> Bool {
            range.count == text.utf8CodeUnitCount && memcmp(bytes.baseAddress! + range.lowerBound, text.utf8Start, range.count) == 0
        }

        private func kind(_ name: Range<Int>) -> Kind {
            switch name.count {
            case 4: named(name, "UUID") ? .uuid : named(name, "Name") ? .name : named(name, "Meta") ? .meta : .other
            case 5: named(name, "Value") ? .value : named(name, "Entry") ? .entry : named(name, "Group") ? .group : .other
            case 6: named(name, "String") ? .string : named(name, "Binary") ? .binary : .other
            case 8: named(name, "Binaries") ? .binaries : .other
            case 14: named(name, "RecycleBinUUID") ? .recycleBinUUID : .other
            default: .other
            }
        }

        /// A start tag: its name's bytes, the '<' at `start` and the '>' at `end`.
        mutating func started(name: Range<Int>, start: Int, end: Int, selfClosing: Bool) {
            guard found == nil, !blocked else { return }  // nothing after the cut matters
            let kind = kind(name)
            let top = opens.count - 1
            if top >= 0, opens[top].kind == .group {
                if opens[top].headerEnd == nil, kind == .entry || kind == .group {
                    opens[top].headerEnd = start
                } else if opens[top].headerEnd != nil, kind == .uuid || kind == .name {
                    opens[top].lateHeader = true
                }
                if kind == .entry, start >= target { cut(at: start) }
            }
            // Only a tag with attributes can be protected: `<Value>`, most of them, is passed by at once.
            if top >= 0, found == nil, end > name.upperBound + 1, kind == .value && opens[top].kind == .string || kind == .binary && opens[top].kind == .binaries {
                protectedValue(isValue: kind == .value, name: name, end: end, selfClosing: selfClosing)
            }
            if !selfClosing { opens.append(Open(kind: kind, name: name, start: start, tagEnd: end + 1)) }
        }

        /// An end tag whose '>' is at `end`.
        mutating func ended(end: Int) {
            guard found == nil, !blocked, let closed = opens.popLast() else { return }
            if closed.kind == .recycleBinUUID, opens.last?.kind == .meta { recycleBin = closed.start..<(end + 1) }
        }

        /// A protected string's value, or a protected file of the
        /// database's own: its decoded length is the stream it uses (as
        /// `KDBXDocument` reads them: nothing when it is not base64).
        private mutating func protectedValue(isValue: Bool, name: Range<Int>, end: Int, selfClosing: Bool) {
            guard let protected = attribute("Protected", tag: name.upperBound..<end),
                  protected.count == 4, zip(protected, "true".utf8).allSatisfy({ $0 | 0x20 == $1 }) else { return }
            // A file of its own is read only with a numeric ID.
            if !isValue {
                guard let id = attribute("ID", tag: name.upperBound..<end), Int(String(decoding: id, as: UTF8.self)) != nil else { return }
            }
            guard !selfClosing, let base = bytes.baseAddress else { return }
            let textEnd = memchr(base + end + 1, 0x3C, bytes.count - end - 1).map { base.distance(to: $0.assumingMemoryBound(to: UInt8.self)) } ?? bytes.count
            let text = UnsafeBufferPointer(rebasing: bytes[(end + 1)..<textEnd])
            // An entity would be the parser's to expand: no cut after it.
            if memchr(base + end + 1, 0x26, textEnd - end - 1) != nil { blocked = true }
            protectedBytes += Self.decodedCount(text)
        }

        /// An attribute's value within a start tag's bytes (after its name).
        private func attribute(_ name: StaticString, tag: Range<Int>) -> UnsafeBufferPointer<UInt8>? {
            let length = name.utf8CodeUnitCount
            var k = tag.lowerBound
            while k + length + 2 < tag.upperBound {
                let before = bytes[k - 1]
                if (before == 0x20 || before == 0x09 || before == 0x0A || before == 0x0D), memcmp(bytes.baseAddress! + k, name.utf8Start, length) == 0 {
                    var v = k + length
                    while v < tag.upperBound, bytes[v] == 0x20 || bytes[v] == 0x09 || bytes[v] == 0x0A || bytes[v] == 0x0D || bytes[v] == 0x3D { v += 1 }
                    guard v < tag.upperBound, bytes[v] == 0x22 || bytes[v] == 0x27 else { return nil }
                    let quote = bytes[v]
                    var close = v + 1
                    while close < tag.upperBound, bytes[close] != quote { close += 1 }
                    return UnsafeBufferPointer(rebasing: bytes[(v + 1)..<close])
                }
                k += 1
            }
            return nil
        }

        /// How many bytes the base64 decodes to, as Foundation decodes it
        /// after trimming (plain base64 counted, anything else decoded).
        static func decodedCount(_ text: UnsafeBufferPointer<UInt8>) -> Int {
            let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
            var start = 0, end = text.count
            while start < end, isSpace(text[start]) { start += 1 }
            while end > start, isSpace(text[end - 1]) { end -= 1 }
            let count = end - start
            var padding = 0
            while padding < 2, end - padding > start, text[end - padding - 1] == 0x3D { padding += 1 }
            let plain = (start..<(end - padding)).allSatisfy { index in
                let b = text[index]
                return (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39) || b == 0x2B || b == 0x2F
            }
            if plain && count % 4 == 0 { return count / 4 * 3 - padding }
            return Data(base64Encoded: String(decoding: UnsafeBufferPointer(rebasing: text[start..<end]), as: UTF8.self))?.count ?? 0
        }

        private mutating func cut(at start: Int) {
            // Every open group's own values before its first child, and none after.
            guard opens.count >= 2, opens.allSatisfy({ $0.kind != .group || ($0.headerEnd != nil && !$0.lateHeader) }) else { return }
            var closing: [UInt8] = [], opening: [UInt8] = []
            for open in opens.reversed() { closing += Array("</".utf8) + Array(bytes[open.name]) + [0x3E] }
            for (index, open) in opens.enumerated() {
                opening += Array(bytes[open.start..<(open.kind == .group ? open.headerEnd! : open.tagEnd)])
                if index == 0, let recycleBin { opening += Array("<Meta>".utf8) + Array(bytes[recycleBin]) + Array("</Meta>".utf8) }
            }
            // A protected value in what opens the second part would use its stream twice.
            guard !opening.containsBytes("Protected") else {
                blocked = true
                return
            }
            found = XMLSplit(at: start, closing: closing, opening: opening, streamOffset: protectedBytes)
        }
    }
}

private extension [UInt8] {
    func containsBytes(_ text: StaticString) -> Bool {
        let needle = UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
        guard count >= needle.count else { return false }
        return (0...(count - needle.count)).contains { start in self[start..<(start + needle.count)].elementsEqual(needle) }
    }
}
