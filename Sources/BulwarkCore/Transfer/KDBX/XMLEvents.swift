import CXML2
import Glibc

/// What a reader of KeePass's XML is told, in document order. Names and
/// attributes are libxml2's bytes, valid only during the call: no String
/// is made for a tag (at 100,000 entries they were a tenth of the parse).
protocol XMLEventHandler: AnyObject {
    func start(_ name: XMLName, attributes: XMLAttributes)
    func characters(_ bytes: UnsafeBufferPointer<UInt8>)
    /// The element that `start` opened last has ended.
    func end()
    /// Set to stop the parse (the reader has seen enough to refuse the document).
    var failure: String? { get }
}

/// An element's or attribute's local name, as libxml2's NUL-terminated UTF-8.
struct XMLName {
    let bytes: UnsafeBufferPointer<UInt8>

    init(_ pointer: UnsafePointer<xmlChar>) {
        bytes = UnsafeBufferPointer(start: pointer, count: strlen(UnsafeRawPointer(pointer).assumingMemoryBound(to: CChar.self)))
    }

    static func == (name: XMLName, text: StaticString) -> Bool {
        name.bytes.count == text.utf8CodeUnitCount && memcmp(name.bytes.baseAddress!, text.utf8Start, name.bytes.count) == 0
    }
}

/// One element's attributes as libxml2 hands them over: valid only during
/// `start`, looked up by name (KeePass writes one or two).
struct XMLAttributes {
    fileprivate let raw: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    fileprivate let count: Int

    /// The value's bytes, when the element has the attribute.
    func bytes(_ name: StaticString) -> UnsafeBufferPointer<UInt8>? {
        guard let raw else { return nil }
        for index in 0..<count {
            // Five pointers each: local name, prefix, URI, value start, value end.
            let base = raw + index * 5
            guard let local = base[0], XMLName(local) == name, let start = base[3], let end = base[4] else { continue }
            return UnsafeBufferPointer(start: start, count: end - start)
        }
        return nil
    }

    subscript(name: StaticString) -> String? { bytes(name).map { String(decoding: $0, as: UTF8.self) } }

    /// Whether the attribute says true, in any case (KeePass writes "True").
    func isTrue(_ name: StaticString) -> Bool {
        guard let value = bytes(name), value.count == 4 else { return false }
        return zip(value, "true".utf8).allSatisfy { $0 | 0x20 == $1 }
    }
}

/// libxml2's SAX2 push parser, fed in chunks (one buffer of more than
/// 10 MB is refused without the "huge" option), with no network, no
/// entity substitution and no DTD loading. FoundationXML's parser, used
/// before, made a String and a dictionary for every callback: a third of
/// a 100,000-entry import. Callers refuse DTDs and check the document's
/// shape (`XMLShape`) first.
enum XMLEvents {
    struct Failure: Error {
        let line: Int?
        let code: Int32
    }

    /// libxml2's global set-up, made before two parsers start at once
    /// (2.9's first parser makes it, and two at once could race in it).
    static func prepareForThreads() { xmlInitParser() }

    /// One document from `parts` in turn (a document cut in two, each part
    /// closed or opened by a few tags of its own: `XMLSplit`), none copied.
    static func parse(_ parts: [UnsafeRawBufferPointer], into handler: XMLEventHandler) throws(Failure) {
        var sax = xmlSAXHandler()
        sax.initialized = XML_SAX2_MAGIC
        sax.startElementNs = { context, localName, _, _, _, _, attributeCount, _, attributes in
            guard let context, let localName else { return }
            let box = Unmanaged<Box>.fromOpaque(context).takeUnretainedValue()
            box.handler.start(XMLName(localName), attributes: XMLAttributes(raw: attributes, count: Int(attributeCount)))
            // The reader has refused the document: nothing more is read.
            if box.handler.failure != nil, let parser = box.parser { xmlStopParser(parser) }
        }
        sax.endElementNs = { context, _, _, _ in
            guard let context else { return }
            Unmanaged<Box>.fromOpaque(context).takeUnretainedValue().handler.end()
        }
        sax.characters = { context, characters, length in
            guard let context, let characters, length > 0 else { return }
            Unmanaged<Box>.fromOpaque(context).takeUnretainedValue().handler.characters(UnsafeBufferPointer(start: characters, count: Int(length)))
        }
        // Errors are read from the context afterwards; nothing is printed:
        // not the parser's, nor those libxml2 raises without a context
        // (an encoding it cannot convert), which go to the thread's
        // structured handler, else to standard error.
        sax.serror = { _, _ in }
        xmlSetStructuredErrorFunc(nil) { _, _ in }
        defer { xmlSetStructuredErrorFunc(nil, nil) }
        let box = Box(handler)
        let context = withUnsafeMutablePointer(to: &sax) { pointer in
            xmlCreatePushParserCtxt(pointer, Unmanaged.passUnretained(box).toOpaque(), nil, 0, nil)
        }
        guard let context else { throw Failure(line: nil, code: -1) }
        box.parser = context
        defer { xmlFreeParserCtxt(context) }
        xmlCtxtUseOptions(context, Int32(XML_PARSE_NONET.rawValue | XML_PARSE_HUGE.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue))
        // libxml2 holds the box's address only: it lives until the parse ends.
        defer { withExtendedLifetime(box) {} }
        let chunk = 1 << 16
        for (index, bytes) in parts.enumerated() {
            var offset = 0
            repeat {
                let size = min(chunk, bytes.count - offset)
                let last = index == parts.count - 1 && offset + size >= bytes.count
                let status = xmlParseChunk(context, bytes.baseAddress.map { $0.assumingMemoryBound(to: CChar.self) + offset }, Int32(size), last ? 1 : 0)
                if handler.failure != nil { return }
                if status != 0 || context.pointee.wellFormed == 0 {
                    let line = Int(xmlSAX2GetLineNumber(context))
                    throw Failure(line: line > 0 ? line : nil, code: xmlCtxtGetLastError(context)?.pointee.code ?? status)
                }
                offset += size
                // libxml2 holds its own copy of what it has not finished with: a mapped export's pages behind are given back.
                if let base = bytes.baseAddress { MappedExport.passed(base + offset) }
            } while offset < bytes.count
        }
    }

    /// The handler, reachable from libxml2's context pointer.
    private final class Box {
        let handler: XMLEventHandler
        @exclusivity(unchecked) var parser: xmlParserCtxtPtr?  // set once, before the parse starts
        init(_ handler: XMLEventHandler) { self.handler = handler }
    }
}
