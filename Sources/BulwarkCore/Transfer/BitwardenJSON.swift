import Foundation

/// Bitwarden's unencrypted JSON export, read and written in its own field
/// names and encodings (its `ExportedVault` shape): `folders` with ids and
/// names (a nested folder is a name with `/`), `items` with `type` 1 login,
/// 2 secure note, 3 card, 4 identity, 5 SSH key; `fields` with `type` 0
/// text, 1 hidden, 2 boolean, 3 linked; `passwordHistory` of
/// `{lastUsedDate, password}`; ISO 8601 `creationDate` and `revisionDate`;
/// `deletedDate` set on items in the trash. What bulwark holds and
/// Bitwarden has no place for (a second tag, the category) travels as
/// custom fields named `bulwark:…`, read back on import.
enum BitwardenJSON {
    static let itemsPath: JSONStream.Path = ["items"]

    static let itemTypes: [Int: EntryKind] = [1: .login, 2: .secureNote, 3: .card, 4: .identity, 5: .sshKey]

    /// The fields of a card, an identity and an SSH key, in Bitwarden's
    /// names, with the label bulwark shows and whether the value is hidden.
    static let kindFields: [EntryKind: (object: String, fields: [(key: String, label: String, hidden: Bool)])] = [
        .card: ("card", [("cardholderName", "Cardholder name", false), ("brand", "Brand", false), ("number", "Number", true),
                         ("expMonth", "Expiry month", false), ("expYear", "Expiry year", false), ("code", "Security code", true)]),
        .identity: ("identity", [("title", "Title", false), ("firstName", "First name", false), ("middleName", "Middle name", false),
                                 ("lastName", "Last name", false), ("address1", "Address 1", false), ("address2", "Address 2", false),
                                 ("address3", "Address 3", false), ("city", "City", false), ("state", "State", false),
                                 ("postalCode", "Postal code", false), ("country", "Country", false), ("company", "Company", false),
                                 ("email", "E-mail", false), ("phone", "Phone", false), ("ssn", "Social security number", true),
                                 ("username", "Username", false), ("passportNumber", "Passport number", true),
                                 ("licenseNumber", "Licence number", true)]),
        .sshKey: ("sshKey", [("privateKey", "Private key", true), ("publicKey", "Public key", false), ("keyFingerprint", "Fingerprint", false)]),
    ]

    static let tagsField = "bulwark:tags", categoryField = "bulwark:category", kindField = "bulwark:kind", expiresField = "bulwark:expires",
               snapshotField = "bulwark:earlier-version"

    /// The folder an entry goes in: its first tag, but never "Favorites", which Bitwarden's own `favorite` says.
    static func folder(of entry: Entry) -> String? { entry.tags.first { $0 != "Favorites" } }

    /// Bitwarden's type for a kind: "other" (a server, a router, an API account) is a login, which
    /// holds its user name and password in Bitwarden; a field says it was "other".
    static func type(of kind: EntryKind) -> Int { kind == .other ? 1 : itemTypes.first { $0.value == kind }?.key ?? 2 }

    static func date(_ value: Any?) -> Date? {
        guard let text = value as? String else { return nil }
        return ISODate.parse(text)
    }

    /// Bitwarden writes milliseconds: `2024-05-06T07:08:09.000Z`.
    static func text(_ date: Date) -> String { ISODate.string(date, milliseconds: true) }

    /// Read in two passes of bulwark's own JSON reader (`JSONStream`): the
    /// document without its items (folders, collections, the encryption's
    /// members) and where each item lies, then the items on every core, so
    /// an export of 100,000 items is never one tree of objects (Foundation's `JSONSerialization`
    /// took 6.8 s and 1.1 GB for one of 82 MB).
    /// Bitwarden's export with attachments: a ZIP of `data.json` (the plain
    /// JSON export) and `attachments/ITEM-ID/FILE-NAME`, as its clients write it.
    static func readArchive(_ data: Data, now: Date, skipBadRows: Bool = false, password: String? = nil) throws(ImportError) -> ImportRead {
        do {
            let archive = try ZipArchive(data)
            guard let json = try archive.read("data.json", limit: OnePasswordPUX.sizeLimit) else {
                throw ImportError(line: nil, message: "the archive has no data.json: this is not a Bitwarden export with attachments")
            }
            var files: [String: [String]] = [:]
            for name in archive.names where name.hasPrefix("attachments/") && !name.hasSuffix("/") {
                let parts = name.split(separator: "/", maxSplits: 2).map(String.init)
                if parts.count == 3 { files[parts[1], default: []].append(name) }
            }
            var read = try self.read(json, now: now, skipBadRows: skipBadRows, password: password, files: files)
            ImportFiles.fill(&read) { path in (try? archive.read(path, limit: Int(AttachmentLimits.standard.perFile))).flatMap { $0 }.map(Array.init) }
            return read
        } catch {
            throw ImportError.wrapping(error)
        }
    }

    /// `files`: each item's attachments in the archive (by item id), when read from one.
    /// `index`: the items' index when it was made ahead (`ImportPreparation`).
    static func read(_ data: Data, now: Date, skipBadRows: Bool = false, password: String? = nil,
                     files: [String: [String]] = [:], index: JSONItemIndex? = nil) throws(ImportError) -> ImportRead {
        // The items are found first, the document read without them (folders,
        // collections, the encryption's members), then the items read and
        // made into entries on every core; their notes are taken in order.
        let index = if let index { index } else {
            try JSONItemIndex.make(data, paths: [itemsPath], notAnObject: ImportError(line: nil, message: "expected a JSON object with an \"items\" list"))
        }
        let root = index.root
        if root["encrypted"] as? Bool == true {
            guard root["passwordProtected"] as? Bool != true || password != nil else {
                throw ImportError(line: nil, message: "this Bitwarden export is password protected: its password is needed to read it")
            }
            let plain = try BitwardenEncryption.open(root.foundation, password: password ?? "")
            guard (try? shell(plain))??["encrypted"] as? Bool != true else {
                throw ImportError(line: nil, message: "the password-protected export holds another encrypted export")
            }
            return try read(plain, now: now, skipBadRows: skipBadRows, files: files)
        }
        guard root["items"] is [Any] else { throw ImportError(line: nil, message: "no \"items\" list") }
        var groups: [String: String] = [:]
        for list in ["folders", "collections"] {
            for case let group as JSONObject in root[list] as? [Any] ?? [] {
                if let id = group["id"] as? String, let name = group["name"] as? String { groups[id] = name }
            }
        }
        var read = ImportRead()
        var unheld = Unheld()
        let folders = groups
        // Each item's object is let go on the core that read it: only what the summary counts comes back.
        try index.map(data, { position, value in
            let item = value as? JSONObject ?? JSONObject()
            let made = Self.made(item, position: position, groups: folders, now: now)
            guard case .made(let entry, _, _) = made else { return (made, String?.none, Unheld.Seen()) }
            return (made, item["id"] as? String, Unheld.seen(item, title: entry.title))
        }, take: { batch in
            for (outcome, id, seen) in batch {
                switch outcome {
                case .unknownType(let problem):
                    guard skipBadRows else { throw ImportError(line: nil, message: problem + "; --skip-bad-rows imports the rest") }
                    read.rowNotes.append(problem + ", skipped")
                case .inTrash: read.inTrash += 1  // Bitwarden's trash: not a live item
                case .failed(let error): throw error
                case .made(var entry, let keptAside, let notHeld):
                    if let id, let paths = files[id] {
                        entry.attachments = paths.map { ImportFiles.pending(name: String($0.split(separator: "/").last ?? ""), key: $0, created: entry.created) }
                    }
                    unheld.count(seen)
                    read.keptAside += keptAside
                    read.notHeld += notHeld
                    read.entries.append(entry)
                }
            }
        })
        read.notHeld += unheld.lines
        return read
    }

    /// One item made into an entry, or why not.
    enum Made {
        case made(Entry, keptAside: [String], notHeld: [String])
        case unknownType(String), inTrash, failed(ImportError)
    }

    static func made(_ item: JSONObject, position: Int, groups: [String: String], now: Date) -> Made {
        guard let type = Importer.jsonInteger(item["type"]), let kind = itemTypes[type] else {
            return .unknownType("item \(position + 1) has an unknown \"type\" (the numbers 1 to 5 are login, note, card, identity and SSH key)")
        }
        if let deleted = item["deletedDate"], !(deleted is NSNull) { return .inTrash }
        var keptAside: [String] = []
        do {
            var entry = try entry(item, kind: kind, position: position, groups: groups, now: now, keptAside: &keptAside)
            var notHeld: [String] = []
            if let login = item["login"] as? JSONObject {
                let (passkeys, notRead) = BitwardenPasskeys.read(login, title: entry.title)
                entry.passkeys = passkeys
                notHeld = notRead
            }
            return .made(entry, keptAside: keptAside, notHeld: notHeld)
        } catch {
            return .failed(error)
        }
    }

    /// The document without its items; nil when it is not a JSON object.
    static func shell(_ data: Data) throws(ImportError) -> JSONObject? {
        do {
            return try JSONStream.parse(data, skipping: [["items"]]) as? JSONObject
        } catch let failure as JSONStream.Failure {
            throw ImportError(line: failure.line(in: data), message: "not valid JSON")
        } catch {
            throw ImportError(line: nil, message: "not valid JSON")
        }
    }

    static func entry(_ item: JSONObject, kind: EntryKind, position: Int, groups: [String: String], now: Date,
                      keptAside: inout [String]) throws(ImportError) -> Entry {
        let login = item["login"] as? JSONObject ?? JSONObject()
        if kind == .login && item["login"] == nil {
            throw ImportError(line: nil, message: "item \(position + 1) is a login without a \"login\" object")
        }
        let urls = (login["uris"] as? [Any] ?? []).compactMap { ($0 as? JSONObject)?["uri"] as? String }
        let name = item["name"] as? String ?? ""
        let title = name.isEmpty ? Importer.fallbackTitle(urls: urls, note: kind == .secureNote) : name
        var password: String?
        if let value = login["password"], !(value is NSNull) {
            guard let read = Importer.jsonText(value) else {
                throw ImportError(line: nil, message: "item \(position + 1) (\(title)) has a password that is neither text nor a number")
            }
            password = read.text
            if read.wasNumber { keptAside.append("the password of \(title) was a JSON number in the file; it was read as the text of that number") }
        }
        var tags: [String] = []
        if let folder = item["folderId"] as? String, let group = groups[folder] { tags.append(group) }
        for case let collection as String in item["collectionIds"] as? [Any] ?? [] { if let group = groups[collection] { tags.append(group) } }
        var fields: [CustomField] = []
        if let (object, known) = kindFields[kind], let values = item[object] as? JSONObject {
            for field in known {
                guard let value = Importer.jsonText(values[field.key])?.text, !value.isEmpty else { continue }
                fields.append(CustomField(name: field.label, value: value, hidden: field.hidden))
            }
        }
        var category: AccountCategory?
        var expires: Date?
        var snapshots: [EntrySnapshot] = []
        var kind = kind
        for case let field as JSONObject in item["fields"] as? [Any] ?? [] {
            let fieldName = field["name"] as? String ?? ""
            let value = Importer.jsonText(field["value"])?.text ?? (field["value"] as? Bool).map { $0 ? "true" : "false" } ?? ""
            if fieldName == tagsField {
                tags += value.split(separator: "\n").map(String.init).filter { !tags.contains($0) }
                continue
            }
            if fieldName == categoryField, let known = AccountCategory(rawValue: value) {
                category = known
                continue
            }
            if fieldName == snapshotField, let snapshot = EntrySnapshot(json: value) {
                snapshots.append(snapshot)
                continue
            }
            if fieldName == expiresField, let day = ISODate.parse(value) {
                expires = day
                continue
            }
            if fieldName == kindField, let known = EntryKind(rawValue: value) {
                kind = known
                continue
            }
            // A linked field (type 3) is another of the item's values under a second name: named, not copied.
            if Importer.jsonInteger(field["type"]) == 3 { continue }
            fields.append(CustomField(name: fieldName, value: value, hidden: Importer.jsonInteger(field["type"]) == 1))
        }
        if item["favorite"] as? Bool == true, !tags.contains("Favorites") { tags.append("Favorites") }
        let created = date(item["creationDate"]) ?? now
        var entry = Entry(title: title, urls: urls, username: Importer.jsonText(login["username"])?.text ?? "",
                          password: kind.holdsPassword ? (password ?? "") : password, notes: item["notes"] as? String ?? "",
                          totpURI: login["totp"] as? String, tags: tags, category: category, created: created, kind: kind, fields: fields)
        entry.history = (item["passwordHistory"] as? [Any] ?? []).compactMap { $0 as? JSONObject }.compactMap { old in
            guard let value = Importer.jsonText(old["password"])?.text else { return nil }
            return PasswordHistoryItem(password: value, changedAt: date(old["lastUsedDate"]) ?? created, reason: "from Bitwarden")
        }
        entry.expires = expires
        entry.snapshots = snapshots
        entry.modified = date(item["revisionDate"]) ?? created
        entry.passwordChanged = date(login["passwordRevisionDate"]) ?? created
        return entry
    }

    /// What Bitwarden's items set that bulwark has no place for, counted
    /// for the summary: URL match settings, linked fields, the re-prompt.
    struct Unheld {
        static let matches = ["base domain", "host", "starts with", "exact", "regular expression", "never"]
        var match: [String: Int] = [:], linked: [String] = [], reprompt = 0

        /// What one item has that bulwark does not hold: found on the core that read it, counted in order.
        struct Seen: Sendable {
            var matches: [Int] = []
            var linked: [String] = []
            var reprompt = false
        }

        static func seen(_ item: JSONObject, title: String) -> Seen {
            var seen = Seen()
            for case let uri as JSONObject in (item["login"] as? JSONObject)?["uris"] as? [Any] ?? [] {
                if let setting = Importer.jsonInteger(uri["match"]), matches.indices.contains(setting) { seen.matches.append(setting) }
            }
            for case let field as JSONObject in item["fields"] as? [Any] ?? [] where Importer.jsonInteger(field["type"]) == 3 {
                seen.linked.append("\(field["name"] as? String ?? "") of \(title)")
            }
            seen.reprompt = (Importer.jsonInteger(item["reprompt"]) ?? 0) != 0
            return seen
        }

        mutating func count(_ seen: Seen) {
            for setting in seen.matches { match[Self.matches[setting], default: 0] += 1 }
            linked += seen.linked
            if seen.reprompt { reprompt += 1 }
        }

        var lines: [String] {
            var lines = match.sorted { $0.key < $1.key }.map { setting, count in
                "the URL match setting \"\(setting)\" of \(count) address\(count == 1 ? "" : "es") (bulwark matches an address by its site)"
            }
            lines += linked.map { "the linked field \($0) (Bitwarden shows another of the item's values under it)" }
            if reprompt > 0 { lines.append("the master-password re-prompt of \(reprompt) item\(reprompt == 1 ? "" : "s") (bulwark asks for it when the vault opens)") }
            return lines
        }
    }

    /// The export: one folder per first tag (others, and the category, as
    /// `bulwark:` fields), every kind in its own object, history and dates.
    static func write(_ entries: [Entry]) -> Data {
        let sink = ByteSink(descriptor: nil)
        write(entries, to: sink)
        return Data(sink.bytes)
    }

    /// The same, into `sink` as it goes: items are made on every core, a
    /// block at a time, and written in order (an export of 100,000 entries
    /// never holds the whole text).
    static func write(_ entries: [Entry], to sink: ByteSink) {
        var folderIDs: [String: String] = [:]
        for entry in entries { if let tag = folder(of: entry), folderIDs[tag] == nil { folderIDs[tag] = EntryID.random() } }
        var head = JSONWriter(terminalSafe: false, baseDepth: 1)
        head.beginArray()
        for (name, id) in folderIDs.sorted(by: { $0.key < $1.key }) {
            head.beginObject()
            head.key("id"); head.string(id)
            head.key("name"); head.string(name)
            head.endObject()
        }
        head.endArray()
        sink.write("{\n  \"encrypted\" : false,\n  \"folders\" : ")
        head.move(to: sink)
        sink.write(",\n  \"items\" : [")
        let ids = folderIDs
        for start in stride(from: 0, to: entries.count, by: 8192) {
            let block = Array(entries[start..<min(entries.count, start + 8192)])
            let items = (try? Concurrently.map(block, chunk: 256) { (entry: Entry) in item(entry, folderIDs: ids) }) ?? []
            for (offset, item) in items.enumerated() {
                sink.write(start + offset == 0 ? "\n    " : ",\n    ")
                sink.append(item)
            }
        }
        sink.write(entries.isEmpty ? "]\n}\n" : "\n  ]\n}\n")
    }

    /// One item in Bitwarden's field names, in the order its exporter writes them.
    static func item(_ e: Entry, folderIDs: [String: String]) -> [UInt8] {
        var json = JSONWriter(terminalSafe: false, baseDepth: 2)
        json.beginObject()
        json.key("passwordHistory")
        if e.history.isEmpty { json.null() } else {
            json.beginArray()
            for old in e.history {
                json.beginObject()
                json.key("lastUsedDate"); json.string(text(old.changedAt))
                json.key("password"); json.string(old.password)
                json.endObject()
            }
            json.endArray()
        }
        json.key("revisionDate"); json.string(text(e.modified))
        json.key("creationDate"); json.string(text(e.created))
        json.key("deletedDate"); json.null()
        json.key("id"); json.string(e.id)
        json.key("organizationId"); json.null()
        let folder = folder(of: e)
        json.key("folderId"); json.optional(folder.flatMap { folderIDs[$0] })
        json.key("type"); json.int(Int64(type(of: e.kind)))
        json.key("reprompt"); json.int(0)
        json.key("name"); json.string(e.title)
        json.key("notes"); json.optional(e.notes.isEmpty ? nil : e.notes)
        json.key("favorite"); json.bool(e.tags.contains("Favorites"))
        var fields = e.fields
        if let (object, known) = kindFields[e.kind] {
            json.key(object)
            json.beginObject()
            for field in known {
                json.key(field.key)
                if let index = fields.firstIndex(where: { $0.name == field.label }) { json.string(fields.remove(at: index).value) } else { json.null() }
            }
            json.endObject()
        }
        if e.kind == .secureNote {
            json.key("secureNote")
            json.beginObject()
            json.key("type"); json.int(0)
            json.endObject()
        }
        if e.kind.holdsPassword || !e.urls.isEmpty || !e.username.isEmpty {
            json.key("login")
            json.beginObject()
            json.key("fido2Credentials"); BitwardenPasskeys.write(e.passkeys, entry: e, into: &json)
            json.key("uris")
            json.beginArray()
            for url in e.urls {
                json.beginObject()
                json.key("match"); json.null()
                json.key("uri"); json.string(url)
                json.endObject()
            }
            json.endArray()
            json.key("username"); json.string(e.username)
            json.key("password"); json.optional(e.password)
            json.key("totp"); json.optional(e.totpURI.map { OTPAuthURL.bitwardenSteam($0) ?? $0 })
            json.key("passwordRevisionDate"); json.string(text(e.passwordChanged))
            json.endObject()
        }
        json.key("fields")
        json.beginArray()
        for field in fields { self.field(name: field.name, value: field.value, hidden: field.hidden, into: &json) }
        let moreTags = e.tags.filter { $0 != folder && $0 != "Favorites" }
        if !moreTags.isEmpty { field(name: tagsField, value: moreTags.joined(separator: "\n"), hidden: false, into: &json) }
        if e.kind == .other { field(name: kindField, value: EntryKind.other.rawValue, hidden: false, into: &json) }
        if e.categoryIsManual { field(name: categoryField, value: e.category.rawValue, hidden: false, into: &json) }
        if let expires = e.expires { field(name: expiresField, value: ISODate.string(expires), hidden: false, into: &json) }
        for snapshot in e.snapshots { field(name: snapshotField, value: snapshot.json, hidden: true, into: &json) }
        json.endArray()
        json.key("collectionIds"); json.null()
        json.endObject()
        return json.bytes
    }

    static func field(name: String, value: String, hidden: Bool, into json: inout JSONWriter) {
        json.beginObject()
        json.key("name"); json.string(name)
        json.key("value"); json.string(value)
        json.key("type"); json.int(hidden ? 1 : 0)
        json.key("linkedId"); json.null()
        json.endObject()
    }
}
