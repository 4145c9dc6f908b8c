import Foundation
import Testing
@testable import BulwarkCore

/// 1Password's 1PUX and Bitwarden's password-protected JSON, read from
/// fixtures made by an independent writer (Fixtures/transfer/make-fixtures.py:
/// Python's zipfile, `cryptography` and `argon2-cffi`, each format as its
/// exporter's sources describe it).
@Suite struct ProtectedAndZippedImportTests {
    static func fixture(_ name: String) throws -> Data {
        try Data(contentsOf: SharedData.repositoryRoot.appendingPathComponent("Tests/BulwarkCoreTests/Fixtures/transfer/\(name)"))
    }

    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func onePassword1PUXBringsEveryItemKindAndField() throws {
        let data = try Self.fixture("1password.1pux")
        #expect(ImportFormat.detect(data) == .onePassword1PUX)
        let result = try Importer.read(data, format: .onePassword1PUX, existing: [], now: Self.now)
        #expect(result.entries.map(\.title) == ["Mail", "Visa", "Home notes", "Jane's identity", "Router admin", "Build server", "Passport scan"])
        #expect(result.entries.map(\.kind) == [.login, .card, .secureNote, .identity, .login, .other, .secureNote])
        #expect(result.inTrash == 1)
        #expect(result.notHeld.isEmpty)
        // A section's file and a Document's, each from the archive's files/ID__NAME.
        #expect(result.entries[0].attachments.map(\.name) == ["codes.txt"] && result.entries[6].attachments.map(\.name) == ["passport.pdf"])
        #expect(result.entries[0].attachments.first.flatMap { result.files[$0.blob] } == Array("1111-2222\n".utf8))
        #expect(result.entries[6].attachments.first.flatMap { result.files[$0.blob] } == Array("%PDF".utf8))
        #expect(result.entries[6].attachments.first?.mediaType == "application/pdf" && result.entries[6].attachments.first?.size == 4)

        let mail = result.entries[0]
        #expect(mail.username == "jane@mail.example" && mail.password == "current-Passw0rd!")
        #expect(mail.urls == ["https://mail.example", "https://www.google.com/maps/@48.85,2.29,17z"])
        // Two vaults: each item carries its vault's name as a tag, after its own tags; a favourite is tagged so.
        #expect(mail.tags == ["Work/Accounts", "personal", "Favorites", "Personal"])
        #expect(mail.notes == "Two factor on.\nSecond line, with a comma.")
        #expect(mail.totpURI == "otpauth://totp/Mail:jane?secret=JBSWY3DPEHPK3PXP&issuer=Mail")
        #expect(mail.fields == [CustomField(name: "remember", value: "true"), CustomField(name: "pin", value: "4711", hidden: true),
                                CustomField(name: "recovery code", value: "ABCD-EFGH", hidden: true),
                                CustomField(name: "security question", value: "first pet")])
        #expect(mail.history.map(\.password) == ["older-pass-1", "oldest-pass"])
        #expect(mail.history[0].changedAt == Date(timeIntervalSince1970: 1_635_522_854))
        #expect(mail.created == Date(timeIntervalSince1970: 1_635_522_833) && mail.modified == Date(timeIntervalSince1970: 1_635_522_872))

        let card = result.entries[1]
        #expect(card.password == nil)
        #expect(card.fields == [CustomField(name: "Cardholder name", value: "Jane Appleseed"), CustomField(name: "Brand", value: "visa"),
                                CustomField(name: "Number", value: "4111111111111111", hidden: true),
                                CustomField(name: "Security code", value: "123", hidden: true),
                                CustomField(name: "Expiry month", value: "12"), CustomField(name: "Expiry year", value: "2027"),
                                CustomField(name: "valid from", value: "2020-12")])
        let identity = result.entries[3]
        #expect(identity.fields == [CustomField(name: "First name", value: "Jane"), CustomField(name: "Last name", value: "Appleseed"),
                                    CustomField(name: "birth date", value: "1990-01-01"), CustomField(name: "Address 1", value: "1 Main St"),
                                    CustomField(name: "City", value: "Springfield"), CustomField(name: "State", value: "IL"),
                                    CustomField(name: "Postal code", value: "12345"), CustomField(name: "Country", value: "us"),
                                    CustomField(name: "E-mail", value: "jane@mail.example")])
        let password = result.entries[4]
        #expect(password.password == "bare-password" && password.tags == ["Archived", "Personal"])
        #expect(password.fields == [CustomField(name: "Type", value: "Password")])
        let server = result.entries[5]
        #expect(server.urls == ["ssh://10.0.0.1"] && server.username == "root" && server.password == "srv-pass")
        #expect(server.fields == [CustomField(name: "Type", value: "Server")])
        #expect(result.entries[6].tags == ["Shared"] && result.entries[6].notes == "scan")
    }

    /// Bitwarden's export with attachments: data.json read as the JSON
    /// export, each item's files from attachments/ITEM-ID/ (one file two
    /// items hold is one set of bytes).
    @Test func bitwardensExportWithAttachments() throws {
        let data = try Self.fixture("bitwarden-attachments.zip")
        #expect(try ImportFormat.identify(data).get().explanation == "its ZIP's data.json (Bitwarden's export with attachments)")
        let result = try Importer.read(data, format: .bitwardenJSON, existing: [], now: Self.now)
        #expect(result.entries.map(\.title) == ["Northwind", "Door code"])
        #expect(result.entries[0].attachments.map(\.name).sorted() == ["codes.txt", "statement.pdf"] && result.entries[1].attachments.map(\.name) == ["codes.txt"])
        let statement = try #require(result.entries[0].attachments.first { $0.name == "statement.pdf" })
        #expect(result.files[statement.blob] == Array("%PDF-1.4 statement".utf8) && statement.mediaType == "application/pdf")
        #expect(result.files.count == 2 && result.notHeld.isEmpty)
    }

    @Test func aZipThatIsNot1PUXOrIsDamagedIsRefused() throws {
        let archive = try Self.fixture("1password.1pux")
        // export.data's compressed bytes changed: its data no longer inflates, or its CRC fails.
        var damaged = archive
        let member = try #require(damaged.range(of: Data("export.data".utf8)))
        damaged.replaceSubrange(member.upperBound + 40..<member.upperBound + 70, with: Data(repeating: 0x41, count: 30))
        #expect(throws: ImportError(line: nil, message: "export.data in the archive is damaged (its data does not inflate or its checksum fails)")) {
            try Importer.read(damaged, format: .onePassword1PUX, existing: [])
        }
        // Cut short: no central directory.
        #expect(throws: ImportError.self) { try Importer.read(archive.prefix(archive.count - 40), format: .onePassword1PUX, existing: []) }
        #expect(throws: ImportError(line: nil, message: "not a readable ZIP archive: Not a zip archive")) {
            try Importer.read(Data("name,url\n".utf8), format: .onePassword1PUX, existing: [])
        }
    }

    @Test(arguments: ["bitwarden-pbkdf2.json", "bitwarden-argon2id.json"])
    func bitwardenPasswordProtectedExportsOpenWithTheirPassword(name: String) throws {
        let data = try Self.fixture(name)
        #expect(BitwardenEncryption.isPasswordProtected(data) && ImportFormat.detect(data) == .bitwardenJSON)
        let result = try Importer.read(data, format: .bitwardenJSON, existing: [], filePassword: "correct horse battery staple")
        #expect(result.entries.map(\.title) == ["Northwind", "Door code"])
        let bank = result.entries[0]
        #expect(bank.password == "bank-Pass-1" && bank.tags == ["Money/Banks", "Favorites"] && bank.history.map(\.password) == ["bank-old-1"])
        #expect(bank.fields == [CustomField(name: "Customer no", value: "987")])
        // Bitwarden's steam:// becomes the otpauth form, with Steam's codes.
        let steam = try OTPAuthURL.parse(try #require(bank.totpURI))
        #expect(steam.encoder == .steam && steam.code(at: 0) == "VH8YJ" && bank.totpURI!.hasPrefix("otpauth://"))
        #expect(result.entries[1].kind == .secureNote && result.entries[1].notes == "4711#")

        #expect(throws: ImportError(line: nil, message: "wrong password for this Bitwarden export (its key check did not match)")) {
            try Importer.read(data, format: .bitwardenJSON, existing: [], filePassword: "correct horse battery stapler")
        }
        #expect(throws: ImportError(line: nil, message: "this Bitwarden export is password protected: its password is needed to read it")) {
            try Importer.read(data, format: .bitwardenJSON, existing: [])
        }
    }

    @Test func aTamperedSealedValueIsRefusedByItsMAC() throws {
        var root = try JSONSerialization.jsonObject(with: Self.fixture("bitwarden-pbkdf2.json")) as! [String: Any]
        var parts = (root["data"] as! String).split(separator: "|").map(String.init)
        var ciphertext = [UInt8](Data(base64Encoded: parts[1])!)
        ciphertext[0] ^= 1
        parts[1] = Data(ciphertext).base64EncodedString()
        root["data"] = parts.joined(separator: "|")
        let tampered = try JSONSerialization.data(withJSONObject: root)
        #expect(throws: ImportError(line: nil, message: "the export's data is damaged: its MAC does not match")) {
            try Importer.read(tampered, format: .bitwardenJSON, existing: [], filePassword: "correct horse battery staple")
        }
    }

    @Test func hostileKeyDerivationSettingsAreRefusedBeforeAnyWork() throws {
        var root = try JSONSerialization.jsonObject(with: Self.fixture("bitwarden-argon2id.json")) as! [String: Any]
        root["kdfMemory"] = 1 << 20
        #expect(throws: ImportError(line: nil, message: "cannot derive the export's key: Argon2id memory 1048576 MiB is over bulwark's limit of 1024 MiB")) {
            try Importer.read(try JSONSerialization.data(withJSONObject: root), format: .bitwardenJSON, existing: [], filePassword: "x")
        }
        root["kdfType"] = 7
        #expect(throws: ImportError(line: nil, message: "the export names a key derivation bulwark does not know (kdfType 7; 0 is PBKDF2, 1 Argon2id)")) {
            try Importer.read(try JSONSerialization.data(withJSONObject: root), format: .bitwardenJSON, existing: [], filePassword: "x")
        }
        root["kdfType"] = 0
        root["kdfIterations"] = 10
        #expect(throws: ImportError(line: nil, message: "the export's PBKDF2 iterations are missing or below Bitwarden's minimum of 5,000")) {
            try Importer.read(try JSONSerialization.data(withJSONObject: root), format: .bitwardenJSON, existing: [], filePassword: "x")
        }
    }

    /// bulwark's own password-protected export reads back whole, and is
    /// Bitwarden's shape (the fields its importer checks).
    @Test func thePasswordProtectedExportRoundTrips() throws {
        var entry = Entry(title: "Shiny", urls: ["https://shiny.example"], username: "jane", password: "s3cret", notes: "n",
                          totpURI: OTPAuthURL.build(.steam(secret: [1, 2, 3, 4, 5])), tags: ["Work"])
        entry.fields = [CustomField(name: "PIN", value: "1234", hidden: true)]
        let sealed = try BitwardenEncryption.seal(Exporter.write([entry], format: .bitwardenJSON), password: "pw", kdf: .pbkdf2(iterations: 5_000))
        let root = try JSONSerialization.jsonObject(with: sealed) as! [String: Any]
        #expect(root["encrypted"] as? Bool == true && root["passwordProtected"] as? Bool == true && root["kdfType"] as? Int == 0)
        #expect((root["data"] as! String).hasPrefix("2.") && !String(decoding: sealed, as: UTF8.self).contains("s3cret"))
        let back = try Importer.read(sealed, format: .bitwardenJSON, existing: [], filePassword: "pw").entries
        #expect(back.count == 1 && back[0].password == "s3cret" && back[0].fields == entry.fields)
        // Steam travels as Bitwarden's steam://SECRET (its label cannot), and comes back as the same code generator.
        #expect(String(decoding: Exporter.write([entry], format: .bitwardenJSON), as: UTF8.self).contains("\"totp\" : \"steam://AEBAGBAF\""))
        let code = try OTPAuthURL.parse(try #require(back[0].totpURI))
        let original = try OTPAuthURL.parse(entry.totpURI!)
        #expect(code.encoder == .steam && code.secret == [1, 2, 3, 4, 5] && code.code(at: 1_000) == original.code(at: 1_000))
    }

    /// RFC 5869's HKDF-Expand as Bitwarden stretches a key (the vector in
    /// bitwarden/sdk-internal's keys/utils.rs test_stretch_kdf_key).
    @Test func hkdfExpandMatchesBitwardensVector() throws {
        let key: [UInt8] = [31, 79, 104, 226, 150, 71, 177, 90, 194, 80, 172, 209, 17, 129, 132, 81, 138,
                            167, 69, 167, 254, 149, 2, 27, 39, 197, 64, 42, 22, 195, 86, 75]
        #expect(try PasswordKDF.hkdfExpandSHA256(key: key, info: Array("enc".utf8)) == [111, 31, 178, 45, 238, 152, 37, 114, 143, 215, 124, 83, 135, 173, 195, 23, 142,
                                                                                         134, 120, 249, 61, 132, 163, 182, 113, 197, 189, 204, 188, 21, 237, 96])
        #expect(try PasswordKDF.hkdfExpandSHA256(key: key, info: Array("mac".utf8)) == [221, 127, 206, 234, 101, 27, 202, 38, 86, 52, 34, 28, 78, 28, 185, 16, 48, 61, 127,
                                                                                         166, 209, 247, 194, 87, 232, 26, 48, 85, 193, 249, 179, 155])
    }
}
