import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// KeePassX 0.4's XML export: `<!DOCTYPE KEEPASSX_DATABASE>`, a `<database>`
/// of nested `<group>`s (a `<title>`, an `<icon>`), each `<entry>` with
/// `<title>`, `<username>`, `<password>`, `<url>`, `<comment>` (line breaks
/// written as `<br/>`), `<icon>`, `<creation>`, `<lastaccess>`, `<lastmod>`
/// (local times, `2017-01-01T00:00:00`), `<expire>` ("Never" or a time),
/// and an attachment as `<bindesc>` and `<bin>`. The group path is the
/// tag; KeePassX's "Backup" group at the top holds what was deleted.
final class KeePassXXML: NSObject, XMLParserDelegate {
    private var groups: [String] = []
    private var entry: [String: String]?
    private var text = ""
    private var read = ImportRead()
    private let now: Date

    private init(now: Date) { self.now = now }

    static func read(_ data: Data, now: Date) throws(ImportError) -> ImportRead {
        var bytes = [UInt8](data)
        // The one declaration KeePassX writes, blanked so the shape check (which refuses DTDs) passes the rest.
        let doctype = Array("<!DOCTYPE KEEPASSX_DATABASE>".utf8)
        if let at = bytes.firstRange(of: doctype) { bytes.replaceSubrange(at, with: Array(repeating: 0x20, count: doctype.count)) }
        guard String(validating: bytes, as: UTF8.self) != nil else { throw ImportError(line: nil, message: "the XML is not valid UTF-8") }
        if let problem = XMLShape.check(bytes, depthLimit: 256) { throw ImportError(line: nil, message: "the XML is malformed (\(problem))") }
        let reader = KeePassXXML(now: now)
        let parser = XMLParser(stream: InputStream(data: Data(bytes)))
        parser.shouldResolveExternalEntities = false
        parser.delegate = reader
        guard parser.parse() else {
            throw ImportError(line: parser.lineNumber > 0 ? parser.lineNumber : nil,
                              message: "the XML is malformed (\(parser.parserError.map { $0.localizedDescription } ?? "unknown"))")
        }
        return reader.read
    }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
        switch name {
        case "group": groups.append("")
        case "entry": entry = [:]
        case "br": text += "\n"
        default: text = ""
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        switch name {
        case "group": groups.removeLast()
        case "entry":
            if let fields = entry { add(fields) }
            entry = nil
        case "br": return
        case "title" where entry == nil && !groups.isEmpty: groups[groups.count - 1] = text
        default: entry?[name] = text
        }
        if name != "br" { text = "" }
    }

    private func add(_ fields: [String: String]) {
        if groups.first == "Backup" { read.inTrash += 1; return }
        let url = fields["url"] ?? ""
        let created = Self.date(fields["creation"])
        var entry = Entry(title: fields["title"].flatMap { $0.isEmpty ? nil : $0 } ?? Importer.fallbackTitle(urls: url.isEmpty ? [] : [url]),
                          urls: url.isEmpty ? [] : [url], username: fields["username"] ?? "", password: fields["password"] ?? "",
                          notes: fields["comment"] ?? "", created: created ?? now)
        let path = groups.filter { !$0.isEmpty }.joined(separator: "/")
        if !path.isEmpty { entry.tags = [path] }
        entry.modified = Self.date(fields["lastmod"]) ?? entry.created
        entry.passwordChanged = entry.modified
        entry.expires = Self.date(fields["expire"])  // "Never" is none
        if created == nil { read.undated.insert(entry.id) }
        if let name = fields["bindesc"], !name.isEmpty { read.notHeld.append("the attachment \(name) of \(entry.title) (files from this format are not carried over yet)") }
        read.entries.append(entry)
    }

    /// KeePassX's times: local, without a zone.
    static func date(_ text: String?) -> Date? {
        guard let text, !text.isEmpty else { return nil }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
        return formatter.date(from: text)
    }
}
