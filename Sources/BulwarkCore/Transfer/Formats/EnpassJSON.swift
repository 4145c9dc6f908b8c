import Foundation

/// Enpass 6's JSON export: `folders` (`uuid`, `title`, `parent_uuid`) and
/// `items`, each with a `title`, a `category` (login, password, creditcard,
/// note, identity, finance, license, …), a `template_type`, `fields`
/// (`label`, `type`, `value`, `sensitive`, `deleted`), a `note`,
/// `favorite`, `trashed`, `archived`, `folders` (uuids), `createdAt` and
/// `updated_at` (seconds), and `attachments`. A login's username, password,
/// TOTP and URLs fill the entry; every other field with a value is a
/// custom field, hidden when Enpass marks it sensitive.
enum EnpassJSON {
    static let kinds: [String: EntryKind] = ["login": .login, "password": .login, "creditcard": .card, "note": .secureNote,
                                             "identity": .identity, "finance": .other, "license": .other, "travel": .other,
                                             "computer": .other, "misc": .other]

    static func read(_ data: Data, now: Date) throws(ImportError) -> ImportRead {
        var read = ImportRead()
        // One pass: an item's folders are held by id and made paths once the
        // document's folders are known, whether they come before the items
        // (as Enpass writes them) or after. A first pass for the folders
        // alone was a tenth of a 100,000-item import.
        let root = try JSONItems.read(data, streaming: [["items"]], into: &read) { _, item in entry(item, now: now) }
        let folders = folderPaths(root["folders"] as? [Any] ?? [])
        for index in read.entries.indices where read.entries[index].tags.contains(where: { $0.hasPrefix(folderMark) }) {
            var tags: [String] = []
            for tag in read.entries[index].tags {
                let named = tag.hasPrefix(folderMark) ? folders[String(tag.dropFirst(folderMark.count))] ?? "" : tag
                if !named.isEmpty, !tags.contains(named) { tags.append(named) }
            }
            read.entries[index].tags = tags
        }
        return read
    }

    /// A folder's id in a tag until the folders are known (no tag Enpass writes starts with a NUL).
    static let folderMark = "\u{0}enpass-folder:"


    /// Each folder's path of titles ("Work/Servers"), by uuid.
    static func folderPaths(_ list: [Any]) -> [String: String] {
        var byID: [String: (title: String, parent: String)] = [:]
        for case let folder as JSONObject in list {
            guard let id = folder["uuid"] as? String else { continue }
            byID[id] = ((folder["title"] as? String ?? "").trimmingCharacters(in: .whitespaces), folder["parent_uuid"] as? String ?? "")
        }
        return JSONItems.folderPaths(byID)
    }

    static func entry(_ item: JSONObject, now: Date) -> JSONItems.Made {
        if (Importer.jsonInteger(item["trashed"]) ?? 0) != 0 { return JSONItems.Made(inTrash: true) }
        let title = JSONItems.text(item["title"])
        let category = (item["category"] as? String ?? "").lowercased()
        var username = "", password: String?, totp: String?
        var urls: [String] = []
        var fields: [CustomField] = []
        for case let field as JSONObject in item["fields"] as? [Any] ?? [] {
            let value = JSONItems.text(field["value"]), type = field["type"] as? String ?? "text"
            if value.isEmpty || type == "section" || (Importer.jsonInteger(field["deleted"]) ?? 0) != 0 { continue }
            let label = (field["label"] as? String).flatMap { $0.isEmpty ? nil : $0 } ?? type
            switch type {
            case "username" where username.isEmpty, "email" where username.isEmpty: username = value
            case "password" where password == nil: password = value
            case "totp" where totp == nil: totp = value
            case "url": urls.append(value)
            case ".Android#": urls.append(value.hasPrefix("androidapp://") ? value : "androidapp://" + value)
            default: fields.append(CustomField(name: label, value: value, hidden: (Importer.jsonInteger(field["sensitive"]) ?? 0) != 0))
            }
        }
        var kind = kinds[category] ?? (password != nil ? .login : .other)
        if kind == .secureNote, password != nil { kind = .login }
        var tags: [String] = []
        for case let id as String in item["folders"] as? [Any] ?? [] { tags.append(folderMark + id) }
        if (Importer.jsonInteger(item["favorite"]) ?? 0) != 0 { tags.append("Favorites") }
        if (Importer.jsonInteger(item["archived"]) ?? 0) != 0 { tags.append("Archived") }
        let created = OnePasswordPUX.seconds(item["createdAt"]), modified = OnePasswordPUX.seconds(item["updated_at"])
        var entry = Entry(title: title.isEmpty ? Importer.fallbackTitle(urls: urls, note: kind == .secureNote) : title, urls: urls,
                          username: username, password: kind.holdsPassword ? password ?? "" : password, notes: JSONItems.text(item["note"]),
                          totpURI: totp, tags: tags, created: created ?? modified ?? now, kind: kind)
        entry.modified = modified ?? entry.created
        entry.passwordChanged = entry.created
        entry.fields = fields
        var made = JSONItems.Made(entry: entry, undated: created == nil && modified == nil)
        let attachments = (item["attachments"] as? [Any])?.count ?? 0
        if attachments > 0 { made.notHeld.append("\(attachments) attachment\(attachments == 1 ? "" : "s") of \(entry.title) (files from this format are not carried over yet)") }
        return made
    }
}
