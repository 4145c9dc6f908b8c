import Foundation

/// 1Password 4 to 7's 1PIF export (`data.1pif` inside a `.1pif` folder):
/// one JSON object per item, separated by `***5642bee8-a5ff-11dc-8314-0800200c9a66***`
/// lines. An item has a `typeName` (webforms.WebForm, passwords.Password,
/// securenotes.SecureNote, wallet.financial.CreditCard, identities.Identity,
/// wallet.*, system.folder.Regular, system.Tombstone), `title`, `location`,
/// `folderUuid`, `faveIndex`, `trashed`, `createdAt` and `updatedAt` in
/// seconds, `openContents.tags`, and `secureContents` (`fields` with a
/// `designation` username or password, `URLs`, `notesPlain`, `password`,
/// `passwordHistory`, and `sections` of fields `k` kind, `n` name, `t`
/// title, `v` value; a `TOTP_` field is the one-time code).
enum OnePasswordPIF {
    static let separator = "***5642bee8-a5ff-11dc-8314-0800200c9a66***"

    static func looksLikePIF(_ data: Data) -> Bool {
        data.prefix(1 << 16).range(of: Data(separator.utf8)) != nil && data.first(where: { ![0xEF, 0xBB, 0xBF, 0x20, 0x0A, 0x0D].contains($0) }) == UInt8(ascii: "{")
    }

    static func kind(_ typeName: String) -> EntryKind {
        switch typeName {
        case "webforms.WebForm": .login
        case "securenotes.SecureNote": .secureNote
        case "wallet.financial.CreditCard": .card
        case "identities.Identity", "wallet.government.Passport", "wallet.government.DriversLicense", "wallet.government.SsnUS": .identity
        case "passwords.Password": .other
        default: .other
        }
    }

    static func read(_ data: Data, now: Date) throws(ImportError) -> ImportRead {
        let (text, _) = try Importer.decodeText(data)
        // Each item's lines up to the separator line; the line it starts on names a problem.
        var objects: [JSONObject] = []
        var pending: [Substring] = [], startLine = 1, line = 0
        func finish() throws(ImportError) {
            defer { pending = [] }
            let joined = pending.joined(separator: "\n").trimmingCharacters(in: CharacterSet.whitespacesAndNewlines.union(CharacterSet(charactersIn: "\u{FEFF}")))
            guard !joined.isEmpty else { return }
            let parsed: Any
            do { parsed = try JSONStream.parse(Data(joined.utf8)) } catch {
                throw ImportError(line: startLine, message: "an item is not valid JSON (\((error as? JSONStream.Failure)?.message ?? "\(error)"))")
            }
            guard let object = parsed as? JSONObject else { throw ImportError(line: startLine, message: "an item is not a JSON object") }
            objects.append(object)
        }
        for current in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            line += 1
            if current.trimmingCharacters(in: .whitespacesAndNewlines) == separator {
                try finish()
                startLine = line + 1
            } else {
                pending.append(current)
            }
        }
        try finish()
        var folders: [String: (title: String, parent: String)] = [:]
        for object in objects where (object["typeName"] as? String ?? "").hasPrefix("system.folder") {
            if let id = object["uuid"] as? String { folders[id] = (JSONItems.text(object["title"]), object["folderUuid"] as? String ?? "") }
        }
        var read = ImportRead()
        let items = objects.filter { !(($0["typeName"] as? String ?? "").hasPrefix("system.")) }
        let paths = JSONItems.folderPaths(folders)
        JSONItems.add((try? Concurrently.map(items, chunk: 512) { entry($0, folders: paths, now: now) }) ?? [], to: &read)
        return read
    }

    static func entry(_ item: JSONObject, folders: [String: String], now: Date) -> JSONItems.Made {
        if item["trashed"] as? Bool == true { return JSONItems.Made(inTrash: true) }
        let secure = item["secureContents"] as? JSONObject ?? JSONObject()
        let kind = kind(item["typeName"] as? String ?? "")
        var urls = (secure["URLs"] as? [Any] ?? []).compactMap { ($0 as? JSONObject).map { JSONItems.text($0["url"]) } }.filter { !$0.isEmpty }
        let location = JSONItems.text(item["location"])
        if urls.isEmpty, !location.isEmpty { urls = [location] }
        let signsIn = kind == .login || kind == .other
        if !signsIn { urls = [] }
        // Made with its title and addresses, so its category is guessed from them.
        let name = JSONItems.text(item["title"])
        var entry = Entry(title: name.isEmpty ? Importer.fallbackTitle(urls: urls, note: kind == .secureNote) : name, urls: urls,
                          password: signsIn ? JSONItems.text(secure["password"]) : nil, notes: JSONItems.text(secure["notesPlain"]), created: now, kind: kind)
        for case let field as JSONObject in secure["fields"] as? [Any] ?? [] {
            let value = JSONItems.text(field["value"]), designation = field["designation"] as? String ?? ""
            if designation == "username", entry.username.isEmpty { entry.username = value; continue }
            if designation == "password", (entry.password ?? "").isEmpty { entry.password = value; continue }
            // The web form's other inputs (a "remember me" box, the submit button) are not details of the account.
            if value.isEmpty || ["I", "B", "C", "R"].contains(field["type"] as? String ?? "") { continue }
            entry.fields.append(CustomField(name: JSONItems.text(field["name"]).isEmpty ? "Field" : JSONItems.text(field["name"]), value: value,
                                            hidden: field["type"] as? String == "P"))
        }
        for case let section as JSONObject in secure["sections"] as? [Any] ?? [] {
            for case let field as JSONObject in section["fields"] as? [Any] ?? [] {
                let name = JSONItems.text(field["n"]), title = JSONItems.text(field["t"])
                let value = sectionValue(field)
                guard !value.isEmpty else { continue }
                if name.hasPrefix("TOTP_"), entry.totpURI == nil { entry.totpURI = value; continue }
                entry.fields.append(CustomField(name: title.isEmpty ? name : title, value: value, hidden: field["k"] as? String == "concealed"))
            }
        }
        for case let old as JSONObject in secure["passwordHistory"] as? [Any] ?? [] {
            let value = JSONItems.text(old["value"])
            if !value.isEmpty { entry.history.append(PasswordHistoryItem(password: value, changedAt: OnePasswordPUX.seconds(old["time"]) ?? now, reason: "from 1Password")) }
        }
        if let folder = (item["folderUuid"] as? String).flatMap({ folders[$0] }), !folder.isEmpty { entry.tags.append(folder) }
        for case let tag as String in (item["openContents"] as? JSONObject)?["tags"] as? [Any] ?? [] where !entry.tags.contains(tag) { entry.tags.append(tag) }
        if (Importer.jsonInteger(item["faveIndex"]) ?? 0) > 0 { entry.tags.append("Favorites") }
        let created = OnePasswordPUX.seconds(item["createdAt"]), modified = OnePasswordPUX.seconds(item["updatedAt"])
        entry.created = created ?? modified ?? now
        entry.modified = modified ?? entry.created
        entry.passwordChanged = entry.history.map(\.changedAt).max() ?? entry.created
        return JSONItems.Made(entry: entry, undated: created == nil && modified == nil)
    }

    /// A section field's value as text: a date (seconds) as a day, a month
    /// and year (`202501`) as 2025-01, an address as its lines.
    static func sectionValue(_ field: JSONObject) -> String {
        let value = field["v"]
        switch field["k"] as? String {
        case "date":
            guard let date = OnePasswordPUX.seconds(value) else { return JSONItems.text(value) }
            return ISO8601DateFormatter.string(from: date, timeZone: TimeZone(identifier: "UTC")!, formatOptions: [.withFullDate])
        case "monthYear":
            guard let number = Importer.jsonInteger(value), number > 9999 else { return JSONItems.text(value) }
            return String(format: "%04d-%02d", number / 100, number % 100)
        case "address":
            guard let address = value as? JSONObject else { return JSONItems.text(value) }
            return ["street", "city", "state", "zip", "country"].map { JSONItems.text(address[$0]) }.filter { !$0.isEmpty }.joined(separator: ", ")
        default:
            return JSONItems.text(value)
        }
    }
}
