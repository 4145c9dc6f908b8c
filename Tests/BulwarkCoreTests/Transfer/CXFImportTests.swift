import Foundation
import Testing
@testable import BulwarkCore

/// Credential Exchange Format 1.0 documents as other programs write them
/// (Fixtures/transfer/make-cxf-fixtures.py, each in its exporter's shape,
/// keys made by Python's `cryptography`), read field by field.
@Suite struct CXFImportTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func read(_ name: String) throws -> ImportResult {
        let data = try ProtectedAndZippedImportTests.fixture(name)
        #expect(ImportFormat.detect(data) == .cxf)
        return try Importer.read(data, format: .cxf, existing: [], now: now)
    }

    @Test func keePassXCsHeaderWithCollectionsAndAWorkingPasskey() throws {
        let result = try Self.read("cxf-keepassxc.json")
        #expect(result.entries.map(\.title) == ["Forum", "Router"])
        let forum = result.entries[0]
        #expect(forum.kind == .login && forum.username == "jane" && forum.password == "Tr0ub4dor&3")
        #expect(forum.urls == ["https://forum.example", "https://m.forum.example"])
        #expect(forum.tags == ["chat", "old", "Internet"])
        #expect(forum.notes == "Moderator since 2019.")
        #expect(forum.totpURI == "otpauth://totp/Forum:jane?secret=JBSWY3DPEHPK3PXP&issuer=Forum&algorithm=SHA1&digits=6&period=30")
        #expect(forum.fields == [CustomField(name: "PIN", value: "1234", hidden: true), CustomField(name: "Favourite colour", value: "blue")])
        #expect(forum.created == Date(timeIntervalSince1970: 1_700_000_000) && forum.modified == Date(timeIntervalSince1970: 1_700_000_500))
        let passkey = try #require(forum.passkeys.first)
        #expect(passkey.rpID == "forum.example" && passkey.credentialID == Array(0..<16) && passkey.userHandle == Array("jane-handle".utf8))
        // The key signs what the public key `cryptography` made for it verifies (the account's server holds that key).
        let publicPoint = try #require([UInt8](hex: "04ef880c8ef816881796c188e571b01ac6f70c52627456dae486758effd9c63ddd5cdbc11e24883a12598242a95875b96a8854f64bff9ac9a33810b81f154f54e5"))
        let message = Array("authenticator data and client data hash".utf8)
        let signature = try P256PrivateKey(pkcs8: passkey.privateKey).sign(message)
        #expect(P256PrivateKey.verify(signature, over: message, publicPoint: publicPoint))
        #expect(result.entries[1].tags == ["Internet/Home"])
        #expect(result.notHeld.isEmpty && result.rowNotes.isEmpty)
    }

    @Test func bitwardensBareAccountWithACardAnIdentityAndANote() throws {
        let result = try Self.read("cxf-bitwarden.json")
        #expect(result.entries.map(\.kind) == [.login, .card, .identity, .secureNote])
        let login = result.entries[0]
        #expect(login.username == "test@bitwarden.com" && login.password == "asdfasdfasdf" && login.tags == ["Favorites"])
        #expect(login.fields == [CustomField(name: "Text", value: "A"), CustomField(name: "Hidden", value: "B", hidden: true),
                                 CustomField(name: "Boolean (true)", value: "true"), CustomField(name: "Boolean (false)", value: "false")])
        #expect(login.totpURI == "otpauth://totp/test%40bitwarden.com?secret=JBSWY3DPEHPK3PXP&algorithm=SHA1&digits=6&period=30")
        #expect(result.entries[1].password == nil)
        #expect(result.entries[1].fields == [CustomField(name: "Cardholder name", value: "Jane Appleseed"), CustomField(name: "Brand", value: "Visa"),
                                             CustomField(name: "Number", value: "4111111111111111", hidden: true),
                                             CustomField(name: "Expiry month", value: "4"), CustomField(name: "Expiry year", value: "2028"),
                                             CustomField(name: "Security code", value: "123", hidden: true)])
        #expect(result.entries[2].fields == [CustomField(name: "Title", value: "Dr"), CustomField(name: "First name", value: "Jane"),
                                             CustomField(name: "Middle name", value: "Q"), CustomField(name: "Last name", value: "Appleseed"),
                                             CustomField(name: "Address 1", value: "1 Infinite Loop"), CustomField(name: "City", value: "Cupertino"),
                                             CustomField(name: "State", value: "US-CA"), CustomField(name: "Postal code", value: "95014"),
                                             CustomField(name: "Country", value: "US"), CustomField(name: "Phone", value: "+1 408 555 0100"),
                                             CustomField(name: "Identification number", value: "078-05-1120", hidden: true)])
        #expect(result.entries[3].notes == "Guest network: see the fridge.")
    }

    @Test func everyOtherCredentialTypeFromAnArchive() throws {
        let result = try Self.read("cxf-archive.zip")
        let byTitle = Dictionary(uniqueKeysWithValues: result.entries.map { ($0.title, $0) })
        #expect(result.entries.count == 10)
        #expect(byTitle["Passport"]?.kind == .identity)
        #expect(byTitle["Passport"]?.fields == [CustomField(name: "Passport number", value: "X1234567", hidden: true),
                                                CustomField(name: "Issuing country", value: "NZ"), CustomField(name: "Full name", value: "Jane Appleseed"),
                                                CustomField(name: "Expiry date", value: "2031-05-06")])
        #expect(byTitle["Driving licence"]?.fields == [CustomField(name: "State", value: "US-CA"),
                                                       CustomField(name: "Licence number", value: "DL-99", hidden: true),
                                                       CustomField(name: "Licence class", value: "B")])
        let wifi = try #require(byTitle["Home Wi-Fi"])
        #expect(wifi.kind == .other && wifi.password == "correct horse battery")
        #expect(wifi.fields == [CustomField(name: "SSID", value: "Appleseed"), CustomField(name: "Security", value: "wpa3-personal"),
                                CustomField(name: "Hidden network", value: "false")])
        let ssh = try #require(byTitle["Deploy key"])
        #expect(ssh.kind == .sshKey && ssh.fields.map(\.name) == ["Private key", "Key type", "Comment", "Created"])
        #expect(ssh.fields[0].hidden && ssh.fields[0].value.hasPrefix("-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIAABAgMEBQYHCAkKCwwNDg8QERITFBUWFxgZGhscHR4f\n"))
        let api = try #require(byTitle["Weather API"])
        #expect(api.kind == .other && api.username == "jane" && api.urls == ["https://api.weather.example"])
        #expect(api.fields == [CustomField(name: "API key", value: "wk_live_0123456789", hidden: true), CustomField(name: "Key type", value: "bearer")])
        #expect(byTitle["New site"]?.password == "g3n-Erated-Pw" && byTitle["New site"]?.kind == .login)
        #expect(byTitle["Forum (alias)"]?.fields == [CustomField(name: "Linked item", value: "Weather API")])
        #expect(byTitle["Scans"]?.notes == "The scans are in the file.")
        let future = try #require(byTitle["Future"])
        #expect(future.notes == "From the future.")
        #expect(future.fields == [CustomField(name: "cxf:quantum-key", value: #"{"qubits":7,"type":"quantum-key"}"#, hidden: true),
                                  CustomField(name: "cxf-extension:example-colour", value: #"{"colour":"teal","name":"example-colour"}"#, hidden: true)])
        #expect(result.rowNotes == ["Future: the credential type quantum-key is not one CXF 1.0 defines; kept as the hidden field cxf:quantum-key",
                                    "Future: the extension example-colour is not one CXF 1.0 defines; kept as the hidden field cxf-extension:example-colour"])
        // A file credential's bytes from documents/ID, checked against its integrityHash.
        #expect(result.notHeld == ["the file tampered.txt of Scans (its bytes are not the ones its integrityHash names: corrupted)"])
        let scan = try #require(byTitle["Scans"]?.attachments.first)
        #expect(byTitle["Scans"]?.attachments.count == 1 && scan.name == "passport.pdf" && result.files[scan.blob] == Array("%PDF".utf8))
    }

    @Test func aDocumentOfANewerMajorVersionOrNoneIsRefusedByName() {
        let newer = Data(#"{"version":{"major":2,"minor":0},"exporterRpId":"x.example","exporterDisplayName":"X","timestamp":1,"accounts":[]}"#.utf8)
        #expect(throws: ImportError(line: nil, message: "this is Credential Exchange Format 2.0; bulwark reads 1.x")) {
            try Importer.read(newer, format: .cxf, existing: [], now: Self.now)
        }
        #expect(throws: ImportError(line: nil, message: "not a Credential Exchange Format document: expected a Header (\"exporterRpId\", \"accounts\") or an Account (\"items\" of credentials)")) {
            try Importer.read(Data(#"{"items":[{"type":1}]}"#.utf8), format: .cxf, existing: [], now: Self.now)
        }
    }
}

extension CXFImportTests {
    /// A CXF document in an archive that does not read is named with its member, not passed over as "no document".
    @Test func aBrokenDocumentInAnArchiveIsNamed() throws {
        let dir = TemporaryDirectory()
        let json = dir.file("index.json"), png = dir.file("logo.png"), zip = dir.file("export.zip")
        try Data(#"{"version":{"major":1,"minor":0},"exporterRpId":"x.example","accounts":[{"id":"YQ","items":[{"id":"aQ","title":"A","credentials":[]"#.utf8).write(to: json)
        try Data([0x89, 0x50, 0x4E, 0x47]).write(to: png)
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        python.arguments = ["python3", "-c", "import sys,zipfile; z=zipfile.ZipFile(sys.argv[1],'w'); [z.write(p, p.split('/')[-1]) for p in sys.argv[2:]]; z.close()",
                            zip.path, png.path, json.path]
        try python.run()
        python.waitUntilExit()
        try #require(python.terminationStatus == 0)
        #expect(throws: ImportError(line: nil, message: "index.json in the archive: line 1: not valid JSON (the document ends early)")) {
            try Importer.read(try Data(contentsOf: zip), format: .cxf, existing: [], now: Self.now)
        }
    }
}

extension CXFImportTests {
    /// The credentials read straight off an item's tape, each in its place:
    /// a second sign-in kept beside the first, a generated password beside
    /// the password, notes joined, a field's number or boolean as text, a
    /// credential with no type named, scope URLs and Android apps.
    @Test func commonCredentialsReadInPlace() throws {
        let document = #"""
        {"items":[{"id":"aQ","title":"Mail","favorite":true,"tags":["home",7],"creationAt":1700000000,
          "scope":{"urls":["https://mail.example",""],"androidApps":[{"bundleId":"com.mail"},{"name":"x"}]},
          "credentials":[{"type":"basic-auth","username":{"fieldType":"string","value":"jane"},"password":{"fieldType":"concealed-string","value":1234}},
                         {"type":"basic-auth","username":"jane2","password":{"fieldType":"concealed-string","value":true}},
                         {"type":"generated-password","password":"Gen-1"},
                         {"type":"note","content":{"fieldType":"string","value":"one"}},
                         {"type":"note","content":"two"},
                         {"username":"no type"}, 5]},
          {"id":"Yg","title":"Later","credentials":[{"type":"generated-password","password":"Only-1"}]}],
         "username":"jane","collections":[]}
        """#
        let result = try Importer.read(Data(document.utf8), format: .cxf, existing: [], now: Self.now)
        let mail = try #require(result.entries.first)
        #expect(mail.username == "jane" && mail.password == "1234" && mail.notes == "one\n\ntwo")
        #expect(mail.fields == [CustomField(name: "Username", value: "jane2"), CustomField(name: "Password", value: "true", hidden: true),
                                CustomField(name: "Generated password", value: "Gen-1", hidden: true)])
        #expect(mail.urls == ["https://mail.example", "androidapp://com.mail"] && mail.tags == ["home", "Favorites"])
        #expect(mail.created == Date(timeIntervalSince1970: 1_700_000_000) && mail.modified == mail.created)
        #expect(result.entries[1].password == "Only-1" && result.entries[1].created == Self.now)
        #expect(result.rowNotes == ["Mail: credential 6 names no type, skipped"])
    }
}
