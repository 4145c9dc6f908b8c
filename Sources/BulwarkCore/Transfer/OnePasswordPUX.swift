import Foundation

/// 1Password's 1PUX export: a ZIP holding `export.data`, JSON of
/// `accounts[].vaults[].items[]`, each item with a `categoryUuid` ("001"
/// login, "002" credit card, "003" secure note, "004" identity, "005"
/// password, "114" SSH key, and others), an `overview` (title, urls, tags),
/// `details` (loginFields with a designation, notesPlain, sections of typed
/// fields, passwordHistory) and times in seconds since 1970 — as 1Password
/// writes it and as Bitwarden's and KeePassXC's importers read it.
/// Attached files (a section's `file` field, a Document's
/// `documentAttributes`) come from the archive's `files/ID__NAME`.
enum OnePasswordPUX {
    /// 1Password's categories: the bulwark kind, and the name kept on the
    /// entry when the kind alone does not say it.
    static let categories: [String: (kind: EntryKind, name: String?)] = [
        "001": (.login, nil), "002": (.card, nil), "003": (.secureNote, nil), "004": (.identity, nil), "005": (.login, "Password"),
        "006": (.secureNote, "Document"), "100": (.secureNote, "Software licence"), "101": (.secureNote, "Bank account"),
        "102": (.other, "Database"), "103": (.identity, "Driver's licence"), "104": (.identity, "Outdoor licence"),
        "105": (.identity, "Membership"), "106": (.identity, "Passport"), "107": (.identity, "Rewards programme"),
        "108": (.identity, "Social security number"), "109": (.other, "Wireless router"), "110": (.other, "Server"),
        "111": (.other, "E-mail account"), "112": (.other, "API credential"), "113": (.secureNote, "Medical record"), "114": (.sshKey, nil),
    ]

    /// Field ids 1Password uses on cards and identities, onto the labels
    /// bulwark's card and identity fields have (so a Bitwarden export of
    /// the entry puts them in Bitwarden's own places).
    static let knownFields: [EntryKind: [String: (label: String, hidden: Bool)]] = [
        .card: ["cardholder": ("Cardholder name", false), "type": ("Brand", false), "ccnum": ("Number", true), "cvv": ("Security code", true)],
        .identity: ["firstname": ("First name", false), "initial": ("Middle name", false), "lastname": ("Last name", false),
                    "company": ("Company", false), "defphone": ("Phone", false), "email": ("E-mail", false), "username": ("Username", false)],
    ]

    static let sizeLimit = 512 << 20

    static func read(_ data: Data, now: Date, skipBadRows: Bool) throws(ImportError) -> ImportRead {
        let json: Data
        var read = ImportRead()
        do {
            let archive = try ZipArchive(data)
            guard let exportData = try archive.read("export.data", limit: sizeLimit) else {
                throw ImportError(line: nil, message: "the archive has no export.data: this is not a 1Password 1PUX export")
            }
            json = exportData
            let items = try OnePasswordPUX.read(exportData: json, now: now, skipBadRows: skipBadRows)
            read.entries = items.entries
            read.inTrash = items.inTrash
            read.rowNotes = items.rowNotes
            read.notHeld += items.notHeld
            // Each file from the archive, checked by libzip's CRC as it is read.
            ImportFiles.fill(&read) { path in (try? archive.read(path, limit: Int(AttachmentLimits.standard.perFile))).flatMap { $0 }.map(Array.init) }
        } catch {
            throw ImportError.wrapping(error)
        }
        return read
    }

    /// `export.data` itself: 1Password's JSON, after libzip has checked and
    /// inflated it (what the `import-1pux` fuzz target feeds).
    static func read(exportData json: Data, now: Date, skipBadRows: Bool) throws(ImportError) -> ImportRead {
        var read = ImportRead()
        guard let root = (try? JSONSerialization.jsonObject(with: json)) as? [String: Any], let accounts = root["accounts"] as? [[String: Any]] else {
            throw ImportError(line: nil, message: "export.data is not 1Password's JSON (no \"accounts\" list)")
        }
        let vaults = accounts.flatMap { $0["vaults"] as? [[String: Any]] ?? [] }
        var position = 0
        for vault in vaults {
            let vaultName = (vault["attrs"] as? [String: Any])?["name"] as? String
            for item in vault["items"] as? [[String: Any]] ?? [] {
                position += 1
                if item["trashed"] as? Bool == true || item["state"] as? String == "deleted" {
                    read.inTrash += 1
                    continue
                }
                let category = item["categoryUuid"] as? String ?? ""
                guard let (kind, name) = categories[category] else {
                    let problem = "item \(position) has a 1Password category bulwark does not know (\(category.isEmpty ? "none" : category))"
                    guard skipBadRows else { throw ImportError(line: nil, message: problem + "; --skip-bad-rows imports the rest") }
                    read.rowNotes.append(problem + ", skipped")
                    continue
                }
                var entry = entry(item, kind: kind, now: now, notHeld: &read.notHeld)
                if let name { entry.fields.insert(CustomField(name: "Type", value: name), at: 0) }
                if vaults.count > 1, let vaultName, !vaultName.isEmpty, !entry.tags.contains(vaultName) { entry.tags.append(vaultName) }
                read.entries.append(entry)
            }
        }
        return read
    }

    static func entry(_ item: [String: Any], kind: EntryKind, now: Date, notHeld: inout [String]) -> Entry {
        let overview = item["overview"] as? [String: Any] ?? [:]
        let details = item["details"] as? [String: Any] ?? [:]
        var urls = (overview["urls"] as? [[String: Any]] ?? []).compactMap { $0["url"] as? String }.filter { !$0.isEmpty }
        if urls.isEmpty, let url = overview["url"] as? String, !url.isEmpty { urls = [url] }
        let title = (overview["title"] as? String).flatMap { $0.isEmpty ? nil : $0 } ?? Importer.fallbackTitle(urls: urls, note: kind == .secureNote)
        var entry = Entry(title: title, urls: urls, notes: details["notesPlain"] as? String ?? "",
                          tags: overview["tags"] as? [String] ?? [], created: seconds(item["createdAt"]) ?? now, kind: kind)
        if Importer.jsonInteger(item["favIndex"]).map({ $0 > 0 }) == true { entry.tags.append("Favorites") }
        if item["state"] as? String == "archived" { entry.tags.append("Archived") }
        var password: String? = details["password"] as? String
        for field in details["loginFields"] as? [[String: Any]] ?? [] {
            let value = text(field["value"])
            switch field["designation"] as? String {
            case "username" where entry.username.isEmpty && !value.isEmpty: entry.username = value
            case "password" where (password ?? "").isEmpty && !value.isEmpty: password = value
            default:
                guard !value.isEmpty || field["fieldType"] as? String == "C" else { continue }
                let type = field["fieldType"] as? String
                let shown = type == "C" ? (value.isEmpty ? "false" : "true") : value
                entry.fields.append(CustomField(name: field["name"] as? String ?? "", value: shown, hidden: type == "P"))
            }
        }
        for section in details["sections"] as? [[String: Any]] ?? [] {
            let sectionTitle = section["title"] as? String ?? ""
            for field in section["fields"] as? [[String: Any]] ?? [] {
                add(field, sectionTitle: sectionTitle, to: &entry, password: &password, notHeld: &notHeld)
            }
        }
        if let attributes = details["documentAttributes"] as? [String: Any], let file = archivedFile(attributes, created: entry.created) {
            entry.attachments.append(file)
        }
        entry.password = kind.holdsPassword ? (password ?? "") : password
        entry.history = (details["passwordHistory"] as? [[String: Any]] ?? []).compactMap { old in
            guard let value = old["value"] as? String, !value.isEmpty else { return nil }
            return PasswordHistoryItem(password: value, changedAt: seconds(old["time"]) ?? entry.created, reason: "from 1Password")
        }.sorted { $0.changedAt > $1.changedAt }
        entry.modified = seconds(item["updatedAt"]) ?? entry.created
        entry.passwordChanged = entry.history.first?.changedAt ?? entry.created
        return entry
    }

    /// One typed field of a section: the login's own parts first, the
    /// card's and identity's known ids onto bulwark's labels, the rest as
    /// custom fields (concealed ones hidden).
    static func add(_ field: [String: Any], sectionTitle: String, to entry: inout Entry, password: inout String?, notHeld: inout [String]) {
        guard let value = field["value"] as? [String: Any], let (key, raw) = value.first(where: { !($0.value is NSNull) }) else { return }
        let id = field["id"] as? String ?? ""
        let fieldTitle = field["title"] as? String ?? ""
        let name = fieldTitle.isEmpty ? (sectionTitle.isEmpty ? id : sectionTitle) : fieldTitle
        switch key {
        case "file":
            if let file = archivedFile(raw as? [String: Any] ?? [:], created: entry.created) { entry.attachments.append(file) }
            return
        case "address":
            let parts = raw as? [String: Any] ?? [:]
            for (part, label) in [("street", "Address 1"), ("city", "City"), ("state", "State"), ("zip", "Postal code"), ("country", "Country")] {
                let text = text(parts[part])
                if !text.isEmpty { entry.fields.append(CustomField(name: entry.kind == .identity ? label : "\(name): \(label)", value: text)) }
            }
            return
        case "sshKey":
            let metadata = (raw as? [String: Any])?["metadata"] as? [String: Any] ?? [:]
            for (part, label, hidden) in [("privateKey", "Private key", true), ("publicKey", "Public key", false), ("fingerprint", "Fingerprint", false)] {
                let text = text(metadata[part])
                if !text.isEmpty { entry.fields.append(CustomField(name: label, value: text, hidden: hidden)) }
            }
            return
        case "monthYear" where entry.kind == .card && id == "expiry":
            let digits = text(raw)
            if digits.count == 6 {
                entry.fields.append(CustomField(name: "Expiry month", value: String(Int(digits.suffix(2)) ?? 0)))
                entry.fields.append(CustomField(name: "Expiry year", value: String(digits.prefix(4))))
                return
            }
        default: break
        }
        var shown = text(raw)
        if key == "date", let seconds = seconds(raw) { shown = ISO8601DateFormatter.string(from: seconds, timeZone: .gmt, formatOptions: [.withFullDate]) }
        if key == "monthYear", shown.count == 6 { shown = "\(shown.prefix(4))-\(shown.suffix(2))" }
        guard !shown.isEmpty else { return }
        if entry.kind.holdsPassword {
            if key == "totp", entry.totpURI == nil {
                entry.totpURI = shown
                return
            }
            if fieldTitle == "username", entry.username.isEmpty {
                entry.username = shown
                return
            }
            if fieldTitle == "password" || fieldTitle == "credential", (password ?? "").isEmpty {
                password = shown
                return
            }
            if (id == "url" || fieldTitle == "hostname"), entry.urls.isEmpty {
                entry.urls = [shown]
                return
            }
        }
        if let known = knownFields[entry.kind]?[id] {
            entry.fields.append(CustomField(name: known.label, value: shown, hidden: known.hidden))
            return
        }
        entry.fields.append(CustomField(name: name, value: shown, hidden: key == "concealed" || key == "creditCardNumber"))
    }

    /// A file the archive holds as `files/DOCUMENTID__FILENAME` (as 1Password writes it), until its bytes are read.
    static func archivedFile(_ attributes: [String: Any], created: Date) -> Attachment? {
        guard let name = attributes["fileName"] as? String, let id = attributes["documentId"] as? String, !name.isEmpty, !id.isEmpty else { return nil }
        return ImportFiles.pending(name: name, key: "files/\(id)__\(name)", created: created)
    }

    /// A value as text: strings as they are, numbers as written, an e-mail
    /// object as its address, anything else as compact JSON.
    static func text(_ value: Any?) -> String {
        if let (text, _) = Importer.jsonText(value) { return text }
        if let email = value as? [String: Any] {
            if let address = email["email_address"] as? String { return address }
            if let string = email["string"] as? String { return string }
        }
        guard let value, !(value is NSNull), JSONSerialization.isValidJSONObject(value),
              let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys]) else { return "" }
        return String(decoding: data, as: UTF8.self)
    }

    /// 1Password's times are seconds since 1970 (a few older ones milliseconds).
    /// A time past year 9999 is no time: every number read from a file is range-checked.
    static func seconds(_ value: Any?) -> Date? { seconds(Importer.jsonInteger(value)) }

    /// Seconds or milliseconds since 1970 (a number past 10^11 is milliseconds); nil when not a date.
    static func seconds(_ number: Int?) -> Date? {
        guard let number, number > 0 else { return nil }
        let seconds = number >= 100_000_000_000 ? Double(number) / 1000 : Double(number)
        return seconds <= 253_402_300_799 ? Date(timeIntervalSince1970: seconds) : nil
    }
}
