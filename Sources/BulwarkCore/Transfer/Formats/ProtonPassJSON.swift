import Foundation

/// Proton Pass's export: `Proton Pass/data.json` inside a ZIP (or that JSON
/// alone): `encrypted`, and `vaults` by id, each with a `name` and `items`.
/// An item has `data` (`type`: login, alias, creditCard, note, identity,
/// sshKey, wifi, custom; `metadata` with `name` and `note`; `content`;
/// `extraFields` of `fieldName`, `type` text|hidden|totp|timestamp and
/// `data`), `state` (2: in the trash), `pinned`, `aliasEmail`, and
/// `createTime` and `modifyTime` in seconds. The vault is the tag.
enum ProtonPassJSON {
    static let kinds: [String: EntryKind] = ["login": .login, "alias": .login, "creditCard": .card, "note": .secureNote,
                                             "identity": .identity, "sshKey": .sshKey, "wifi": .other, "custom": .other]
    /// Content keys that are secrets.
    static let hidden: Set<String> = ["number", "verificationNumber", "pin", "privateKey", "password", "socialSecurityNumber",
                                      "passportNumber", "licenseNumber"]

    static func read(_ data: Data, now: Date) throws(ImportError) -> ImportRead {
        var json = data
        if ZipArchive.looksLikeZip(data) {
            do {
                let archive = try ZipArchive(data)
                guard let name = archive.names.first(where: { $0.hasPrefix("Proton Pass/") && $0.hasSuffix("data.json") }),
                      let bytes = try archive.read(name, limit: CXFImport.sizeLimit) else {
                    throw ImportError(line: nil, message: "the archive holds no Proton Pass/data.json")
                }
                json = bytes
            } catch {
                throw ImportError.wrapping(error)
            }
        }
        // The vaults' names first, then their items as they stream past.
        let itemsPath: JSONStream.Path = ["vaults", "*", "items"]
        let root = try JSONItems.shell(json, skipping: [itemsPath])
        if root["encrypted"] as? Bool == true {
            throw ImportError(line: nil, message: "this Proton Pass export is encrypted with PGP; export again without encryption (JSON or CSV) and import that")
        }
        guard let vaults = root["vaults"] as? JSONObject else { throw ImportError(line: nil, message: "no \"vaults\": not a Proton Pass export") }
        var names: [String: String] = [:]
        for id in vaults.keys { names[id] = (vaults[id] as? JSONObject)?["name"] as? String ?? "" }
        var read = ImportRead()
        let vaultNames = names
        _ = try JSONItems.read(json, streaming: [itemsPath], into: &read) { path, item in
            entry(item, vault: path.count > 1 ? vaultNames[path[1]] ?? "" : "", now: now)
        }
        return read
    }

    static func entry(_ item: JSONObject, vault: String, now: Date) -> JSONItems.Made {
        if Importer.jsonInteger(item["state"]) == 2 { return JSONItems.Made(inTrash: true) }
        let data = item["data"] as? JSONObject ?? JSONObject()
        let metadata = data["metadata"] as? JSONObject ?? JSONObject()
        let content = data["content"] as? JSONObject ?? JSONObject()
        let type = data["type"] as? String ?? ""
        var made = JSONItems.Made()
        guard let kind = kinds[type] else {
            made.notHeld.append("an item of Proton Pass type \"\(type)\", which bulwark does not know")
            return made
        }
        // The title and addresses first: the entry is made with them, so its category is guessed from them.
        let login = kind == .login
        let urls = login ? (content["urls"] as? [Any] ?? []).map(JSONItems.text).filter { !$0.isEmpty } : []
        let name = JSONItems.text(metadata["name"])
        let title = name.isEmpty ? Importer.fallbackTitle(urls: urls, note: kind == .secureNote) : name
        let username = JSONItems.text(content["itemUsername"]), email = JSONItems.text(content["itemEmail"]), totp = JSONItems.text(content["totpUri"])
        var tags = vault.isEmpty ? [] : [vault]
        if item["pinned"] as? Bool == true { tags.append("Favorites") }
        var entry = Entry(title: title, urls: urls, username: !login ? "" : username.isEmpty ? (type == "alias" ? JSONItems.text(item["aliasEmail"]) : email) : username,
                          password: login ? JSONItems.text(content["password"]) : nil, notes: JSONItems.text(metadata["note"]),
                          totpURI: login && !totp.isEmpty ? totp : nil, tags: tags, created: now, kind: kind)
        if login {
            if !username.isEmpty, !email.isEmpty { entry.fields.append(CustomField(name: "Email", value: email)) }
            let passkeys = (content["passkeys"] as? [Any])?.count ?? 0
            if passkeys > 0 { made.notHeld.append("\(passkeys) passkey\(passkeys == 1 ? "" : "s") of \(title) (Proton Pass writes its own passkey format; export them as CXF)") }
        } else {
            for key in content.keys { addFields(key, content[key], to: &entry) }
        }
        for case let field as JSONObject in data["extraFields"] as? [Any] ?? [] { entry.fields.append(extraField(field)) }
        let created = OnePasswordPUX.seconds(item["createTime"]), modified = OnePasswordPUX.seconds(item["modifyTime"])
        entry.created = created ?? modified ?? now
        entry.modified = modified ?? entry.created
        entry.passwordChanged = entry.created
        made.entry = entry
        made.undated = created == nil && modified == nil
        return made
    }

    /// A card's, an identity's, an SSH key's or a Wi-Fi's values as fields,
    /// their extra sections' fields after them.
    static func addFields(_ key: String, _ value: Any?, to entry: inout Entry) {
        if let list = value as? [Any] {
            for case let object as JSONObject in list {
                if object["fieldName"] != nil { entry.fields.append(extraField(object)) }
                for case let field as JSONObject in object["sectionFields"] as? [Any] ?? [] { entry.fields.append(extraField(field)) }
            }
            return
        }
        let text = JSONItems.text(value)
        guard !text.isEmpty, !(key == "cardType" && text == "0") else { return }
        entry.fields.append(CustomField(name: label(key), value: text, hidden: hidden.contains(key)))
    }

    /// "verificationNumber" shown as "Verification number".
    static func label(_ key: String) -> String {
        var words = ""
        for character in key { words += character.isUppercase ? " " + character.lowercased() : String(character) }
        return words.prefix(1).uppercased() + words.dropFirst()
    }

    static func extraField(_ field: JSONObject) -> CustomField {
        let data = field["data"] as? JSONObject ?? JSONObject()
        let type = field["type"] as? String ?? "text"
        let value = type == "totp" ? JSONItems.text(data["totpUri"]) : JSONItems.text(data["content"])
        return CustomField(name: JSONItems.text(field["fieldName"]), value: value, hidden: type == "hidden" || type == "totp")
    }
}
