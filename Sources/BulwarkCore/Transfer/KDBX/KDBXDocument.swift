import Foundation

/// KeePass's XML, read with libxml2's streaming parser (`XMLEvents`; no
/// DTD, no entities: a document declaring one is refused before parsing), mapped
/// onto entries: groups to tags with the path below the root, the standard
/// strings to the entry's fields, the rest as custom fields (protected ones
/// hidden) in order, tags, times, history, TOTP, the recycle bin left out.
/// Protected values are unmasked with the inner stream in document order,
/// history entries included, as KeePass writes them.
final class KDBXDocument: XMLEventHandler {
    struct Item: Sendable {
        var strings: [(key: String, value: String, protected: Bool)] = []
        var tags: [String] = []
        var created: Date?, modified: Date?, expires: Date?, expiresSet = false
        /// Each file's name and its place among the database's binaries.
        var attachments: [(name: String, ref: Int)] = []
        var history: [Item] = []
        var group: [String] = []
        var inRecycleBin = false
    }

    /// Everything the parse changes, in one value, and without the
    /// runtime's exclusivity check: libxml2's callbacks come one at a time
    /// on the parsing thread, and none reaches the document again (the
    /// batches go to a mapper of their own). Checked, each callback's access
    /// was still a tenth of a 100,000-entry parse (one per property, a sixth).
    @exclusivity(unchecked) private var state: State

    var items: [Item] { state.items }
    var recycleBin: String? { state.recycleBin }
    var binaries: [Int: [UInt8]] { state.binaries }
    var failure: String? { state.failure }

    static let depthLimit = 128

    init(stream: StreamCiphers.KeyStream?) {
        state = State(stream: stream)
    }

    /// Entries are handed to `batches` as they close, a thousand at a time,
    /// rather than kept in `items`: the caller maps them while the rest is parsed.
    static let batchSize = 1024

    /// The document read from `xml` as it is: a plain XML export of
    /// 100,000 entries is not copied (each copy was another 56 MB).
    static func read(_ xml: some ContiguousBytes, stream: StreamCiphers.KeyStream?, batches: (([Item]) -> Void)? = nil) throws(ImportError) -> KDBXDocument {
        _ = try check(xml, findingSplit: false)
        return try parse(xml, stream: stream, batches: batches)
    }

    /// The whole of `xml` parsed in one go, after `check`.
    static func parse(_ xml: some ContiguousBytes, stream: StreamCiphers.KeyStream?, batches: (([Item]) -> Void)?) throws(ImportError) -> KDBXDocument {
        try xml.withUnsafeBytes { bytes in
            Result { () throws(ImportError) in try parse([bytes], stream: stream, batches: batches) }
        }.get()
    }

    /// What is checked before any parse: no DTD or entities, UTF-8, the
    /// shape (`XMLShape`); with `findingSplit`, where a large document can
    /// be cut in two (`XMLSplit`), if anywhere.
    static func check(_ xml: some ContiguousBytes, findingSplit: Bool) throws(ImportError) -> XMLSplit? {
        let head = xml.withUnsafeBytes { String(decoding: $0.prefix(4096), as: UTF8.self) }.uppercased()
        guard !head.contains("<!DOCTYPE"), !head.contains("<!ENTITY") else {
            throw ImportError(line: nil, message: "the database's XML declares a DTD or entities, which KeePass never writes; refused")
        }
        // A second part, which has no declaration of its own, is read as UTF-8: a document declaring another encoding is read in one go.
        let declaresOtherEncoding = head.contains("ENCODING=") && !head.contains("ENCODING=\"UTF-8\"") && !head.contains("ENCODING='UTF-8'")
        // FoundationXML crashed on an element name that is not valid UTF-8
        // (found by the kdbx-xml fuzzer): KeePass writes only UTF-8, so any
        // other byte sequence is refused before the parser sees it.
        let (problem, split): (String?, XMLSplit?) = xml.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            var finder = findingSplit && bytes.count >= XMLSplit.threshold && !declaresOtherEncoding ? XMLSplit.Finder(bytes) : nil
            guard finder != nil else {
                guard XMLShape.isUTF8(bytes) else { return ("not UTF-8", nil) }
                return (XMLShape.check(bytes, depthLimit: depthLimit, finding: &finder), nil)
            }
            // A large document read on both cores is checked on both: its encoding beside its shape (which reads bytes, whatever they encode), its shape in halves.
            nonisolated(unsafe) var isUTF8 = false
            nonisolated(unsafe) let shared = bytes
            let shape = XMLShape.checkOnTwoCores(bytes, depthLimit: depthLimit, finding: &finder) { isUTF8 = XMLShape.isUTF8(shared) }
            return isUTF8 ? (shape, finder?.found) : ("not UTF-8", nil)
        }
        if problem == "not UTF-8" { throw ImportError(line: nil, message: "the database's XML is not valid UTF-8") }
        if let problem { throw ImportError(line: nil, message: "the database's XML is malformed (\(problem))") }
        return split
    }

    /// The document from `parts` in turn (whole, or one part of a cut one),
    /// after `check`; entries go to `batches` as they close, if given.
    static func parse(_ parts: [UnsafeRawBufferPointer], stream: StreamCiphers.KeyStream?, batches: (([Item]) -> Void)?) throws(ImportError) -> KDBXDocument {
        let document = KDBXDocument(stream: stream)
        document.state.batches = batches
        var malformed: XMLEvents.Failure?
        do throws(XMLEvents.Failure) { try XMLEvents.parse(parts, into: document) } catch { malformed = error }
        if let failure = document.failure { throw ImportError(line: nil, message: failure) }
        if let malformed {
            throw ImportError(line: malformed.line, message: "the database's XML is malformed (libxml2 error \(malformed.code))")
        }
        if let batches, !document.state.batch.isEmpty { batches(document.state.batch) }
        document.state.batch = []
        return document
    }

    /// The elements this reader acts on; the rest are `other`. The path is
    /// kept as these (a list of strings compared at every tag was most of
    /// the parse).
    enum Element: UInt8 {
        case other, root, group, entry, history, meta, recycleBinUUID, uuid, name, string, binary, key, value, tags, times,
             creationTime, lastModificationTime, expiryTime, expires, binaries

        /// From the tag's bytes: by length, then the bytes themselves (no String per tag).
        init(_ name: XMLName) {
            self = .other
            for (text, element) in Self.named where name == text {
                self = element
                return
            }
        }

        private static let named: [(StaticString, Element)] = [
            ("Root", .root), ("Group", .group), ("Entry", .entry), ("History", .history), ("Meta", .meta),
            ("RecycleBinUUID", .recycleBinUUID), ("UUID", .uuid), ("Name", .name), ("String", .string), ("Binary", .binary),
            ("Key", .key), ("Value", .value), ("Tags", .tags), ("Times", .times), ("CreationTime", .creationTime),
            ("LastModificationTime", .lastModificationTime), ("ExpiryTime", .expiryTime), ("Expires", .expires), ("Binaries", .binaries),
        ]

        /// Whether the element's text is read: whitespace between the others is not gathered.
        var holdsText: Bool { self.rawValue >= Element.recycleBinUUID.rawValue && self != .string && self != .binary && self != .times && self != .binaries }
    }

    /// The parse's own state and what it does with each event.
    private struct State {
        private let stream: StreamCiphers.KeyStream?  // nil: a plain XML export, whose values are not masked
        private(set) var items: [Item] = []
        private(set) var recycleBin: String?
        private var groups: [(uuid: String, name: String)] = []
        private var entryStack: [Item] = []
        private var path: [Element] = []
        private var text = ""
        private var collecting = false
        private var key = ""
        private var valueProtected = false
        /// A plain XML export's mark of a value KeePass keeps protected (written as it is).
        private var valueProtectedInMemory = false
        private var binaryKey = ""
        /// KDBX 3.1's and a plain export's files (`Meta/Binaries`), by ID; KDBX 4 keeps them in its inner header.
        private(set) var binaries: [Int: [UInt8]] = [:]
        private var binary: (id: Int, compressed: Bool, protected: Bool)?
        private(set) var failure: String?

        var batches: (([Item]) -> Void)?
        var batch: [Item] = []

        init(stream: StreamCiphers.KeyStream?) { self.stream = stream }

        private var parent: Element? { path.count >= 2 ? path[path.count - 2] : nil }

        mutating func start(_ name: XMLName, attributes: XMLAttributes) {
            let element = Element(name)
            path.append(element)
            text = ""
            collecting = element.holdsText
            guard path.count <= KDBXDocument.depthLimit else {
                failure = "the database's XML nests deeper than \(KDBXDocument.depthLimit) levels"
                return
            }
            switch element {
            case .group where parent == .root || parent == .group:
                groups.append(("", ""))
            case .entry:
                var item = Item()
                item.group = Array(groups.dropFirst().map(\.name))
                entryStack.append(item)
            case .binary where parent == .binaries:
                // A file of the database's own: its base64 text is read (gzip when Compressed, masked when Protected).
                if let id = attributes["ID"].flatMap(Int.init) {
                    binary = (id, attributes.isTrue("Compressed"), attributes.isTrue("Protected"))
                    collecting = true
                }
            case .value:
                valueProtected = attributes.isTrue("Protected")
                valueProtectedInMemory = attributes.isTrue("ProtectInMemory")
                if parent == .binary, let ref = attributes["Ref"].flatMap(Int.init), !entryStack.isEmpty {
                    entryStack[entryStack.count - 1].attachments.append((binaryKey.isEmpty ? "attachment \(ref)" : binaryKey, ref))
                }
            default: break
            }
        }

        mutating func characters(_ bytes: UnsafeBufferPointer<UInt8>) {
            if collecting { text += String(decoding: bytes, as: UTF8.self) }
        }

        mutating func end() {
            defer {
                path.removeLast()
                text = ""
                collecting = false
            }
            guard let element = path.last else { return }
            let parent = self.parent
            switch (parent, element) {
            case (.meta, .recycleBinUUID):
                recycleBin = text
            case (.group, .uuid) where !groups.isEmpty && entryStack.isEmpty:
                groups[groups.count - 1].uuid = text
            case (.group, .name) where !groups.isEmpty && entryStack.isEmpty:
                groups[groups.count - 1].name = text
            case (_, .group) where !groups.isEmpty && entryStack.isEmpty && (parent == .root || parent == .group):
                groups.removeLast()
            case (.binaries, .binary):
                if let binary { binaries[binary.id] = decodeBinary(text, compressed: binary.compressed, protected: binary.protected) }
                binary = nil
            case (.string, .key): key = text
            case (.binary, .key): binaryKey = text
            case (.string, .value):
                var value = text
                if valueProtected { value = unmask(text) }
                if !entryStack.isEmpty { entryStack[entryStack.count - 1].strings.append((key, value, valueProtected || valueProtectedInMemory)) }
            case (.entry, .tags):
                if !entryStack.isEmpty {
                    entryStack[entryStack.count - 1].tags = text.split(whereSeparator: { $0 == ";" || $0 == "," }).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
                }
            case (.times, .creationTime): setTime { $0.created = $1 }
            case (.times, .lastModificationTime): setTime { $0.modified = $1 }
            case (.times, .expiryTime): setTime { $0.expires = $1 }
            case (.times, .expires):
                if !entryStack.isEmpty { entryStack[entryStack.count - 1].expiresSet = text == "True" || text.lowercased() == "true" }
            case (_, .entry):
                guard var item = entryStack.popLast() else { return }
                if parent == .history, !entryStack.isEmpty {
                    entryStack[entryStack.count - 1].history.append(item)
                } else {
                    item.inRecycleBin = recycleBin.map { bin in groups.contains { $0.uuid == bin } } ?? false
                    if let batches {
                        batch.append(item)
                        if batch.count == KDBXDocument.batchSize {
                            batches(batch)
                            batch.removeAll(keepingCapacity: true)
                        }
                    } else {
                        items.append(item)
                    }
                }
            default: break
            }
        }

        private mutating func setTime(_ apply: (inout Item, Date) -> Void) {
            guard !entryStack.isEmpty, let date = KDBXDocument.time(text) else { return }
            apply(&entryStack[entryStack.count - 1], date)
        }

        /// A `Meta/Binaries` file: base64, unmasked with the inner stream when
        /// protected (in document order, like every protected value), then
        /// inflated when compressed. Nil when it does not decode.
        private mutating func decodeBinary(_ base64: String, compressed: Bool, protected: Bool) -> [UInt8]? {
            guard var bytes = Data(base64Encoded: KDBXDocument.trimmed(base64)).map(Array.init) else { return nil }
            if protected {
                guard let stream else {
                    if failure == nil { failure = "a value is marked as masked, which a plain XML export never holds" }
                    return nil
                }
                bytes = stream.xor(bytes)
            }
            return compressed ? try? Gzip.inflate(bytes, limit: KDBXDocument.binaryLimit) : bytes
        }

        /// A protected value: base64, XORed with the inner stream's next bytes.
        private mutating func unmask(_ base64: String) -> String {
            guard let stream else {
                // A plain export holds no masked value: one that says it is can only be read wrong.
                if failure == nil { failure = "a value is marked as masked, which a plain XML export never holds" }
                return ""
            }
            guard let masked = Data(base64Encoded: KDBXDocument.trimmed(base64)) else { return "" }
            return String(decoding: stream.xor(Array(masked)), as: UTF8.self)
        }

    }

    func start(_ name: XMLName, attributes: XMLAttributes) { state.start(name, attributes: attributes) }
    func characters(_ bytes: UnsafeBufferPointer<UInt8>) { state.characters(bytes) }
    func end() { state.end() }

    /// The largest file inflated from a database (as the vault's own limit).
    static let binaryLimit = Int(AttachmentLimits.standard.perFile)

    /// Without the ASCII whitespace around it (Foundation's trimming, bridged to NSString, was a tenth of a KDBX's parse).
    static func trimmed(_ text: String) -> String {
        let utf8 = text.utf8
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        guard let first = utf8.first, let last = utf8.last else { return text }
        if !isSpace(first) && !isSpace(last) { return text }  // as KeePass writes it
        guard let start = utf8.firstIndex(where: { !isSpace($0) }), let end = utf8.lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(text[start...end])
    }

    /// KDBX 4 writes times as base64 of seconds since 0001-01-01 (little-endian
    /// Int64); KDBX 3.1 as RFC 3339 text.
    /// 9999-12-31T23:59:59Z in seconds since 0001-01-01.
    static let maximumSeconds: Int64 = 315_537_897_599

    static func time(_ text: String) -> Date? {
        // Eight bytes of base64 are twelve characters ending in "=", which no RFC 3339 time is: tried first.
        if !(text.utf8.count == 12 && text.utf8.last == UInt8(ascii: "=")), let date = ISODate.parse(text) { return date }
        guard let bytes = Data(base64Encoded: text), bytes.count == 8 else { return ISODate.parse(text) }
        let seconds = Int64(bitPattern: ByteReader.uint(Array(bytes)))
        // Years 1 to 9999, as KeePass's DateTime holds them; anything else
        // (Int64.min once ended the import with a trap) is no time at all.
        guard seconds >= 0, seconds <= maximumSeconds else { return nil }
        return Date(timeIntervalSince1970: Double(seconds - 62_135_596_800))
    }
}
