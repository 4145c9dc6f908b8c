import Foundation

/// Writes a Credential Exchange Format 1.0 document (see `CXFFields`): a
/// `Header` with one account, each entry an item with base64url ids,
/// `EditableField` values and every member CXF requires. What CXF has a
/// credential for goes in it (sign-in, passkeys, TOTP, notes, cards,
/// names, addresses, identity documents, Wi-Fi, API and SSH keys); every
/// other field in a `custom-fields` credential under its label; what only
/// bulwark keeps (old passwords, a chosen category, a code CXF's `totp`
/// cannot say, dates) in a `custom-fields` group labelled `bulwark`, which
/// bulwark reads back and other programs show as fields. Streamed, an item at a time.
enum CXFExport {
    static let ownGroup = "bulwark"
    static let exporterRpId = "bulwark.invalid"

    /// A file an archive export holds: its id (the document's name under
    /// documents/) and the SHA-256 of its bytes.
    struct FileDocument {
        let id: String
        let integrityHash: String
    }

    /// `files`: by blob, the files an archive export writes beside the document (none: a bare document).
    static func write(_ entries: [Entry], now: Date = Date(), files: [String: FileDocument] = [:], to sink: ByteSink) {
        var json = JSONWriter(terminalSafe: false, compact: true)
        json.beginObject()
        json.key("version"); json.beginObject(); json.key("major"); json.int(1); json.key("minor"); json.int(0); json.endObject()
        json.key("exporterRpId"); json.string(exporterRpId)
        json.key("exporterDisplayName"); json.string("bulwark")
        json.key("timestamp"); json.int(Int64(now.timeIntervalSince1970.rounded(.down)))
        json.key("accounts"); json.beginArray(); json.beginObject()
        json.key("id"); json.string(Base64URL.encode(SecureRandom.bytes(16)))
        json.key("username"); json.string("")
        json.key("email"); json.string("")
        json.key("collections"); json.beginArray(); json.endArray()
        json.key("items"); json.beginArray()
        json.move(to: sink)
        // Each item's JSON made on both cores, a block at a time, and written
        // in order (made on one core, the items were two thirds of the export).
        for start in stride(from: 0, to: entries.count, by: 8192) {
            let block = Array(entries[start..<min(entries.count, start + 8192)])
            let items = (try? Concurrently.map(block, chunk: 256) { entry in item(entry, files: files) }) ?? block.map { item($0, files: files) }
            for (offset, item) in items.enumerated() {
                if start + offset > 0 { sink.write(",") }
                sink.append(item)
            }
        }
        // The items, the account, the accounts and the document closed (compact JSON: no space between).
        sink.write("]}]}\n")
    }

    /// One item's compact JSON.
    static func item(_ entry: Entry, files: [String: FileDocument]) -> [UInt8] {
        var json = JSONWriter(terminalSafe: false, compact: true)
        item(entry, files: files, into: &json)
        return json.bytes
    }

    static func seconds(_ date: Date) -> Int64 { Int64(date.timeIntervalSince1970.rounded(.down)) }

    static func item(_ e: Entry, files: [String: FileDocument] = [:], into json: inout JSONWriter) {
        json.beginObject()
        json.key("id"); json.string(Base64URL.encode(Array(e.id.utf8.prefix(64))))
        json.key("creationAt"); json.int(seconds(e.created))
        json.key("modifiedAt"); json.int(seconds(e.modified))
        json.key("title"); json.string(e.title)
        let apps = e.urls.filter { $0.hasPrefix("androidapp://") }
        json.key("scope"); json.beginObject()
        json.key("urls"); json.strings(e.urls.filter { !$0.hasPrefix("androidapp://") })
        json.key("androidApps"); json.beginArray()
        for app in apps { json.beginObject(); json.key("bundleId"); json.string(String(app.dropFirst("androidapp://".count))); json.endObject() }
        json.endArray(); json.endObject()
        json.key("credentials"); json.beginArray()
        var fields = e.fields, written: [String] = []
        credentials(e, fields: &fields, into: &json, &written)
        for attachment in e.attachments {
            guard let document = files[attachment.blob] else { continue }
            json.beginObject()
            json.key("type"); json.string("file")
            json.key("id"); json.string(document.id)
            json.key("name"); json.string(attachment.name)
            json.key("decryptedSize"); json.int(attachment.size)
            json.key("integrityHash"); json.string(document.integrityHash)
            json.endObject()
        }
        let rest = fields.map { ($0.name, $0.hidden ? "concealed-string" : "string", $0.value) }
        if !rest.isEmpty { customFields(nil, rest, into: &json, &written) }
        var own = ownValues(e)
        // A kind the credentials do not say (an SSH key CXF cannot carry, a note with a sign-in): said in bulwark's group.
        if CXFCredentials.kind(of: written) != e.kind { own.insert(("kind", e.kind.rawValue, false), at: 0) }
        if !own.isEmpty { customFields(ownGroup, own.map { ($0.0, $0.2 ? "concealed-string" : "string", $0.1) }, into: &json, &written) }
        json.endArray()
        if !e.tags.isEmpty { json.key("tags"); json.strings(e.tags) }
        json.endObject()
    }

    /// The credentials CXF defines, each taking the fields it carries out of `fields`.
    static func credentials(_ e: Entry, fields: inout [CustomField], into json: inout JSONWriter, _ written: inout [String]) {
        let isWifi = e.kind == .other && fields.contains { $0.name == "SSID" }
        if !isWifi, !e.username.isEmpty || !(e.password ?? "").isEmpty {
            begin(&json, &written, "basic-auth")
            if !e.username.isEmpty { editable("username", "string", e.username, into: &json) }
            if let password = e.password, !password.isEmpty { editable("password", "concealed-string", password, into: &json) }
            json.endObject()
        }
        for passkey in e.passkeys {
            begin(&json, &written, "passkey")
            json.key("credentialId"); json.string(Base64URL.encode(passkey.credentialID))
            json.key("rpId"); json.string(passkey.rpID)
            json.key("username"); json.string(passkey.userName)
            json.key("userDisplayName"); json.string(passkey.userDisplayName)
            json.key("userHandle"); json.string(Base64URL.encode(passkey.userHandle))
            json.key("key"); json.string(Base64URL.encode(passkey.privateKey))
            json.endObject()
        }
        if let uri = e.totpURI, let code = try? OTPAuthURL.parse(uri), code.encoder == .decimal, case .totp(let period) = code.kind {
            begin(&json, &written, "totp")
            json.key("secret"); json.string(Base32.encode(code.secret))
            json.key("period"); json.int(Int64(period))
            json.key("digits"); json.int(Int64(code.digits))
            if !code.account.isEmpty { json.key("username"); json.string(code.account) }
            json.key("algorithm"); json.string(code.digest.rawValue.lowercased())
            if let issuer = code.issuer { json.key("issuer"); json.string(issuer) }
            json.endObject()
        }
        if !e.notes.isEmpty {
            begin(&json, &written, "note"); editable("content", "string", e.notes, into: &json); json.endObject()
        }
        switch e.kind {
        case .card: card(&fields, into: &json, &written)
        case .identity:
            section("person-name", CXFFields.personName, &fields, into: &json, &written)
            section("address", CXFFields.address, &fields, into: &json, &written)
            section("identity-document", CXFFields.identityDocument, &fields, into: &json, &written)
            section("passport", CXFFields.passport.filter { $0.label == "Passport number" }, &fields, into: &json, &written)
            section("drivers-license", CXFFields.driversLicense.filter { $0.label == "Licence number" || $0.label == "Licence class" }, &fields, into: &json, &written)
        case .sshKey: sshKey(&fields, into: &json, &written)
        case .other where isWifi:
            section("wifi", CXFFields.wifi, &fields, into: &json, &written, extra: e.password.flatMap { $0.isEmpty ? nil : ("passphrase", "concealed-string", $0) })
            if !e.username.isEmpty { fields.insert(CustomField(name: "Username", value: e.username), at: 0) }
        case .other where fields.contains { $0.name == "API key" }:
            section("api-key", CXFFields.apiKey, &fields, into: &json, &written)
        default: break
        }
    }

    /// A credential of the members `table` names that `fields` holds under
    /// their labels (each taken once); none when it holds none. A value a
    /// member's type cannot carry (a state that is not an ISO 3166-2 code)
    /// stays a custom field.
    static func section(_ type: String, _ table: [CXFFields.Member], _ fields: inout [CustomField], into json: inout JSONWriter,
                        _ written: inout [String], extra: (String, String, String)? = nil) {
        var found: [(CXFFields.Member, String)] = []
        for member in table {
            guard let index = fields.firstIndex(where: { $0.name == member.label }), fits(fields[index].value, member.fieldType) else { continue }
            found.append((member, fields.remove(at: index).value))
        }
        guard !found.isEmpty || extra != nil else { return }
        begin(&json, &written, type)
        for (member, value) in found { editable(member.key, member.fieldType, value, into: &json) }
        if let (key, fieldType, value) = extra { editable(key, fieldType, value, into: &json) }
        json.endObject()
    }

    /// Whether a value is one a field type may hold (CXF's formats for codes, dates, booleans and security types).
    static func fits(_ value: String, _ fieldType: String) -> Bool {
        switch fieldType {
        case "country-code": value.count == 2 && value.allSatisfy { $0.isASCII && $0.isUppercase }
        case "subdivision-code": value.range(of: #"^[A-Z]{2}-[A-Z0-9]{1,3}$"#, options: .regularExpression) != nil
        case "date": value.range(of: #"^\d{4}-\d{2}-\d{2}$"#, options: .regularExpression) != nil
        case "year-month": value.range(of: #"^\d{4}-\d{2}$"#, options: .regularExpression) != nil
        case "boolean": value == "true" || value == "false"
        case "wifi-network-security-type": ["unsecured", "wep", "wpa-personal", "wpa2-personal", "wpa3-personal"].contains(value)
        default: true
        }
    }

    static func card(_ fields: inout [CustomField], into json: inout JSONWriter, _ written: inout [String]) {
        // bulwark's month and year are CXF's one year-month.
        var expiry: String?
        if let m = fields.firstIndex(where: { $0.name == "Expiry month" }), let y = fields.firstIndex(where: { $0.name == "Expiry year" }),
           let month = Int(fields[m].value), let year = Int(fields[y].value), (1...12).contains(month), (1000...9999).contains(year) {
            expiry = String(format: "%04d-%02d", year, month)
            fields.removeAll { $0.name == "Expiry month" || $0.name == "Expiry year" }
        }
        section("credit-card", CXFFields.creditCard, &fields, into: &json, &written, extra: expiry.map { ("expiryDate", "year-month", $0) })
    }

    /// An SSH key whose private key is PKCS#8 (`BEGIN PRIVATE KEY`), the
    /// form CXF carries; another form (OpenSSH's own) stays a custom field.
    static func sshKey(_ fields: inout [CustomField], into json: inout JSONWriter, _ written: inout [String]) {
        guard let index = fields.firstIndex(where: { $0.name == "Private key" }), let der = pkcs8(fields[index].value) else { return }
        let keyType = fields.first { $0.name == "Key type" }?.value
            ?? fields.first { $0.name == "Public key" }?.value.split(separator: " ").first.map(String.init) ?? keyType(der)
        fields.remove(at: index)
        fields.removeAll { $0.name == "Key type" }
        begin(&json, &written, "ssh-key")
        json.key("keyType"); json.string(keyType)
        json.key("privateKey"); json.string(Base64URL.encode(der))
        if let comment = fields.firstIndex(where: { $0.name == "Comment" }) { json.key("keyComment"); json.string(fields.remove(at: comment).value) }
        for member in CXFFields.sshKey {
            guard let at = fields.firstIndex(where: { $0.name == member.label }), fits(fields[at].value, member.fieldType) else { continue }
            editable(member.key, member.fieldType, fields.remove(at: at).value, into: &json)
        }
        json.endObject()
    }

    static func pkcs8(_ pem: String) -> [UInt8]? {
        let lines = pem.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        guard lines.first == "-----BEGIN PRIVATE KEY-----", lines.last == "-----END PRIVATE KEY-----" else { return nil }
        return Data(base64Encoded: lines.dropFirst().dropLast().joined()).map { [UInt8]($0) }
    }

    /// The SSH name of a PKCS#8 key's algorithm, from its OID.
    static func keyType(_ der: [UInt8]) -> String {
        func has(_ oid: [UInt8]) -> Bool { der.count >= oid.count && (0...(der.count - oid.count)).contains { Array(der[$0..<$0 + oid.count]) == oid } }
        if has([0x06, 0x03, 0x2B, 0x65, 0x70]) { return "ssh-ed25519" }
        if has([0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07]) { return "ecdsa-sha2-nistp256" }
        if has([0x06, 0x05, 0x2B, 0x81, 0x04, 0x00, 0x22]) { return "ecdsa-sha2-nistp384" }
        return "ssh-rsa"
    }

    /// What only bulwark keeps, as labelled values of its own group (and whether each is secret).
    static func ownValues(_ e: Entry) -> [(String, String, Bool)] {
        var own: [(String, String, Bool)] = []
        if e.categoryIsManual { own.append(("category", e.category.rawValue, false)) }
        if let uri = e.totpURI, !isPlainTOTP(uri) { own.append(("totp", uri, true)) }
        if e.password != nil, e.passwordChanged != e.modified { own.append(("password-changed", ISODate.string(e.passwordChanged, milliseconds: true), false)) }
        if let expires = e.expires { own.append(("expires", ISODate.string(expires, milliseconds: true), false)) }
        for snapshot in e.snapshots { own.append(("snapshot", snapshot.json, true)) }
        for old in e.history {
            own.append(("history \(ISODate.string(old.changedAt, milliseconds: true)) \(old.reason)", old.password, true))
        }
        for passkey in e.passkeys where passkey.created != e.created {
            own.append(("passkey-created \(Base64URL.encode(passkey.credentialID))", ISODate.string(passkey.created, milliseconds: true), false))
        }
        return own
    }

    static func isPlainTOTP(_ uri: String) -> Bool {
        guard let code = try? OTPAuthURL.parse(uri), code.encoder == .decimal, case .totp = code.kind else { return false }
        return true
    }

    static func customFields(_ label: String?, _ fields: [(String, String, String)], into json: inout JSONWriter, _ written: inout [String]) {
        begin(&json, &written, "custom-fields")
        if let label { json.key("label"); json.string(label) }
        json.key("fields"); json.beginArray()
        for (name, fieldType, value) in fields {
            json.beginObject()
            json.key("fieldType"); json.string(fieldType)
            json.key("value"); json.string(value)
            json.key("label"); json.string(name)
            json.endObject()
        }
        json.endArray(); json.endObject()
    }

    static func begin(_ json: inout JSONWriter, _ written: inout [String], _ type: String) {
        json.beginObject()
        json.key("type"); json.string(type)
        written.append(type)
    }

    static func editable(_ key: String, _ fieldType: String, _ value: String, into json: inout JSONWriter) {
        json.key(key); json.beginObject()
        json.key("fieldType"); json.string(fieldType)
        json.key("value"); json.string(value)
        json.endObject()
    }
}
