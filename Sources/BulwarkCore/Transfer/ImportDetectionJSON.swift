import Foundation

extension ImportFormat {
    /// A JSON document's format from its keys and its first item, read up to
    /// that item and no further (a 100,000-item export is not parsed to tell).
    /// A CXF Account has "items" too: its items hold "credentials"; Enpass's
    /// a "fields" list and a "category"; Bitwarden's a numeric "type".
    static func identifyJSON(_ data: Data) -> Result<ImportIdentification, ImportNotRecognised> {
        func found(_ format: ImportFormat, _ because: String) -> Result<ImportIdentification, ImportNotRecognised> {
            .success(ImportIdentification(format: format, because: because, alsoFits: []))
        }
        struct Seen: Error, @unchecked Sendable { let path: JSONStream.Path; let item: Any }  // thrown and caught on one thread
        let object: JSONObject
        do {
            guard let root = try JSONStream.parse(data, streaming: [["items"], ["accounts", "*", "items"]], each: { throw Seen(path: $0, item: $1) }) as? JSONObject else {
                return .failure(ImportNotRecognised(description: "it is JSON, but not an object"))
            }
            object = root
        } catch let seen as Seen {
            let item = seen.item as? JSONObject
            if item?["credentials"] is [Any] { return found(.cxf, "its items' credentials (CXF)") }
            if seen.path == ["items"], item?["fields"] is [Any], item?["category"] is String || item?["template_type"] is String {
                return found(.enpassJSON, "its items' fields and category (Enpass)")
            }
            if seen.path == ["items"], Importer.jsonInteger(item?["type"]) != nil { return found(.bitwardenJSON, "its items' numeric type (Bitwarden)") }
            return .failure(ImportNotRecognised(description: "its first item is neither Bitwarden's (a numeric type), Enpass's (fields and a category) nor CXF's (credentials)"))
        } catch {
            return .failure(ImportNotRecognised(description: "it starts as JSON but does not parse (\(error))"))
        }
        let keys = Set(object.keys)
        if CXFImport.isDocument(object) { return found(.cxf, "its CXF Header or Account members") }
        if keys.contains("vaults"), keys.contains("version") || keys.contains("encrypted") { return found(.protonPassJSON, "its vaults and version (Proton Pass)") }
        let dashlane = keys.intersection(DashlaneJSON.sections)
        if !dashlane.isEmpty { return found(.dashlaneJSON, "its \(list(dashlane.sorted())) section\(dashlane.count == 1 ? "" : "s") (Dashlane)") }
        if keys.contains("encrypted") {
            return found(.bitwardenJSON, object["encrypted"] as? Bool == true ? "its encrypted key (a password-protected Bitwarden export)" : "its encrypted key (Bitwarden)")
        }
        if keys.contains("items") { return found(.bitwardenJSON, "its items key (Bitwarden)") }
        let shown = object.keys.prefix(8).map { "\"\($0)\"" }.joined(separator: ", ")
        return .failure(ImportNotRecognised(description: "a JSON document whose keys are \(shown.isEmpty ? "none" : shown): Bitwarden's and Enpass's have items, CXF's accounts, Proton Pass's vaults, Dashlane's AUTHENTIFIANT"))
    }
}
