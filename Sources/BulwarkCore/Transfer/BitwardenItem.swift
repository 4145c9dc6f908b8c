import Foundation

/// One item of Bitwarden's JSON export made into an entry, read in place
/// from its tape (`JSONTape`) on whichever core has it: no `Any` per member
/// (boxing those was most of a 100,000-item import). The item's shape is
/// `BitwardenJSON`'s; its passkeys are `BitwardenPasskeys`'.
enum BitwardenItem {
    /// One item made into an entry, or why not.
    enum Made {
        case made(Entry, keptAside: [String], notHeld: [String])
        case unknownType(String), inTrash, failed(ImportError)
    }

    /// An item as its reading core leaves it: what it made, its id (for
    /// an archive's files) and what the summary counts of it.
    struct Read {
        var made: Made
        var id: String?
        var seen = Unheld.Seen()
    }

    // Each object's members found in one look along it (`JSONTape.members`), in these orders.
    private static let itemNames = JSONTape.Names(["type", "deletedDate", "login", "name", "folderId", "collectionIds", "fields", "favorite",
                                                   "creationDate", "notes", "passwordHistory", "revisionDate", "id", "reprompt"])
    private enum Item {
        static let type = 0, deleted = 1, login = 2, name = 3, folder = 4, collections = 5, fields = 6, favorite = 7, created = 8, notes = 9,
                   history = 10, revised = 11, id = 12, reprompt = 13
    }
    private static let loginNames = JSONTape.Names(["uris", "password", "username", "totp", "passwordRevisionDate", "fido2Credentials"])
    private enum Login { static let uris = 0, password = 1, username = 2, totp = 3, passwordRevised = 4, passkeys = 5 }
    private static let uriNames = JSONTape.Names(["uri", "match"])
    private static let fieldNames = JSONTape.Names(["name", "value", "type"])
    private static let historyNames = JSONTape.Names(["password", "lastUsedDate"])
    /// A card's, an identity's and an SSH key's object by kind: its name, and its members' names in `kindFields`' order.
    private static let kindObjects: [EntryKind: (object: String, names: JSONTape.Names)] = BitwardenJSON.kindFields.mapValues {
        ($0.object, JSONTape.Names($0.fields.map(\.key)))
    }

    static func read(_ tape: JSONTape, _ item: Int, position: Int, groups: [String: String], now: Date) -> Read {
        let member = tape.members(item, itemNames)
        guard let type = member[Item.type].flatMap(tape.integer), let kind = BitwardenJSON.itemTypes[type] else {
            return Read(made: .unknownType("item \(position + 1) has an unknown \"type\" (the numbers 1 to 5 are login, note, card, identity and SSH key)"))
        }
        if tape.isSet(member[Item.deleted]) { return Read(made: .inTrash) }
        let login = tape.members(member[Item.login], loginNames)
        var keptAside: [String] = []
        do {
            // What the summary counts is noted as the entry is read (its URLs' match settings, its linked fields).
            var seen = Unheld.Seen(reprompt: (member[Item.reprompt].flatMap(tape.integer) ?? 0) != 0)
            var entry = try entry(tape, item, member, login: login, kind: kind, position: position, groups: groups, now: now,
                                  keptAside: &keptAside, seen: &seen)
            let (passkeys, notHeld) = BitwardenPasskeys.read(tape, login[Login.passkeys], title: entry.title)
            entry.passkeys = passkeys
            return Read(made: .made(entry, keptAside: keptAside, notHeld: notHeld), id: member[Item.id].flatMap(tape.string), seen: seen)
        } catch {
            return Read(made: .failed(error))
        }
    }

    private static func entry(_ tape: JSONTape, _ item: Int, _ member: [Int?], login: [Int?], kind: EntryKind, position: Int,
                              groups: [String: String], now: Date, keptAside: inout [String], seen: inout Unheld.Seen) throws(ImportError) -> Entry {
        if kind == .login && member[Item.login] == nil {
            throw ImportError(line: nil, message: "item \(position + 1) is a login without a \"login\" object")
        }
        var urls: [String] = []
        for uri in login[Login.uris].map(tape.elements) ?? [] {
            let parts = tape.members(uri, uriNames)
            if let address = parts[0].flatMap(tape.string) { urls.append(address) }
            if let setting = parts[1].flatMap(tape.integer), Unheld.matches.indices.contains(setting) { seen.matches.append(setting) }
        }
        let name = member[Item.name].flatMap(tape.string) ?? ""
        let title = name.isEmpty ? Importer.fallbackTitle(urls: urls, note: kind == .secureNote) : name
        var password: String?
        if tape.isSet(login[Login.password]) {
            guard let read = tape.scalarText(login[Login.password]) else {
                throw ImportError(line: nil, message: "item \(position + 1) (\(title)) has a password that is neither text nor a number")
            }
            password = read.text
            if read.wasNumber { keptAside.append("the password of \(title) was a JSON number in the file; it was read as the text of that number") }
        }
        var tags: [String] = []
        if let folder = member[Item.folder].flatMap(tape.string), let group = groups[folder] { tags.append(group) }
        for collection in member[Item.collections].map(tape.elements) ?? [] {
            if let id = tape.string(collection), let group = groups[id] { tags.append(group) }
        }
        var fields: [CustomField] = []
        if let (object, names) = kindObjects[kind], let known = BitwardenJSON.kindFields[kind]?.fields {
            let values = tape.members(tape.member(item, object), names)
            for (field, value) in zip(known, values) {
                guard let value = tape.scalarText(value)?.text, !value.isEmpty else { continue }
                fields.append(CustomField(name: field.label, value: value, hidden: field.hidden))
            }
        }
        var category: AccountCategory?
        var expires: Date?
        var snapshots: [EntrySnapshot] = []
        var kind = kind
        for field in member[Item.fields].map(tape.elements) ?? [] where tape.kind(field) == .object {
            let parts = tape.members(field, fieldNames)
            let fieldName = parts[0].flatMap(tape.string) ?? ""
            let value = tape.text(parts[1])
            let type = parts[2].flatMap(tape.integer)
            if type == 3 { seen.linked.append("\(fieldName) of \(title)") }
            if fieldName == BitwardenJSON.tagsField {
                tags += value.split(separator: "\n").map(String.init).filter { !tags.contains($0) }
                continue
            }
            if fieldName == BitwardenJSON.categoryField, let known = AccountCategory(rawValue: value) {
                category = known
                continue
            }
            if fieldName == BitwardenJSON.snapshotField, let snapshot = EntrySnapshot(json: value) {
                snapshots.append(snapshot)
                continue
            }
            if fieldName == BitwardenJSON.expiresField, let day = ISODate.parse(value) {
                expires = day
                continue
            }
            if fieldName == BitwardenJSON.kindField, let known = EntryKind(rawValue: value) {
                kind = known
                continue
            }
            // A linked field (type 3) is another of the item's values under a second name: named, not copied.
            if type == 3 { continue }
            fields.append(CustomField(name: fieldName, value: value, hidden: type == 1))
        }
        if tape.isTrue(member[Item.favorite]), !tags.contains("Favorites") { tags.append("Favorites") }
        let created = date(tape, member[Item.created]) ?? now
        var entry = Entry(title: title, urls: urls, username: tape.scalarText(login[Login.username])?.text ?? "",
                          password: kind.holdsPassword ? (password ?? "") : password, notes: member[Item.notes].flatMap(tape.string) ?? "",
                          totpURI: login[Login.totp].flatMap(tape.string), tags: tags, category: category, created: created, kind: kind, fields: fields)
        entry.history = (member[Item.history].map(tape.elements) ?? []).compactMap { old in
            let parts = tape.members(old, historyNames)
            guard let value = tape.scalarText(parts[0])?.text else { return nil }
            return PasswordHistoryItem(password: value, changedAt: date(tape, parts[1]) ?? created, reason: "from Bitwarden")
        }
        entry.expires = expires
        entry.snapshots = snapshots
        entry.modified = date(tape, member[Item.revised]) ?? created
        entry.passwordChanged = date(tape, login[Login.passwordRevised]) ?? created
        return entry
    }

    /// An ISO 8601 date written as a string (`BitwardenJSON.date`).
    static func date(_ tape: JSONTape, _ node: Int?) -> Date? { node.flatMap(tape.string).flatMap(ISODate.parse) }

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
}
