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

    static let tagsField = "bulwark:tags", categoryField = "bulwark:category"

    static func date(_ value: Any?) -> Date? {
        guard let text = value as? String else { return nil }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }

    static func text(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }

    struct Read {
        var entries: [Entry] = []
        var inTrash = 0
        var keptAside: [String] = []
        var skipped: [String] = []
        var notHeld: [String] = []
    }

    static func read(_ data: Data, now: Date, skipBadRows: Bool = false, password: String? = nil) throws(ImportError) -> Read {
        let object: Any
        do { object = try JSONSerialization.jsonObject(with: data) } catch {
            throw ImportError(line: Importer.jsonErrorLine(data, error), message: "not valid JSON")
        }
        guard let root = object as? [String: Any] else { throw ImportError(line: nil, message: "expected a JSON object with an \"items\" list") }
        if root["encrypted"] as? Bool == true {
            guard root["passwordProtected"] as? Bool != true || password != nil else {
                throw ImportError(line: nil, message: "this Bitwarden export is password protected: its password is needed to read it")
            }
            let plain = try BitwardenEncryption.open(root, password: password ?? "")
            guard (try? JSONSerialization.jsonObject(with: plain) as? [String: Any])?["encrypted"] as? Bool != true else {
                throw ImportError(line: nil, message: "the password-protected export holds another encrypted export")
            }
            return try read(plain, now: now, skipBadRows: skipBadRows)
        }
        guard let items = root["items"] as? [[String: Any]] else { throw ImportError(line: nil, message: "no \"items\" list") }
        var groups: [String: String] = [:]
        for list in ["folders", "collections"] {
            for group in root[list] as? [[String: Any]] ?? [] {
                if let id = group["id"] as? String, let name = group["name"] as? String { groups[id] = name }
            }
        }
        var read = Read()
        for (position, item) in items.enumerated() {
            guard let type = Importer.jsonInteger(item["type"]), let kind = itemTypes[type] else {
                let problem = "item \(position + 1) has an unknown \"type\" (the numbers 1 to 5 are login, note, card, identity and SSH key)"
                guard skipBadRows else { throw ImportError(line: nil, message: problem + "; --skip-bad-rows imports the rest") }
                read.skipped.append(problem + ", skipped")
                continue
            }
            if let deleted = item["deletedDate"], !(deleted is NSNull) {
                read.inTrash += 1  // Bitwarden's trash: not a live item
                continue
            }
            let entry = try entry(item, kind: kind, position: position, groups: groups, now: now, keptAside: &read.keptAside)
            if let passkeys = (item["login"] as? [String: Any])?["fido2Credentials"] as? [Any], !passkeys.isEmpty {
                read.notHeld.append("\(passkeys.count == 1 ? "the passkey" : "\(passkeys.count) passkeys") of \(entry.title) (bulwark holds no passkeys yet; the password is imported)")
            }
            read.entries.append(entry)
        }
        return read
    }

    static func entry(_ item: [String: Any], kind: EntryKind, position: Int, groups: [String: String], now: Date,
                      keptAside: inout [String]) throws(ImportError) -> Entry {
        let login = item["login"] as? [String: Any] ?? [:]
        if kind == .login && item["login"] == nil {
            throw ImportError(line: nil, message: "item \(position + 1) is a login without a \"login\" object")
        }
        let urls = (login["uris"] as? [[String: Any]] ?? []).compactMap { $0["uri"] as? String }
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
        for collection in item["collectionIds"] as? [String] ?? [] { if let group = groups[collection] { tags.append(group) } }
        var fields: [CustomField] = []
        if let (object, known) = kindFields[kind], let values = item[object] as? [String: Any] {
            for field in known {
                guard let value = Importer.jsonText(values[field.key])?.text, !value.isEmpty else { continue }
                fields.append(CustomField(name: field.label, value: value, hidden: field.hidden))
            }
        }
        var category: AccountCategory?
        for field in item["fields"] as? [[String: Any]] ?? [] {
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
            fields.append(CustomField(name: fieldName, value: value, hidden: Importer.jsonInteger(field["type"]) == 1))
        }
        if item["favorite"] as? Bool == true, !tags.contains("Favorites") { tags.append("Favorites") }
        let created = date(item["creationDate"]) ?? now
        var entry = Entry(title: title, urls: urls, username: Importer.jsonText(login["username"])?.text ?? "",
                          password: kind.holdsPassword ? (password ?? "") : password, notes: item["notes"] as? String ?? "",
                          totpURI: login["totp"] as? String, tags: tags, category: category, created: created, kind: kind, fields: fields)
        entry.history = (item["passwordHistory"] as? [[String: Any]] ?? []).compactMap { old in
            guard let value = Importer.jsonText(old["password"])?.text else { return nil }
            return PasswordHistoryItem(password: value, changedAt: date(old["lastUsedDate"]) ?? created, reason: "from Bitwarden")
        }
        entry.modified = date(item["revisionDate"]) ?? created
        entry.passwordChanged = date(login["passwordRevisionDate"]) ?? created
        return entry
    }

    /// The export: one folder per first tag (others, and the category, as
    /// `bulwark:` fields), every kind in its own object, history and dates.
    static func write(_ entries: [Entry]) -> Data {
        var folderIDs: [String: String] = [:]
        for entry in entries { if let tag = entry.tags.first, folderIDs[tag] == nil { folderIDs[tag] = UUID().uuidString.lowercased() } }
        let folders = folderIDs.sorted { $0.key < $1.key }.map { ["id": $0.value, "name": $0.key] }
        let items = entries.map { e -> [String: Any] in
            var item: [String: Any] = [
                "id": e.id, "organizationId": NSNull(), "folderId": e.tags.first.flatMap { folderIDs[$0] }.map { $0 as Any } ?? NSNull(),
                "type": itemTypes.first { $0.value == e.kind }?.key ?? 2, "reprompt": 0, "name": e.title,
                "notes": e.notes.isEmpty ? NSNull() : e.notes, "favorite": e.tags.contains("Favorites"), "collectionIds": NSNull(),
                "creationDate": text(e.created), "revisionDate": text(e.modified), "deletedDate": NSNull(),
                "passwordHistory": e.history.isEmpty ? NSNull() : e.history.map { ["lastUsedDate": text($0.changedAt), "password": $0.password] } as Any,
            ]
            var fields = e.fields
            if let (object, known) = kindFields[e.kind] {
                var values: [String: Any] = [:]
                for field in known {
                    if let index = fields.firstIndex(where: { $0.name == field.label }) { values[field.key] = fields.remove(at: index).value } else {
                        values[field.key] = NSNull()
                    }
                }
                item[object] = values
            }
            if e.kind == .secureNote { item["secureNote"] = ["type": 0] }
            if e.kind.holdsPassword || !e.urls.isEmpty || !e.username.isEmpty {
                item["login"] = [
                    "uris": e.urls.map { ["match": NSNull(), "uri": $0] }, "username": e.username,
                    "password": e.password.map { $0 as Any } ?? NSNull(),
                    "totp": e.totpURI.map { (OTPAuthURL.bitwardenSteam($0) ?? $0) as Any } ?? NSNull(),
                    "passwordRevisionDate": text(e.passwordChanged), "fido2Credentials": [] as [Any],
                ] as [String: Any]
            }
            var exported = fields.map { ["name": $0.name, "value": $0.value, "type": $0.hidden ? 1 : 0, "linkedId": NSNull()] as [String: Any] }
            if e.tags.count > 1 { exported.append(["name": tagsField, "value": e.tags.dropFirst().joined(separator: "\n"), "type": 0, "linkedId": NSNull()]) }
            if e.categoryIsManual { exported.append(["name": categoryField, "value": e.category.rawValue, "type": 0, "linkedId": NSNull()]) }
            item["fields"] = exported
            return item
        }
        let root: [String: Any] = ["encrypted": false, "folders": folders, "items": items]
        return (try? JSONSerialization.data(withJSONObject: root, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])) ?? Data()
    }
}
