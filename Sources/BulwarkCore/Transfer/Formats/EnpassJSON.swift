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

    static let itemsPath: JSONStream.Path = ["items"]

    /// Reads the export; `index` is its items' index when it was made ahead (`Importer.prepare`).
    static func read(_ data: Data, now: Date, index: JSONItemIndex? = nil) throws(ImportError) -> ImportRead {
        var read = ImportRead()
        let index = if let index { index } else { try JSONItemIndex.make(data, paths: [itemsPath]) }
        // The folders are in the document without its items, whether they
        // come before the items (as Enpass writes them) or after.
        let folders = folderPaths(index.root["folders"] as? [Any] ?? [])
        try JSONItems.read(data, index: index, into: &read) { _, tape, item in entry(tape, item, folders: folders, now: now) }
        return read
    }

    /// Each folder's path of titles ("Work/Servers"), by uuid.
    static func folderPaths(_ list: [Any]) -> [String: String] {
        var byID: [String: (title: String, parent: String)] = [:]
        for case let folder as JSONObject in list {
            guard let id = folder["uuid"] as? String else { continue }
            byID[id] = ((folder["title"] as? String ?? "").trimmingCharacters(in: .whitespaces), folder["parent_uuid"] as? String ?? "")
        }
        return JSONItems.folderPaths(byID)
    }

    private static let itemNames = JSONTape.Names(["trashed", "title", "category", "fields", "folders", "favorite", "archived",
                                                   "createdAt", "updated_at", "note", "attachments"])
    private static let fieldNames = JSONTape.Names(["value", "type", "deleted", "label", "sensitive"])

    static func entry(_ tape: JSONTape, _ item: Int, folders: [String: String], now: Date) -> JSONItems.Made {
        // Each item's and field's members found in one look along them (a look per member was a third of the reading).
        var member = [Int?](repeating: nil, count: 11)
        tape.members(item, itemNames) { which, value in member[which] = value }
        if (member[0].flatMap(tape.integer) ?? 0) != 0 { return JSONItems.Made(inTrash: true) }
        let title = tape.text(member[1])
        let category = (member[2].flatMap(tape.string) ?? "").lowercased()
        var username = "", password: String?, totp: String?
        var urls: [String] = []
        var fields: [CustomField] = []
        for field in member[3].map(tape.elements) ?? [] {
            var value: Int?, type: Int?, deleted: Int?, label: Int?, sensitive: Int?
            tape.members(field, fieldNames) { which, node in
                switch which {
                case 0: value = node
                case 1: type = node
                case 2: deleted = node
                case 3: label = node
                default: sensitive = node
                }
            }
            let text = tape.text(value), kind = type.flatMap(tape.string) ?? "text"
            if text.isEmpty || kind == "section" || (deleted.flatMap(tape.integer) ?? 0) != 0 { continue }
            let name = label.flatMap(tape.string).flatMap { $0.isEmpty ? nil : $0 } ?? kind
            switch kind {
            case "username" where username.isEmpty, "email" where username.isEmpty: username = text
            case "password" where password == nil: password = text
            case "totp" where totp == nil: totp = text
            case "url": urls.append(text)
            case ".Android#": urls.append(text.hasPrefix("androidapp://") ? text : "androidapp://" + text)
            default: fields.append(CustomField(name: name, value: text, hidden: (sensitive.flatMap(tape.integer) ?? 0) != 0))
            }
        }
        var kind = kinds[category] ?? (password != nil ? .login : .other)
        if kind == .secureNote, password != nil { kind = .login }
        var tags: [String] = []
        for folder in member[4].map(tape.elements) ?? [] {
            if let id = tape.string(folder), let named = folders[id], !named.isEmpty, !tags.contains(named) { tags.append(named) }
        }
        if (member[5].flatMap(tape.integer) ?? 0) != 0 { tags.append("Favorites") }
        if (member[6].flatMap(tape.integer) ?? 0) != 0 { tags.append("Archived") }
        let created = OnePasswordPUX.seconds(member[7].flatMap(tape.integer)), modified = OnePasswordPUX.seconds(member[8].flatMap(tape.integer))
        var entry = Entry(title: title.isEmpty ? Importer.fallbackTitle(urls: urls, note: kind == .secureNote) : title, urls: urls,
                          username: username, password: kind.holdsPassword ? password ?? "" : password, notes: tape.text(member[9]),
                          totpURI: totp, tags: tags, created: created ?? modified ?? now, kind: kind)
        entry.modified = modified ?? entry.created
        entry.passwordChanged = entry.created
        entry.fields = fields
        var made = JSONItems.Made(entry: entry, undated: created == nil && modified == nil)
        let attachments = member[10].map(tape.count) ?? 0
        if attachments > 0 { made.notHeld.append("\(attachments) attachment\(attachments == 1 ? "" : "s") of \(entry.title) (files from this format are not carried over yet)") }
        return made
    }
}
