import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// KeePass's XML, read with the toolchain's streaming parser (no DTD, no
/// entities: a document declaring one is refused before parsing), mapped
/// onto entries: groups to tags with the path below the root, the standard
/// strings to the entry's fields, the rest as custom fields (protected ones
/// hidden) in order, tags, times, history, TOTP, the recycle bin left out.
/// Protected values are unmasked with the inner stream in document order,
/// history entries included, as KeePass writes them.
final class KDBXDocument: NSObject, XMLParserDelegate {
    struct Item {
        var strings: [(key: String, value: String, protected: Bool)] = []
        var tags: [String] = []
        var created: Date?, modified: Date?, expires: Date?, expiresSet = false
        var attachments: [String] = []
        var history: [Item] = []
        var group: [String] = []
        var inRecycleBin = false
    }

    private let stream: StreamCiphers.KeyStream?  // nil: a plain XML export, whose values are not masked
    private(set) var items: [Item] = []
    private(set) var recycleBin: String?
    private var groups: [(uuid: String, name: String)] = []
    private var entryStack: [Item] = []
    private var path: [String] = []
    private var text = ""
    private var key = ""
    private var valueProtected = false
    /// A plain XML export's mark of a value KeePass keeps protected (written as it is).
    private var valueProtectedInMemory = false
    private var binaryKey = ""
    private(set) var failure: String?

    static let depthLimit = 128

    init(stream: StreamCiphers.KeyStream?) {
        self.stream = stream
    }

    static func read(_ xml: [UInt8], stream: StreamCiphers.KeyStream?) throws(ImportError) -> KDBXDocument {
        try read(Data(xml), stream: stream)
    }

    /// The document read from `xml` as it is: a plain XML export of
    /// 100,000 entries is not copied (each copy was another 56 MB).
    static func read(_ xml: Data, stream: StreamCiphers.KeyStream?) throws(ImportError) -> KDBXDocument {
        let head = String(decoding: xml.prefix(4096), as: UTF8.self).uppercased()
        guard !head.contains("<!DOCTYPE"), !head.contains("<!ENTITY") else {
            throw ImportError(line: nil, message: "the database's XML declares a DTD or entities, which KeePass never writes; refused")
        }
        // FoundationXML crashes on an element name that is not valid UTF-8
        // (found by the kdbx-xml fuzzer): KeePass writes only UTF-8, so any
        // other byte sequence is refused before the parser sees it.
        let problem: String? = xml.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            guard XMLShape.isUTF8(bytes) else { return "not UTF-8" }
            return XMLShape.check(bytes, depthLimit: depthLimit)
        }
        if problem == "not UTF-8" { throw ImportError(line: nil, message: "the database's XML is not valid UTF-8") }
        if let problem { throw ImportError(line: nil, message: "the database's XML is malformed (\(problem))") }
        let document = KDBXDocument(stream: stream)
        // Fed as a stream, in chunks: given one buffer, libxml2 (without its
        // "huge" option, which FoundationXML does not set) stops at 10 MB.
        let parser = XMLParser(stream: InputStream(data: xml))
        parser.shouldResolveExternalEntities = false
        parser.shouldProcessNamespaces = false
        parser.delegate = document
        let parsed = parser.parse()
        if let failure = document.failure { throw ImportError(line: nil, message: failure) }
        guard parsed else {
            throw ImportError(line: parser.lineNumber > 0 ? parser.lineNumber : nil, message: "the database's XML is malformed (\(parser.parserError.map { "\($0.localizedDescription)" } ?? "unknown"))")
        }
        return document
    }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
        path.append(name)
        text = ""
        guard path.count <= Self.depthLimit else {
            failure = "the database's XML nests deeper than \(Self.depthLimit) levels"
            parser.abortParsing()
            return
        }
        switch name {
        case "Group" where path.dropLast().last == "Root" || path.dropLast().last == "Group":
            groups.append(("", ""))
        case "Entry":
            var item = Item()
            item.group = Array(groups.dropFirst().map(\.name))
            entryStack.append(item)
        case "Value":
            valueProtected = attributes["Protected"]?.lowercased() == "true"
            valueProtectedInMemory = attributes["ProtectInMemory"]?.lowercased() == "true"
            if path.dropLast().last == "Binary", let ref = attributes["Ref"], !entryStack.isEmpty {
                entryStack[entryStack.count - 1].attachments.append(binaryKey.isEmpty ? "attachment \(ref)" : binaryKey)
            }
        default: break
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        defer {
            path.removeLast()
            text = ""
        }
        let parent = path.dropLast().last
        switch (parent, name) {
        case ("Meta", "RecycleBinUUID"):
            recycleBin = text
        case ("Group", "UUID") where !groups.isEmpty && entryStack.isEmpty:
            groups[groups.count - 1].uuid = text
        case ("Group", "Name") where !groups.isEmpty && entryStack.isEmpty:
            groups[groups.count - 1].name = text
        case (_, "Group") where !groups.isEmpty && entryStack.isEmpty && (parent == "Root" || parent == "Group"):
            groups.removeLast()
        case ("String", "Key"), ("Binary", "Key"):
            if parent == "Binary" { binaryKey = text } else { key = text }
        case ("String", "Value"):
            var value = text
            if valueProtected { value = unmask(text) }
            if !entryStack.isEmpty { entryStack[entryStack.count - 1].strings.append((key, value, valueProtected || valueProtectedInMemory)) }
        case ("Entry", "Tags"):
            if !entryStack.isEmpty {
                entryStack[entryStack.count - 1].tags = text.split(whereSeparator: { $0 == ";" || $0 == "," }).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            }
        case ("Times", "CreationTime"): setTime { $0.created = $1 }
        case ("Times", "LastModificationTime"): setTime { $0.modified = $1 }
        case ("Times", "ExpiryTime"): setTime { $0.expires = $1 }
        case ("Times", "Expires"):
            if !entryStack.isEmpty { entryStack[entryStack.count - 1].expiresSet = text.lowercased() == "true" }
        case (_, "Entry"):
            guard var item = entryStack.popLast() else { return }
            if path.dropLast().last == "History", !entryStack.isEmpty {
                entryStack[entryStack.count - 1].history.append(item)
            } else {
                item.inRecycleBin = recycleBin.map { bin in groups.contains { $0.uuid == bin } } ?? false
                items.append(item)
            }
        default: break
        }
    }

    func parser(_ parser: XMLParser, parseErrorOccurred error: Error) {
        if failure == nil { failure = "the database's XML is malformed at line \(parser.lineNumber) (libxml2 error \((error as NSError).code))" }
    }

    private func setTime(_ apply: (inout Item, Date) -> Void) {
        guard !entryStack.isEmpty, let date = Self.time(text) else { return }
        apply(&entryStack[entryStack.count - 1], date)
    }

    /// A protected value: base64, XORed with the inner stream's next bytes.
    private func unmask(_ base64: String) -> String {
        guard let stream else {
            // A plain export holds no masked value: one that says it is can only be read wrong.
            if failure == nil { failure = "a value is marked as masked, which a plain XML export never holds" }
            return ""
        }
        guard let masked = Data(base64Encoded: base64.trimmingCharacters(in: .whitespacesAndNewlines)) else { return "" }
        return String(decoding: stream.xor(Array(masked)), as: UTF8.self)
    }

    /// KDBX 4 writes times as base64 of seconds since 0001-01-01 (little-endian
    /// Int64); KDBX 3.1 as RFC 3339 text.
    /// 9999-12-31T23:59:59Z in seconds since 0001-01-01.
    static let maximumSeconds: Int64 = 315_537_897_599

    static func time(_ text: String) -> Date? {
        if let date = ISODate.parse(text) { return date }
        guard let bytes = Data(base64Encoded: text), bytes.count == 8 else { return nil }
        let seconds = Int64(bitPattern: ByteReader.uint(Array(bytes)))
        // Years 1 to 9999, as KeePass's DateTime holds them; anything else
        // (Int64.min once ended the import with a trap) is no time at all.
        guard seconds >= 0, seconds <= maximumSeconds else { return nil }
        return Date(timeIntervalSince1970: Double(seconds - 62_135_596_800))
    }
}
