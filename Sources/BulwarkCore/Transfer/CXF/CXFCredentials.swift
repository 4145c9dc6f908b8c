import Foundation

/// One CXF item as an entry: its credentials, each onto bulwark's place
/// for it (the table in `CXFFields`, the mapping in docs/manual/cxf.md).
enum CXFCredentials {
    /// Marks an item reference's target id until the whole document is read (then its title replaces it).
    static let referenceMark = "\u{0}cxf-item:"

    private static let itemNames = JSONTape.Names(["credentials", "scope", "title", "creationAt", "modifiedAt", "tags", "favorite", "subtitle",
                                                   "extensions", "id"])
    private enum Item { static let credentials = 0, scope = 1, title = 2, created = 3, modified = 4, tags = 5, favorite = 6, subtitle = 7, extensions = 8, id = 9 }
    private static let scopeNames = JSONTape.Names(["urls", "androidApps"])
    private static let credentialNames = JSONTape.Names(["type", "username", "password", "content"])
    private enum Credential { static let type = 0, username = 1, password = 2, content = 3 }

    /// One item read in place from its tape (`JSONTape`): the common
    /// credentials (sign-ins, notes, generated passwords) straight from
    /// it, the rarer ones as `JSONStream`'s values, which `add` reads.
    /// nil when the item is not an object with a list of credentials; else
    /// its entry, its id, and whether it said neither of its dates.
    static func entry(_ tape: JSONTape, _ item: Int, now: Date, read: inout ImportRead) -> (entry: Entry, id: String?, undated: Bool)? {
        let member = tape.members(item, itemNames)
        guard let list = member[Item.credentials], tape.kind(list) == .array else { return nil }
        let credentials = tape.elements(list).filter { tape.kind($0) == .object }
        let parts = credentials.map { tape.members($0, credentialNames) }
        let types = parts.compactMap { $0[Credential.type].flatMap(tape.string) }
        let scope = tape.members(member[Item.scope], scopeNames)
        var urls = (scope[0].map(tape.elements) ?? []).compactMap(tape.string).filter { !$0.isEmpty }
        for app in scope[1].map(tape.elements) ?? [] {
            if let bundle = tape.member(app, "bundleId").flatMap(tape.string), !bundle.isEmpty { urls.append("androidapp://" + bundle) }  // Bitwarden's spelling
        }
        // bulwark's own group (a custom-fields credential) may say the kind.
        let ownGroups = zip(credentials, types).compactMap { $1 == "custom-fields" ? tape.value($0) as? JSONObject : nil }
        let kind = ownKind(ownGroups) ?? kind(of: types)
        let title = member[Item.title].flatMap(tape.string).flatMap { $0.isEmpty ? nil : $0 } ?? Importer.fallbackTitle(urls: urls, note: kind == .secureNote)
        let created = OnePasswordPUX.seconds(member[Item.created].flatMap(tape.integer)) ?? now
        var entry = Draft(title: title, urls: urls, tags: (member[Item.tags].map(tape.elements) ?? []).compactMap(tape.string))
        if tape.isTrue(member[Item.favorite]), !entry.tags.contains("Favorites") { entry.tags.append("Favorites") }
        var password: String?
        var context = Context(title: title, created: created)
        for (index, (credential, part)) in zip(credentials, parts).enumerated() {
            guard let type = part[Credential.type].flatMap(tape.string) else {
                read.rowNotes.append("\(title): credential \(index + 1) names no type, skipped")
                continue
            }
            switch type {
            case "basic-auth":
                addSignIn(user: field(tape, part[Credential.username])?.value ?? "", secret: field(tape, part[Credential.password])?.value,
                          to: &entry, password: &password)
            case "note":
                let text = field(tape, part[Credential.content])?.value ?? ""
                if !text.isEmpty { entry.notes = entry.notes.isEmpty ? text : entry.notes + "\n\n" + text }
            case "generated-password":
                guard let generated = part[Credential.password].flatMap(tape.string), !generated.isEmpty else { continue }
                if password == nil || password == "" { password = generated } else {
                    entry.fields.append(CustomField(name: "Generated password", value: generated, hidden: true))
                }
            default:
                add(type, tape.value(credential) as? JSONObject ?? JSONObject(), to: &entry, password: &password, context: &context, read: &read)
            }
        }
        if let subtitle = member[Item.subtitle].flatMap(tape.string), !subtitle.isEmpty, subtitle != entry.username {
            entry.fields.insert(CustomField(name: "Subtitle", value: subtitle), at: 0)
        }
        for case let extensionObject as JSONObject in (member[Item.extensions].map(tape.elements) ?? []).compactMap(tape.value) {
            keepUnknown("extension", extensionObject["name"] as? String ?? "unnamed", extensionObject, title: title, entry: &entry, read: &read)
        }
        entry.history.sort { $0.changedAt > $1.changedAt }
        // An SSH key's type is the public key's first word when it has one: kept once.
        if kind == .sshKey, let type = entry.fields.first(where: { $0.name == "Key type" })?.value,
           let publicKey = entry.fields.first(where: { $0.name == "Public key" })?.value, publicKey.split(separator: " ").first.map(String.init) == type {
            entry.fields.removeAll { $0.name == "Key type" }
        }
        if let order = fieldOrder(kind), !entry.fields.isEmpty {
            // Known labels in bulwark's order, whichever credential each came from; the rest after, as they came.
            let rank = Dictionary(order.enumerated().map { ($1, $0) }) { first, _ in first }
            entry.fields = entry.fields.enumerated().sorted { a, b in
                (rank[a.element.name] ?? Int.max, a.offset) < (rank[b.element.name] ?? Int.max, b.offset)
            }.map(\.element)
        }
        // Made whole at once: each change of a made entry's text copies it (100,000 items a file).
        var made = Entry(title: entry.title, urls: entry.urls, username: entry.username, password: kind.holdsPassword ? (password ?? "") : password,
                         notes: entry.notes, totpURI: entry.totpURI, tags: entry.tags, category: entry.category, created: created,
                         history: entry.history, kind: kind, fields: entry.fields)
        made.modified = OnePasswordPUX.seconds(member[Item.modified].flatMap(tape.integer)) ?? created
        made.passwordChanged = context.passwordChanged ?? made.modified
        if !entry.passkeys.isEmpty { made.passkeys = entry.passkeys }
        made.expires = context.expires
        made.snapshots = context.snapshots
        if !entry.attachments.isEmpty { made.attachments = entry.attachments }
        return (made, member[Item.id].flatMap(tape.string), member[Item.created] == nil && member[Item.modified] == nil)
    }

    /// A sign-in (basic-auth): the entry's user name and password, or a
    /// second one on one item kept beside the first.
    static func addSignIn(user: String, secret: String?, to entry: inout Draft, password: inout String?) {
        if entry.username.isEmpty, password == nil {
            entry.username = user
            password = secret
        } else {
            if !user.isEmpty { entry.fields.append(CustomField(name: "Username", value: user)) }
            if let secret, !secret.isEmpty { entry.fields.append(CustomField(name: "Password", value: secret, hidden: true)) }
        }
    }

    /// An `EditableField` read off a tape, as `CXFImport.field` reads one.
    static func field(_ tape: JSONTape, _ node: Int?) -> (value: String, type: String, label: String?)? {
        guard let node else { return nil }
        if let (text, _) = tape.scalarText(node) { return (text, "string", nil) }
        guard tape.kind(node) == .object else { return nil }
        let parts = tape.members(node, fieldNames)
        let text: String
        if let (plain, _) = tape.scalarText(parts[1]) { text = plain } else if let value = parts[1], tape.kind(value) == .true || tape.kind(value) == .false {
            text = tape.text(value)
        } else {
            return nil
        }
        return (text, parts[0].flatMap(tape.string) ?? "string", parts[2].flatMap(tape.string))
    }

    private static let fieldNames = JSONTape.Names(["fieldType", "value", "label"])

    /// An entry's parts while its credentials are read.
    struct Draft {
        var title: String
        var urls: [String]
        var username = ""
        var notes = ""
        var totpURI: String?
        var tags: [String]
        var fields: [CustomField] = []
        var passkeys: [Passkey] = []
        var history: [PasswordHistoryItem] = []
        /// File credentials, their bytes in the archive's documents/ until read.
        var attachments: [Attachment] = []
        /// Chosen (bulwark's group said so); nil: guessed from the site.
        var category: AccountCategory?

        init(title: String, urls: [String], tags: [String]) {
            self.title = title
            self.urls = urls
            self.tags = tags
        }
    }

    static func fieldOrder(_ kind: EntryKind) -> [String]? {
        switch kind {
        case .identity: CXFFields.identityOrder
        case .card: CXFFields.cardOrder
        case .sshKey: sshOrder
        default: nil
        }
    }

    static let sshOrder = ["Private key", "Public key", "Fingerprint", "Key type", "Comment"] + CXFFields.sshKey.map(\.label)

    /// The kind bulwark said in its own group, when its credentials say another.
    static func ownKind(_ credentials: [JSONObject]) -> EntryKind? {
        for credential in credentials where credential["type"] as? String == "custom-fields" && credential["label"] as? String == CXFExport.ownGroup {
            for case let field as JSONObject in credential["fields"] as? [Any] ?? [] where field["label"] as? String == "kind" {
                if let kind = (field["value"] as? String).flatMap(EntryKind.init(rawValue:)) { return kind }
            }
        }
        return nil
    }

    /// The kind an item's credentials say it is.
    static func kind(of types: [String]) -> EntryKind {
        // The strongest claim among the item's few types (one pass, nothing allocated: 100,000 items a file).
        var rank = 0, kind = EntryKind.secureNote
        for type in types {
            let (claim, said): (Int, EntryKind) = switch type {
            case "basic-auth", "passkey": (6, .login)
            case "credit-card": (5, .card)
            case "ssh-key": (4, .sshKey)
            case "identity-document", "passport", "drivers-license", "person-name", "address": (3, .identity)
            case "wifi", "api-key": (2, .other)
            case "totp", "generated-password": (1, .login)
            default: (0, .secureNote)
            }
            if claim > rank { (rank, kind) = (claim, said) }
        }
        return kind
    }

    struct Context {
        let title: String
        let created: Date
        var passwordChanged: Date?
        var expires: Date?
        var snapshots: [EntrySnapshot] = []
        var passkeyCreated: [String: Date] = [:]
    }

    static func add(_ type: String, _ credential: JSONObject, to entry: inout Draft, password: inout String?, context: inout Context,
                    read: inout ImportRead) {
        switch type {
        case "basic-auth":
            addSignIn(user: CXFImport.field(credential["username"])?.value ?? "", secret: CXFImport.field(credential["password"])?.value,
                      to: &entry, password: &password)
        case "passkey": addPasskey(credential, to: &entry, context: context, read: &read)
        case "totp": addCode(credential, to: &entry, read: &read)
        case "note":
            let text = CXFImport.field(credential["content"])?.value ?? ""
            if !text.isEmpty { entry.notes = entry.notes.isEmpty ? text : entry.notes + "\n\n" + text }
        case "credit-card":
            members(CXFFields.creditCard, of: credential, into: &entry)
            if let expiry = CXFImport.field(credential["expiryDate"])?.value, !expiry.isEmpty {
                let parts = expiry.split(separator: "-")
                if parts.count == 2, let year = Int(parts[0]), let month = Int(parts[1]), (1...12).contains(month) {
                    entry.fields.append(CustomField(name: "Expiry month", value: String(month)))
                    entry.fields.append(CustomField(name: "Expiry year", value: String(year)))
                } else {
                    entry.fields.append(CustomField(name: "Expiry date", value: expiry))
                }
            }
        case "person-name": members(CXFFields.personName, of: credential, into: &entry)
        case "address": members(CXFFields.address, of: credential, into: &entry)
        case "identity-document": members(CXFFields.identityDocument, of: credential, into: &entry)
        case "passport": members(CXFFields.passport, of: credential, into: &entry)
        case "drivers-license": members(CXFFields.driversLicense, of: credential, into: &entry)
        case "wifi":
            members(CXFFields.wifi, of: credential, into: &entry)
            if let passphrase = CXFImport.field(credential["passphrase"])?.value, !passphrase.isEmpty {
                if password == nil { password = passphrase } else { entry.fields.append(CustomField(name: "Passphrase", value: passphrase, hidden: true)) }
            }
        case "api-key":
            members(CXFFields.apiKey, of: credential, into: &entry)
            if let user = CXFImport.field(credential["username"])?.value, !user.isEmpty {
                if entry.username.isEmpty { entry.username = user } else { entry.fields.append(CustomField(name: "Username", value: user)) }
            }
            if let url = CXFImport.field(credential["url"])?.value, !url.isEmpty, !entry.urls.contains(url) { entry.urls.append(url) }
        case "ssh-key": addSSHKey(credential, to: &entry, read: &read)
        case "generated-password":
            guard let generated = credential["password"] as? String, !generated.isEmpty else { return }
            if password == nil || password == "" { password = generated } else {
                entry.fields.append(CustomField(name: "Generated password", value: generated, hidden: true))
            }
        case "custom-fields": addCustomFields(credential, to: &entry, context: &context, read: &read)
        case "item-reference":
            let target = ((credential["reference"] as? JSONObject)?["item"] as? String) ?? ""
            entry.fields.append(CustomField(name: "Linked item", value: referenceMark + target))
        case "file":
            // Its bytes are the archive's documents/ID, checked against integrityHash when read (`CXFImport`).
            guard let id = credential["id"] as? String, !id.isEmpty, let name = credential["name"] as? String, !name.isEmpty else {
                read.notHeld.append("a file of \(context.title) that names no id or name")
                return
            }
            entry.attachments.append(ImportFiles.pending(name: name, key: "documents/\(id)#\(credential["integrityHash"] as? String ?? "")", created: context.created))
        default:
            keepUnknown("credential type", type, credential, title: context.title, entry: &entry, read: &read)
        }
    }

    /// The members of a credential that `table` names, as fields of their labels (unknown field types kept too).
    static func members(_ table: [CXFFields.Member], of credential: JSONObject, into entry: inout Draft) {
        for member in table {
            guard let field = CXFImport.field(credential[member.key]), !field.value.isEmpty else { continue }
            entry.fields.append(CustomField(name: member.label, value: field.value, hidden: member.hidden || field.type == "concealed-string"))
        }
    }

    static func addPasskey(_ credential: JSONObject, to entry: inout Draft, context: Context, read: inout ImportRead) {
        let rpID = (credential["rpId"] as? String ?? "").lowercased()
        let which = "the passkey of \(context.title)\(rpID.isEmpty ? "" : " for \(rpID)")"
        guard let idText = credential["credentialId"] as? String, let id = Base64URL.decode(idText), !id.isEmpty, !rpID.isEmpty,
              let keyText = credential["key"] as? String, let pkcs8 = Base64URL.decode(keyText) else {
            read.notHeld.append("\(which) (its id, relying party or key is missing or not base64url)")
            return
        }
        guard (try? P256PrivateKey(pkcs8: pkcs8)) != nil else {
            read.notHeld.append("\(which) (not an ES256 key on P-256, the kind bulwark's passkeys are)")
            return
        }
        if credential["fido2Extensions"] != nil { read.notHeld.append("the FIDO2 extensions of \(which) (hmac-secret, credBlob, largeBlob)") }
        entry.passkeys.append(Passkey(credentialID: id, rpID: rpID, userHandle: (credential["userHandle"] as? String).flatMap(Base64URL.decode) ?? [],
                                      userName: credential["username"] as? String ?? "", userDisplayName: credential["userDisplayName"] as? String ?? "",
                                      privateKey: pkcs8, created: context.passkeyCreated[idText] ?? context.created))
    }

    static func addCode(_ credential: JSONObject, to entry: inout Draft, read: inout ImportRead) {
        let secretText = (credential["secret"] as? String ?? "").uppercased()
        let algorithm = (credential["algorithm"] as? String ?? "sha1").lowercased()
        if algorithm == "steam", let secret = try? Base32.decode(secretText), !secret.isEmpty {
            // Bitwarden writes a Steam code's algorithm as "steam" (CXF has no encoder).
            let uri = OTPAuthURL.build(.steam(secret: secret, account: (credential["username"] as? String) ?? entry.username))
            if entry.totpURI == nil { entry.totpURI = uri } else { entry.fields.append(CustomField(name: "TOTP", value: uri, hidden: true)) }
            return
        }
        let digest: HMACDigest? = HMACDigest(rawValue: algorithm.uppercased())
        let period = Importer.jsonInteger(credential["period"]) ?? 30, digits = Importer.jsonInteger(credential["digits"]) ?? 6
        guard let secret = try? Base32.decode(secretText), !secret.isEmpty, let digest, (1...86_400).contains(period), (6...8).contains(digits) else {
            entry.fields.append(CustomField(name: "TOTP", value: CXFImport.json(credential), hidden: true))
            read.keptAside.append("\(entry.title): a TOTP set-up bulwark cannot use (its secret, algorithm, period or digits), kept as the hidden field TOTP")
            return
        }
        let issuer = (credential["issuer"] as? String).flatMap { $0.isEmpty ? nil : $0 }
        let account = (credential["username"] as? String) ?? entry.username
        let uri = OTPAuthURL.build(OTPConfiguration(kind: .totp(period: period), secret: secret, digest: digest, digits: digits, issuer: issuer, account: account))
        if entry.totpURI == nil { entry.totpURI = uri } else { entry.fields.append(CustomField(name: "TOTP", value: uri, hidden: true)) }
    }

    static func addSSHKey(_ credential: JSONObject, to entry: inout Draft, read: inout ImportRead) {
        guard let keyText = credential["privateKey"] as? String, let der = Base64URL.decode(keyText), !der.isEmpty else {
            read.keptAside.append("\(entry.title): an SSH key whose private key is not base64url, kept as the hidden field ssh-key")
            entry.fields.append(CustomField(name: "ssh-key", value: CXFImport.json(credential), hidden: true))
            return
        }
        entry.fields.append(CustomField(name: "Private key", value: pem(der), hidden: true))
        if let type = credential["keyType"] as? String, !type.isEmpty { entry.fields.append(CustomField(name: "Key type", value: type)) }
        if let comment = credential["keyComment"] as? String, !comment.isEmpty { entry.fields.append(CustomField(name: "Comment", value: comment)) }
        members(CXFFields.sshKey, of: credential, into: &entry)
    }

    /// PKCS#8 DER as the PEM that OpenSSH and OpenSSL read ("BEGIN PRIVATE KEY").
    static func pem(_ der: [UInt8]) -> String {
        let base64 = Data(der).base64EncodedString()
        var lines: [String] = []
        var index = base64.startIndex
        while index < base64.endIndex {
            let next = base64.index(index, offsetBy: 64, limitedBy: base64.endIndex) ?? base64.endIndex
            lines.append(String(base64[index..<next]))
            index = next
        }
        return (["-----BEGIN PRIVATE KEY-----"] + lines + ["-----END PRIVATE KEY-----"]).joined(separator: "\n") + "\n"
    }

    /// Fields as the exporter labelled them (concealed ones hidden); the
    /// `bulwark` group carries what bulwark wrote of its own.
    static func addCustomFields(_ credential: JSONObject, to entry: inout Draft, context: inout Context, read: inout ImportRead) {
        let group = credential["label"] as? String
        for (index, value) in (credential["fields"] as? [Any] ?? []).enumerated() {
            guard let field = CXFImport.field(value) else { continue }
            let label = field.label.flatMap { $0.isEmpty ? nil : $0 } ?? "Field \(index + 1)"
            if group == CXFExport.ownGroup, readOwn(label, field.value, into: &entry, context: &context) { continue }
            if !CXFImport.fieldTypes.contains(field.type) {
                read.rowNotes.append("\(context.title): the field \(label) has a type CXF 1.0 does not define (\(field.type)); kept as text")
            }
            let name = group.map { $0.isEmpty ? label : "\($0): \(label)" } ?? label
            entry.fields.append(CustomField(name: name, value: field.value, hidden: field.type == "concealed-string"))
        }
    }

    /// bulwark's own values (see `CXFExport.ownGroup`); false when the label is not one.
    static func readOwn(_ label: String, _ value: String, into entry: inout Draft, context: inout Context) -> Bool {
        let words = label.split(separator: " ", maxSplits: 2).map(String.init)
        switch words.first {
        case "kind": return EntryKind(rawValue: value) != nil  // read before the entry was made (`ownKind`)
        case "category":
            guard let category = AccountCategory(rawValue: value) else { return false }
            entry.category = category
        case "totp": entry.totpURI = value
        case "password-changed":
            guard let date = ISODate.parse(value) else { return false }
            context.passwordChanged = date
        case "history":
            guard words.count >= 2, let date = ISODate.parse(words[1]) else { return false }
            entry.history.append(PasswordHistoryItem(password: value, changedAt: date, reason: words.count > 2 ? words[2] : "from CXF"))
        case "expires":
            guard let date = ISODate.parse(value) else { return false }
            context.expires = date
        case "snapshot":
            guard let snapshot = EntrySnapshot(json: value) else { return false }
            context.snapshots.append(snapshot)
        case "passkey-created":
            guard words.count == 2, let date = ISODate.parse(value) else { return false }
            context.passkeyCreated[words[1]] = date
            if let index = entry.passkeys.firstIndex(where: { Base64URL.encode($0.credentialID) == words[1] }) { entry.passkeys[index].created = date }
        default: return false
        }
        return true
    }

    /// What CXF 1.0 does not define, kept whole as a hidden field and named.
    static func keepUnknown(_ what: String, _ name: String, _ value: JSONObject, title: String, entry: inout Draft, read: inout ImportRead) {
        let label = what == "extension" ? "cxf-extension:\(name)" : "cxf:\(name)"
        entry.fields.append(CustomField(name: label, value: CXFImport.json(value), hidden: true))
        read.rowNotes.append("\(title): the \(what) \(name) is not one CXF 1.0 defines; kept as the hidden field \(label)")
    }
}
