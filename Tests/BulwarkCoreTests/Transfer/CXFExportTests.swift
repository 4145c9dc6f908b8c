import Foundation
import Testing
@testable import BulwarkCore

/// `export --format cxf`: a document with every member CXF 1.0 requires,
/// base64url ids and typed `EditableField`s, holding every kind bulwark
/// keeps, which bulwark reads back equal.
@Suite struct CXFExportTests {
    static let t0 = Date(timeIntervalSince1970: 1_750_000_000)
    static let ed25519PEM = "-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIAABAgMEBQYHCAkKCwwNDg8QERITFBUWFxgZGhscHR4f\n-----END PRIVATE KEY-----\n"

    static func entries() throws -> [Entry] {
        let code = OTPAuthURL.build(OTPConfiguration(kind: .totp(period: 30), secret: Array("12345678901234567890".utf8), digest: .sha256, digits: 8,
                                                     issuer: "Mail", account: "jane"))
        var mail = Entry(title: "Mail", urls: ["https://mail.example", "androidapp://com.example.mail"], username: "jane", password: "Current-pw-1",
                         notes: "Two lines\nof notes.", totpURI: code, tags: ["Work", "Favorites"], category: .email, created: t0,
                         history: [PasswordHistoryItem(password: "old-pw-2", changedAt: t0 + 50, reason: "edited"),
                                   PasswordHistoryItem(password: "old-pw-1", changedAt: t0 + 10, reason: "upgraded")],
                         fields: [CustomField(name: "PIN", value: "4711", hidden: true), CustomField(name: "Recovery", value: "none")])
        mail.modified = t0 + 100
        mail.passwordChanged = t0 + 60
        let key = try P256PrivateKey.generate()
        mail.passkeys = [Passkey(credentialID: SecureRandom.bytes(16), rpID: "mail.example", userHandle: SecureRandom.bytes(32), userName: "jane",
                                 userDisplayName: "Jane", privateKey: key.pkcs8, created: t0 + 20)]
        var card = Entry(title: "Visa", created: t0, kind: .card, fields: [
            CustomField(name: "Cardholder name", value: "Jane Appleseed"), CustomField(name: "Brand", value: "Visa"),
            CustomField(name: "Number", value: "4111111111111111", hidden: true), CustomField(name: "Expiry month", value: "4"),
            CustomField(name: "Expiry year", value: "2028"), CustomField(name: "Security code", value: "123", hidden: true),
            CustomField(name: "Bank", value: "Kiwibank")])
        card.modified = t0
        card.passwordChanged = t0
        var me = Entry(title: "Me", created: t0, kind: .identity, fields: [
            CustomField(name: "Title", value: "Dr"), CustomField(name: "First name", value: "Jane"), CustomField(name: "Last name", value: "Appleseed"),
            CustomField(name: "Address 1", value: "1 Queen St"), CustomField(name: "Address 2", value: "Flat 2"), CustomField(name: "City", value: "Auckland"),
            CustomField(name: "State", value: "Auckland region"), CustomField(name: "Postal code", value: "1010"), CustomField(name: "Country", value: "NZ"),
            CustomField(name: "E-mail", value: "jane@example.com"), CustomField(name: "Phone", value: "+64 9 555 0100"),
            CustomField(name: "Social security number", value: "078-05-1120", hidden: true),
            CustomField(name: "Passport number", value: "X1234567", hidden: true)])
        me.modified = t0
        me.passwordChanged = t0
        var ssh = Entry(title: "Deploy key", created: t0, kind: .sshKey, fields: [
            CustomField(name: "Private key", value: ed25519PEM, hidden: true),
            CustomField(name: "Public key", value: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIAOZ8kmgJSRbpQhP7BE5nPFMOPz1nmb+sqdD1DVIJtKI jane@laptop"),
            CustomField(name: "Comment", value: "jane@laptop")])
        ssh.modified = t0
        ssh.passwordChanged = t0
        var openSSH = Entry(title: "Old key", created: t0, kind: .sshKey, fields: [
            CustomField(name: "Private key", value: "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----\n", hidden: true)])
        openSSH.modified = t0
        openSSH.passwordChanged = t0
        var wifi = Entry(title: "Home Wi-Fi", password: "correct horse battery", created: t0, kind: .other, fields: [
            CustomField(name: "SSID", value: "Appleseed"), CustomField(name: "Security", value: "wpa2-personal"), CustomField(name: "Hidden network", value: "true")])
        wifi.modified = t0
        wifi.passwordChanged = t0
        var note = Entry(title: "Recovery codes", notes: "1111 2222 3333", created: t0, kind: .secureNote)
        note.modified = t0
        note.passwordChanged = t0
        var steam = Entry(title: "Steam", urls: ["https://store.steampowered.example"], username: "gamer", password: "Steam-pw-9",
                          totpURI: OTPAuthURL.build(.steam(secret: Array("steamsecret12345".utf8), account: "gamer")), created: t0)
        steam.modified = t0
        steam.passwordChanged = t0
        steam.expires = t0 + 86_400 * 365
        steam.snapshots = [EntrySnapshot(at: t0 - 86_400, values: [CustomField(name: "Title", value: "Steam (old)"), CustomField(name: "Password", value: "old", hidden: true)])]
        return [mail, card, me, ssh, openSSH, wifi, note, steam]
    }

    @Test func everyKindReadsBackEqual() throws {
        let entries = try Self.entries()
        let data = Exporter.write(entries, format: .cxf)
        #expect(ImportFormat.detect(data) == .cxf)
        let parsed = try Importer.parse(data, format: .cxf, now: Self.t0 + 1000)
        #expect(parsed.result.rowNotes.isEmpty && parsed.result.notHeld.isEmpty && parsed.result.keptAside.isEmpty)
        #expect(parsed.candidates.count == entries.count)
        for (original, read) in zip(entries, parsed.candidates) {
            var same = read
            same.id = original.id
            #expect(same == original, "\(original.title) differs in \(Self.differences(original, same))")
        }
    }

    /// The parts of two entries that differ, by name and both values.
    static func differences(_ a: Entry, _ b: Entry) -> [String] {
        let parts: [(String, (Entry) -> String)] = [
            ("title", \.title), ("urls", { "\($0.urls)" }), ("username", \.username), ("password", { "\($0.password ?? "nil")" }),
            ("notes", \.notes), ("totp", { $0.totpURI ?? "nil" }), ("tags", { "\($0.tags)" }), ("category", { "\($0.category) \($0.categoryIsManual)" }),
            ("created", { "\($0.created.timeIntervalSince1970)" }), ("modified", { "\($0.modified.timeIntervalSince1970)" }),
            ("passwordChanged", { "\($0.passwordChanged.timeIntervalSince1970)" }), ("history", { "\($0.history)" }),
            ("fields", { "\($0.fields)" }), ("passkeys", { "\($0.passkeys)" }), ("kind", { "\($0.kind)" }), ("expires", { "\(String(describing: $0.expires))" }), ("snapshots", { "\($0.snapshots)" }),
        ]
        return parts.compactMap { name, value in value(a) == value(b) ? nil : "\(name): \(value(a)) / \(value(b))" }
    }

    /// The members a CXF importer requires, each of its type, as a strict
    /// reader checks them (go-cxf's and Bitwarden's credential-exchange crate's rules).
    @Test func theDocumentHasEveryRequiredMemberInItsForm() throws {
        let data = Exporter.write(try Self.entries(), format: .cxf)
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let version = try #require(root["version"] as? [String: Any])
        #expect(version["major"] as? Int == 1 && version["minor"] as? Int == 0)
        #expect(root["exporterRpId"] as? String == "bulwark.invalid" && root["exporterDisplayName"] as? String == "bulwark" && root["timestamp"] is Int)
        let accounts = try #require(root["accounts"] as? [[String: Any]])
        #expect(accounts.count == 1)
        let account = accounts[0]
        #expect(Self.isID(account["id"]) && account["username"] is String && account["email"] is String && account["collections"] is [Any])
        let items = try #require(account["items"] as? [[String: Any]])
        var types: [String] = []
        for item in items {
            #expect(Self.isID(item["id"]) && item["title"] is String && item["creationAt"] is Int && item["modifiedAt"] is Int)
            let scope = try #require(item["scope"] as? [String: Any])
            #expect(scope["urls"] is [String] && scope["androidApps"] is [[String: Any]])
            for credential in try #require(item["credentials"] as? [[String: Any]]) {
                let type = try #require(credential["type"] as? String)
                types.append(type)
                for (key, value) in credential where key != "type" {
                    if let field = value as? [String: Any] { try Self.checkField(field, "\(type).\(key)") }
                    if key == "fields" { for field in try #require(value as? [[String: Any]]) { try Self.checkField(field, "\(type).fields") } }
                }
                if type == "passkey" {
                    for key in ["credentialId", "userHandle", "key"] { #expect(Base64URL.decode(credential[key] as? String ?? "!") != nil) }
                    #expect(credential["rpId"] is String && credential["username"] is String && credential["userDisplayName"] is String)
                }
                if type == "totp" { #expect(credential["secret"] is String && credential["period"] is Int && credential["digits"] is Int && credential["algorithm"] as? String == "sha256") }
                if type == "ssh-key" { #expect(credential["keyType"] as? String == "ssh-ed25519" && Base64URL.decode(credential["privateKey"] as? String ?? "!") != nil) }
            }
        }
        #expect(Set(types) == ["basic-auth", "passkey", "totp", "note", "custom-fields", "credit-card", "person-name", "address", "passport",
                               "ssh-key", "wifi"])
        #expect(items[0]["tags"] as? [String] == ["Work", "Favorites"])
        #expect((items[0]["scope"] as? [String: Any])?["androidApps"] as? [[String: String]] == [["bundleId": "com.example.mail"]])
    }

    static func isID(_ value: Any?) -> Bool {
        guard let text = value as? String, let bytes = Base64URL.decode(text) else { return false }
        return !bytes.isEmpty && bytes.count <= 64 && !text.contains("=")
    }

    static func checkField(_ field: [String: Any], _ place: String) throws {
        let type = try #require(field["fieldType"] as? String, "\(place) has no fieldType")
        let value = try #require(field["value"] as? String, "\(place) has no string value")
        #expect(CXFImport.fieldTypes.contains(type), "\(place): \(type)")
        #expect(CXFExport.fits(value, type), "\(place): \(value) is not a \(type)")
    }
}

extension CXFExportTests {
    /// Items are made on both cores a block of 8,192 at a time: across a
    /// block's end the document is still one valid JSON array, in order.
    @Test func itemsAcrossBlocksStayInOrder() throws {
        let entries = (0..<8_200).map { Entry(title: "Item \($0)", username: "u\($0)", password: "p-\($0)") }
        let data = Exporter.write(entries, format: .cxf)
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let items = try #require(((root["accounts"] as? [[String: Any]])?.first?["items"]) as? [[String: Any]])
        #expect(items.compactMap { $0["title"] as? String } == entries.map(\.title))
        #expect(data.last == UInt8(ascii: "\n"))
    }
}
