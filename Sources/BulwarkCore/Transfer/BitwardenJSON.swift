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
        var unheld = BitwardenItem.Unheld()
        let folders = groups
        // Each item read in place on the core that has it: only the entry and what the summary counts come back.
        try index.mapTapes(data, { position, tape, item in
            BitwardenItem.read(tape, item, position: position, groups: folders, now: now)
        }, take: { batch in
            for item in batch {
                switch item.made {
                case .unknownType(let problem):
                    guard skipBadRows else { throw ImportError(line: nil, message: problem + "; --skip-bad-rows imports the rest") }
                    read.rowNotes.append(problem + ", skipped")
                case .inTrash: read.inTrash += 1  // Bitwarden's trash: not a live item
                case .failed(let error): throw error
                case .made(var entry, let keptAside, let notHeld):
                    if let id = item.id, let paths = files[id] {
                        entry.attachments = paths.map { ImportFiles.pending(name: String($0.split(separator: "/").last ?? ""), key: $0, created: entry.created) }
                    }
                    unheld.count(item.seen)
                    read.keptAside += keptAside
                    read.notHeld += notHeld
                    read.entries.append(entry)
                }
            }
        })
        read.notHeld += unheld.lines
        return read
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
