import Foundation

/// Reads a Credential Exchange Format 1.0 document (see `CXFFields`): the
/// `Header` an exporter writes (`version`, `exporterRpId`, `accounts`), a
/// bare `Account` (Apple's `ASImportableAccount` as JSON, and several
/// exporters write one), either of them inside a ZIP archive. Each item is
/// an entry; its credentials fill it (`CXFCredentials`); collections become
/// tags, as their path of titles. A credential type, field type or
/// extension CXF 1.0 does not define is kept as a hidden custom field and
/// named, never a reason to refuse the document; a file is named as not kept.
enum CXFImport {
    static let sizeLimit = 512 << 20

    /// A JSON object that is a CXF document: a Header, or a bare Account.
    static func isDocument(_ object: JSONObject) -> Bool {
        if object["exporterRpId"] != nil, object["accounts"] is [Any] { return true }
        if let accounts = object["accounts"] as? [JSONObject], let first = accounts.first { return isAccount(first) }
        return isAccount(object)
    }

    static func isAccount(_ object: JSONObject) -> Bool {
        guard let items = object["items"] as? [Any], object["collections"] != nil || object["username"] != nil else { return false }
        guard let first = items.first else { return object["collections"] is [Any] }
        return (first as? JSONObject)?["credentials"] is [Any]
    }

    /// `index`: a bare document's items' index when it was made ahead (`ImportPreparation`).
    static func read(_ data: Data, now: Date, skipBadRows: Bool, index: JSONItemIndex? = nil) throws(ImportError) -> ImportRead {
        guard ZipArchive.looksLikeZip(data) else {
            // A bare document carries no file's bytes: its file credentials are named.
            var read = try read(json: data, now: now, index: index)
            ImportFiles.fill(&read) { _ in nil }
            return read
        }
        do {
            let archive = try ZipArchive(data)
            // The member that is a CXF document; a document that is one but does not read is said as it is.
            var problem: ImportError?
            for name in archive.names where !name.hasSuffix("/") && !name.hasPrefix("documents/") {
                guard let bytes = try archive.read(name, limit: sizeLimit) else { continue }
                var read: ImportRead
                do { read = try self.read(json: bytes, now: now) } catch {
                    // Another member (an image, another program's JSON) is passed over; a document cut short is named.
                    let looksLikeJSON = bytes.first { ![0x20, 0x0A, 0x0D, 0x09].contains($0) } == UInt8(ascii: "{")
                    if error.message != notADocument, looksLikeJSON, problem == nil {
                        problem = ImportError(line: nil, message: "\(name) in the archive: " + (error.line.map { "line \($0): " } ?? "") + error.message)
                    }
                    continue
                }
                // Each file credential's bytes: documents/ID, its SHA-256 the credential's integrityHash.
                var corrupt: Set<String> = []
                ImportFiles.fill(&read, why: { corrupt.contains($0) ? "its bytes are not the ones its integrityHash names: corrupted" : nil }) { key in
                    let parts = key.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                    guard let bytes = (try? archive.read(parts[0], limit: Int(AttachmentLimits.standard.perFile))).flatMap({ $0 }).map(Array.init) else { return nil }
                    if parts.count == 2, !parts[1].isEmpty, Base64URL.decode(parts[1]) != Digest.sha256(bytes) {
                        corrupt.insert(key)
                        return nil
                    }
                    return bytes
                }
                return read
            }
            throw problem ?? ImportError(line: nil, message: "the archive holds no Credential Exchange Format document (a JSON Header or Account)")
        } catch {
            throw ImportError.wrapping(error)
        }
    }

    static let notADocument = "not a Credential Exchange Format document: expected a Header (\"exporterRpId\", \"accounts\") or an Account (\"items\" of credentials)"

    /// Where a document's items are: a bare Account's, and each of a Header's accounts'.
    static let itemPaths: [JSONStream.Path] = [["items"], ["accounts", "*", "items"]]

    /// One item read on any core: its entry and what the summary says of
    /// it, its id (for collections and references); nil when it is not an
    /// object with credentials.
    struct Made: Sendable {
        var entry: Entry
        var notes: ImportRead
        var undated: Bool
        var id: String?
    }

    /// The items are found first (`JSONItemIndex`; in `import`, while the
    /// master password's KDF runs), then read and made into entries on
    /// every core, in order; collections, accounts' names and item
    /// references, which may come before or after them, are applied at the end.
    /// `index`: the items' index when it was made ahead (`ImportPreparation`).
    static func read(json data: Data, now: Date, index: JSONItemIndex? = nil) throws(ImportError) -> ImportRead {
        var read = ImportRead()
        let index = if let index { index } else { try JSONItemIndex.make(data, paths: itemPaths, notAnObject: ImportError(line: nil, message: notADocument)) }
        var items: [(account: Int, id: String?)] = []
        var position = 0
        try index.mapTapes(data, { _, tape, item -> Made? in
            var notes = ImportRead()
            guard let (entry, id, undated) = CXFCredentials.entry(tape, item, now: now, read: &notes) else { return nil }
            return Made(entry: entry, notes: notes, undated: undated, id: id)
        }, take: { made in
            for one in made {
                position += 1
                guard let one else {
                    // The first item says whose "items" these are (Bitwarden's have a numeric type, not credentials).
                    if items.isEmpty { throw ImportError(line: nil, message: notADocument) }
                    read.rowNotes.append("item \(position) is not an object with credentials, skipped")
                    continue
                }
                read.entries.append(one.entry)
                read.rowNotes += one.notes.rowNotes
                read.keptAside += one.notes.keptAside
                read.notHeld += one.notes.notHeld
                if one.undated { read.undated.insert(one.entry.id) }
                items.append((index.items[position - 1].outer, one.id))
            }
        })
        let object = index.root
        guard isDocument(object) || !read.entries.isEmpty else { throw ImportError(line: nil, message: notADocument) }
        if let version = object["version"] as? JSONObject, let major = Importer.jsonInteger(version["major"]), major > 1 {
            throw ImportError(line: nil, message: "this is Credential Exchange Format \(major).\(Importer.jsonInteger(version["minor"]) ?? 0); bulwark reads 1.x")
        }
        let accounts = (object["accounts"] as? [Any])?.map { $0 as? JSONObject ?? JSONObject() } ?? [object]
        // Item references name their target by its title, known once every item is read.
        var titles: [String: String] = [:]
        let referring = read.entries.contains(where: { $0.fields.contains { $0.value.hasPrefix(CXFCredentials.referenceMark) } })
        if referring {
            for (index, item) in items.enumerated() { if let id = item.id { titles[id] = read.entries[index].title } }
        }
        let tagsByAccount = accounts.map { collectionTags($0["collections"] as? [Any] ?? []) }
        // With more than one account, each item is tagged with its account's name.
        let names: [String?] = accounts.count < 2 ? [] : accounts.map { account in
            [account["fullName"], account["username"], account["email"]].compactMap { $0 as? String }.first { !$0.isEmpty }
        }
        for (index, (account, id)) in items.enumerated() where accounts.indices.contains(account) {
            let tags = id.flatMap { tagsByAccount[account][$0] } ?? [], name = names.isEmpty ? nil : names[account]
            // Most items have neither: they are left as made (a copy of each entry to change nothing was a tenth of the read).
            guard referring || !tags.isEmpty || name != nil else { continue }
            var entry = read.entries[index]
            // An item reference names the item it points at by its title, known only now.
            for (at, field) in entry.fields.enumerated() where field.value.hasPrefix(CXFCredentials.referenceMark) {
                let target = String(field.value.dropFirst(CXFCredentials.referenceMark.count))
                entry.fields[at].value = titles[target].flatMap { $0.isEmpty ? nil : $0 } ?? target
            }
            entry.tags += tags.filter { !entry.tags.contains($0) }
            if let name, !entry.tags.contains(name) { entry.tags.append(name) }
            read.entries[index] = entry
        }
        return read
    }

    /// Each item's collections as tags: the path of titles from the account down ("Work/Servers").
    static func collectionTags(_ collections: [Any], path: [String] = []) -> [String: [String]] {
        var tags: [String: [String]] = [:]
        for case let collection as JSONObject in collections {
            let title = (collection["title"] as? String).flatMap { $0.isEmpty ? nil : $0 } ?? "Untitled"
            let here = path + [title]
            for case let link as JSONObject in collection["items"] as? [Any] ?? [] {
                if let id = link["item"] as? String { tags[id, default: []].append(here.joined(separator: "/")) }
            }
            tags.merge(collectionTags(collection["subCollections"] as? [Any] ?? [], path: here)) { $0 + $1 }
        }
        return tags
    }

    /// An `EditableField`: its value as text, its field type, its label. A
    /// plain string or number where a field belongs (some exporters write
    /// one) is read as a string field.
    static func field(_ value: Any?) -> (value: String, type: String, label: String?)? {
        if let (text, _) = Importer.jsonText(value) { return (text, "string", nil) }
        guard let object = value as? JSONObject else { return nil }
        let type = object["fieldType"] as? String ?? "string"
        let text: String
        if let (plain, _) = Importer.jsonText(object["value"]) { text = plain } else if let flag = object["value"] as? Bool { text = flag ? "true" : "false" } else {
            return nil
        }
        return (text, type, object["label"] as? String)
    }

    static let fieldTypes: Set<String> = ["string", "concealed-string", "email", "number", "boolean", "date", "year-month",
                                          "wifi-network-security-type", "subdivision-code", "country-code"]

    /// Seconds since 1970 (a number past year 5138 in seconds is read as milliseconds, as a few exporters write them).
    static func date(_ value: Any?) -> Date? { OnePasswordPUX.seconds(value) }

    /// Compact JSON of what is kept as a field (sorted keys: the same value reads the same).
    static func json(_ value: Any) -> String {
        let value = JSONObject.foundation(value)
        guard JSONSerialization.isValidJSONObject(value), let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys]) else {
            return "\(value)"
        }
        return String(decoding: data, as: UTF8.self)
    }
}
