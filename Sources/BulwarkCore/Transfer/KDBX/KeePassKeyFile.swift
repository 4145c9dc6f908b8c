import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// A KeePass key file's 32 bytes, in every form KeePass reads: XML version
/// 1.0 (base64 data) and 2.0 (hex data with a hash check), 32 raw bytes,
/// 64 hex characters, and any other file hashed with SHA-256.
public enum KeePassKeyFile {
    public static func key(_ file: [UInt8]) throws(ImportError) -> [UInt8] {
        let text = String(decoding: file.prefix(1 << 20), as: UTF8.self)
        if text.contains("<KeyFile") { return try xml(file) }
        if file.count == 32 { return file }
        if file.count == 64, let bytes = hex(text), bytes.count == 32 { return bytes }
        return Digest.sha256(file)
    }

    static func hex(_ text: String) -> [UInt8]? {
        let digits = Array(text.filter { !$0.isWhitespace })
        guard digits.count % 2 == 0, digits.allSatisfy(\.isHexDigit) else { return nil }
        return stride(from: 0, to: digits.count, by: 2).compactMap { UInt8(String(digits[$0...$0 + 1]), radix: 16) }
    }

    private final class Reader: NSObject, XMLParserDelegate {
        var version = "", data = "", dataHash: String?
        private var path: [String] = [], text = ""

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
            path.append(name)
            text = ""
            if name == "Data" { dataHash = attributes["Hash"] }
            if path.count > 8 { parser.abortParsing() }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            if name == "Version" { version = text.trimmingCharacters(in: .whitespacesAndNewlines) }
            if name == "Data" { data = text }
            path.removeLast()
            text = ""
        }
    }

    static func xml(_ file: [UInt8]) throws(ImportError) -> [UInt8] {
        let text = String(decoding: file, as: UTF8.self).uppercased()
        guard !text.contains("<!DOCTYPE"), !text.contains("<!ENTITY") else { throw ImportError(line: nil, message: "the key file declares a DTD or entities; refused") }
        guard String(validating: file, as: UTF8.self) != nil else { throw ImportError(line: nil, message: "the key file's XML is not valid UTF-8") }
        if let problem = XMLShape.check(file, depthLimit: 8) { throw ImportError(line: nil, message: "the key file's XML is malformed (\(problem))") }
        let reader = Reader()
        let parser = XMLParser(data: Data(file))
        parser.shouldResolveExternalEntities = false
        parser.delegate = reader
        guard parser.parse() else { throw ImportError(line: nil, message: "the key file's XML is malformed") }
        switch reader.version {
        case "1.0", "1":
            guard let bytes = Data(base64Encoded: reader.data.trimmingCharacters(in: .whitespacesAndNewlines)), bytes.count == 32 else {
                throw ImportError(line: nil, message: "the key file (XML 1.0) does not hold 32 bytes of base64")
            }
            return Array(bytes)
        case "2.0", "2":
            guard let bytes = hex(reader.data), bytes.count == 32 else { throw ImportError(line: nil, message: "the key file (XML 2.0) does not hold 32 bytes of hex") }
            if let hash = reader.dataHash, hex(hash) != Array(Digest.sha256(bytes).prefix(4)) {
                throw ImportError(line: nil, message: "the key file is damaged (its hash check does not match its data)")
            }
            return bytes
        default:
            throw ImportError(line: nil, message: "the key file's XML version \(reader.version.isEmpty ? "(none)" : reader.version) is not one KeePass writes (1.0 or 2.0)")
        }
    }
}
