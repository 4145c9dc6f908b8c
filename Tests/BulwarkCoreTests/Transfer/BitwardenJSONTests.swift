import Foundation
import Testing
@testable import BulwarkCore

/// Bitwarden's JSON export, both ways. The fixture follows the shape of
/// Bitwarden's own exporter (its `ExportedVault`/`CipherExport` models in
/// the clients repository: item `type` 1-5, `fields` `type` 0-3,
/// `passwordHistory`, ISO dates, `deletedDate` for the trash, a folder per
/// item with `/` for nesting), with the cases that lost data before.
@Suite struct BitwardenJSONTests {
    static let fixture = #"""
    {
      "encrypted": false,
      "folders": [{"id": "f-1", "name": "Work/Servers"}],
      "items": [
        {"id": "i-1", "organizationId": null, "folderId": "f-1", "type": 1, "reprompt": 0, "name": "GitHub (work)",
         "notes": "its own note", "favorite": true,
         "fields": [{"name": "Recovery codes", "value": "1111-2222", "type": 1, "linkedId": null},
                    {"name": "Team", "value": "platform", "type": 0, "linkedId": null},
                    {"name": "Admin", "value": "true", "type": 2, "linkedId": null}],
         "login": {"uris": [{"match": null, "uri": "https://github.com/login"}, {"match": 3, "uri": "https://github.com/sessions"}],
                   "username": "jane", "password": "new-pw", "totp": "otpauth://totp/GitHub:jane?secret=JBSWY3DPEHPK3PXP",
                   "passwordRevisionDate": "2024-03-01T10:00:00.000Z", "fido2Credentials": []},
         "passwordHistory": [{"lastUsedDate": "2024-03-01T10:00:00.000Z", "password": "old-pw"}],
         "revisionDate": "2024-03-02T10:00:00.000Z", "creationDate": "2020-01-01T00:00:00.000Z", "deletedDate": null},
        {"id": "i-2", "organizationId": null, "folderId": null, "type": 1, "reprompt": 0, "name": "GitHub", "notes": null,
         "favorite": false, "login": {"uris": [{"match": null, "uri": "https://github.com/login"}], "username": "jane", "password": "new-pw", "totp": null},
         "revisionDate": "2024-03-02T10:00:00.000Z", "creationDate": "2020-01-01T00:00:00.000Z", "deletedDate": null},
        {"id": "i-3", "type": 2, "name": "Wi-Fi", "notes": "hunter2", "secureNote": {"type": 0}, "favorite": false, "deletedDate": null},
        {"id": "i-4", "type": 3, "name": "Visa", "notes": null, "favorite": false, "deletedDate": null,
         "card": {"cardholderName": "Jane Doe", "brand": "Visa", "number": "4111111111111111", "expMonth": "12", "expYear": "2030", "code": "123"}},
        {"id": "i-5", "type": 4, "name": "Me", "notes": null, "favorite": false, "deletedDate": null,
         "identity": {"title": "Ms", "firstName": "Jane", "middleName": null, "lastName": "Doe", "email": "jane@mail.example", "ssn": "123-45-6789",
                      "passportNumber": null, "licenseNumber": null, "address1": null, "address2": null, "address3": null, "city": "Paris",
                      "state": null, "postalCode": null, "country": "FR", "company": null, "phone": null, "username": null}},
        {"id": "i-6", "type": 1, "name": "Deleted", "login": {"username": "x", "password": "y"}, "deletedDate": "2024-05-01T00:00:00.000Z"}
      ]
    }
    """#

    @Test func everyItemAndFieldArrives() throws {
        let result = try Importer.read(Data(Self.fixture.utf8), format: .bitwardenJSON, existing: [])
        #expect(result.entries.map(\.title) == ["GitHub (work)", "GitHub", "Wi-Fi", "Visa", "Me"])
        #expect(result.inTrash == 1 && result.duplicates == 0)
        let work = result.entries[0]
        #expect(work.urls == ["https://github.com/login", "https://github.com/sessions"] && work.notes == "its own note")
        #expect(work.tags == ["Work/Servers", "Favorites"])
        #expect(work.fields == [CustomField(name: "Recovery codes", value: "1111-2222", hidden: true),
                                CustomField(name: "Team", value: "platform"), CustomField(name: "Admin", value: "true")])
        #expect(work.history.map(\.password) == ["old-pw"] && work.history[0].changedAt == Date(timeIntervalSince1970: 1_709_287_200))
        #expect(work.created == Date(timeIntervalSince1970: 1_577_836_800) && work.modified == Date(timeIntervalSince1970: 1_709_373_600))
        #expect(work.passwordChanged == Date(timeIntervalSince1970: 1_709_287_200))
        #expect(result.entries[2].kind == .secureNote && result.entries[2].notes == "hunter2")
        let card = result.entries[3]
        #expect(card.kind == .card && card.password == nil)
        #expect(card.fields.first { $0.name == "Number" } == CustomField(name: "Number", value: "4111111111111111", hidden: true))
        #expect(card.fields.first { $0.name == "Security code" }?.hidden == true && card.fields.count == 6)
        let me = result.entries[4]
        #expect(me.kind == .identity && me.fields.map(\.name) == ["Title", "First name", "Last name", "City", "Country", "E-mail", "Social security number"])
        #expect(me.fields.last?.hidden == true)
    }

    /// What Bitwarden sets and bulwark has no place for is named: URL match settings, linked fields, the re-prompt;
    /// a boolean field is a field.
    @Test func matchSettingsLinkedFieldsAndRepromptAreNamed() throws {
        let json = #"""
        {"encrypted": false, "folders": [], "items": [
          {"type": 1, "reprompt": 1, "name": "Bank", "favorite": false,
           "fields": [{"name": "Remember me", "value": "true", "type": 2, "linkedId": null},
                      {"name": "Login alias", "value": null, "type": 3, "linkedId": 100}],
           "login": {"uris": [{"match": 3, "uri": "https://bank.example/login"}, {"match": 1, "uri": "https://bank.example"},
                              {"match": 3, "uri": "https://m.bank.example"}], "username": "jane", "password": "pw"}}]}
        """#
        let result = try Importer.read(Data(json.utf8), format: .bitwardenJSON, existing: [])
        #expect(result.entries[0].fields == [CustomField(name: "Remember me", value: "true")])
        #expect(result.notHeld == ["the URL match setting \"exact\" of 2 addresses (bulwark matches an address by its site)",
                                   "the URL match setting \"host\" of 1 address (bulwark matches an address by its site)",
                                   "the linked field Login alias of Bank (Bitwarden shows another of the item's values under it)",
                                   "the master-password re-prompt of 1 item (bulwark asks for it when the vault opens)"])
    }

    /// bulwark → Bitwarden JSON → bulwark gives back every field.
    @Test func aRoundTripKeepsEverything() throws {
        let first = try Importer.read(Data(Self.fixture.utf8), format: .bitwardenJSON, existing: []).entries
        var entries = first
        entries[1].tags = ["a", "b", "c"]
        entries[1].category = .work
        entries[1].categoryIsManual = true
        entries[1].expires = Date(timeIntervalSince1970: 1_900_000_000)
        entries[1].snapshots = [EntrySnapshot(at: Date(timeIntervalSince1970: 1_600_000_000), values: [CustomField(name: "URL", value: "https://old.example")])]
        let written = Exporter.write(entries, format: .bitwardenJSON)
        let again = try Importer.read(written, format: .bitwardenJSON, existing: []).entries
        #expect(again.count == entries.count)
        for (a, b) in zip(entries, again) {
            #expect(a.title == b.title && a.kind == b.kind && a.fields == b.fields && a.urls == b.urls && a.username == b.username)
            #expect(a.password == b.password && a.notes == b.notes && a.totpURI == b.totpURI && a.tags == b.tags, "\(a.title)")
            // Bitwarden's dates carry milliseconds: that is the precision kept.
            func same(_ x: Date, _ y: Date) -> Bool { abs(x.timeIntervalSince(y)) < 0.001 }
            #expect(a.history.map(\.password) == b.history.map(\.password) && zip(a.history, b.history).allSatisfy { same($0.changedAt, $1.changedAt) })
            #expect(same(a.created, b.created) && same(a.modified, b.modified) && same(a.passwordChanged, b.passwordChanged), "\(a.title)")
            #expect(a.category == b.category && a.expires == b.expires && a.snapshots == b.snapshots, "\(a.title)")
        }
        // In Bitwarden's own names: a folder, a card object, hidden fields as type 1.
        let json = try #require(try JSONSerialization.jsonObject(with: written) as? [String: Any])
        #expect((json["folders"] as? [[String: Any]])?.compactMap { $0["name"] as? String }.contains("Work/Servers") == true)
        let items = try #require(json["items"] as? [[String: Any]])
        #expect((items[3]["card"] as? [String: Any])?["number"] as? String == "4111111111111111" && items[3]["type"] as? Int == 3)
        #expect(((items[0]["fields"] as? [[String: Any]])?.first)?["type"] as? Int == 1)
    }

    /// Apple's CSV: an account with several websites is one row per website, read back as one entry.
    @Test func appleCSVWritesARowPerWebsite() throws {
        let entry = Entry(title: "GitHub", urls: ["https://github.com", "https://gist.github.com"], username: "jane", password: "pw")
        let csv = String(decoding: Exporter.write([entry], format: .appleCSV), as: UTF8.self)
        #expect(csv == "Title,URL,Username,Password,Notes,OTPAuth\r\nGitHub,https://github.com,jane,pw,,\r\nGitHub,https://gist.github.com,jane,pw,,\r\n")
        let back = try Importer.read(Data(csv.utf8), format: .appleCSV, existing: [])
        #expect(back.entries.count == 1 && back.entries[0].urls == entry.urls)
    }

    /// An "other" entry (a server's sign-in) goes to Bitwarden as a login, which keeps its user name and
    /// password there (a secure note would drop them), and comes back as "other"; a favourite is
    /// Bitwarden's favourite, never a folder named Favorites.
    @Test func otherEntriesAreLoginsAndFavouritesAreNoFolder() throws {
        var server = Entry(title: "Build server", urls: ["ssh://10.0.0.1"], username: "root", password: "srv-pass",
                           tags: ["Favorites", "Work", "Servers"], created: Date(timeIntervalSince1970: 1_700_000_000), kind: .other)
        server.modified = server.created
        let data = Exporter.write([server], format: .bitwardenJSON)
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let item = try #require((root["items"] as? [[String: Any]])?.first)
        #expect(item["type"] as? Int == 1 && item["favorite"] as? Bool == true)
        #expect((item["login"] as? [String: Any])?["username"] as? String == "root")
        #expect((root["folders"] as? [[String: Any]])?.map { $0["name"] as? String } == ["Work"])
        let fields = (item["fields"] as? [[String: Any]] ?? []).map { "\($0["name"] ?? ""): \($0["value"] ?? "")" }
        #expect(fields == ["bulwark:tags: Servers", "bulwark:kind: other"])
        let back = try #require(try Importer.read(data, format: .bitwardenJSON, existing: []).entries.first)
        #expect(back.kind == .other && back.username == "root" && back.password == "srv-pass" && back.fields.isEmpty)
        #expect(back.tags == ["Work", "Servers", "Favorites"])
    }
}

extension BitwardenJSONTests {
    /// A number where Bitwarden writes text is read as the text written in
    /// the file (a password "1.50" stays "1.50", not 1.5), and said; a
    /// boolean field's value is "true" or "false"; a field that is not an
    /// object, and a history entry without a password, are passed over.
    @Test func numbersAreReadAsTheyWereWritten() throws {
        let json = #"""
        {"encrypted": false, "folders": [], "items": [
          {"type": 1, "name": "Lock", "notes": null,
           "fields": [{"name": "PIN", "value": 0042.5e1, "type": 1}, {"name": "On", "value": false, "type": 2}, "stray"],
           "passwordHistory": [{"password": 12, "lastUsedDate": "2024-01-02T03:04:05.000Z"}, {"lastUsedDate": null}],
           "login": {"username": 7, "password": 1.50, "uris": [{"uri": "https://lock.example"}, 5]}}]}
        """#
        #expect(throws: ImportError.self) { try Importer.read(Data(json.utf8), format: .bitwardenJSON, existing: []) }
        let valid = json.replacingOccurrences(of: "0042.5e1", with: "42.5e1")
        let result = try Importer.read(Data(valid.utf8), format: .bitwardenJSON, existing: [])
        let lock = try #require(result.entries.first)
        #expect(lock.password == "1.50" && lock.username == "7" && lock.urls == ["https://lock.example"])
        #expect(lock.fields == [CustomField(name: "PIN", value: "42.5e1", hidden: true), CustomField(name: "On", value: "false")])
        #expect(lock.history.map(\.password) == ["12"])
        #expect(result.keptAside.contains("the password of Lock was a JSON number in the file; it was read as the text of that number"))
    }
}
