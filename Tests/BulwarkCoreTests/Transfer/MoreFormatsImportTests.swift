import Foundation
import Testing
@testable import BulwarkCore

/// The formats of #39's second list, each read from a file in its
/// exporter's shape (Fixtures/transfer/make-format-fixtures.py), told
/// without `--format`, and compared field by field.
@Suite struct MoreFormatsImportTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let password = "c0rrect \"horse\", battery", note = "first line\nsecond, with a comma"
    static let totp = "otpauth://totp/Mail:jane?secret=JBSWY3DPEHPK3PXP&issuer=Mail"
    static let created = Date(timeIntervalSince1970: 1_700_000_000), modified = Date(timeIntervalSince1970: 1_700_003_600)

    static func read(_ name: String, as format: ImportFormat) throws -> ImportResult {
        let data = try ProtectedAndZippedImportTests.fixture("formats/" + name)
        #expect(ImportFormat.detect(data) == format, "\(name)")
        return try Importer.read(data, format: format, existing: [], now: now)
    }

    /// One line per entry: kind, title, user, password, addresses, note, code, tags, then each field (`*` hidden).
    static func lines(_ result: ImportResult) -> [String] {
        result.entries.map { entry in
            ([entry.kind.rawValue, entry.title, entry.username, entry.password ?? "-", entry.urls.joined(separator: " "),
              entry.notes.replacingOccurrences(of: "\n", with: "⏎"), entry.totpURI == nil ? "" : "totp", entry.tags.joined(separator: ",")]
             + entry.fields.map { "\($0.name)=\($0.hidden ? "*" : "")\($0.value)" }).joined(separator: "|")
        }
    }

    static let mail = "login|Mail|jane@example.com|\(password)|https://mail.example.com|first line⏎second, with a comma"

    @Test func nordPassWithFoldersCardsIdentitiesAndJSONFields() throws {
        let result = try Self.read("nordpass.csv", as: .nordpassCSV)
        #expect(Self.lines(result) == [
            "login|Mail|jane@example.com|\(Self.password)|https://mail.example.com https://webmail.example.com|first line⏎second, with a comma||Work/Servers|PIN=*4321|Recovery e-mail=jane@home.example",
            "secure-note|Alarm code||-||1234, then #||",
            "card|Visa||-|||||cardholdername=Jane Appleseed|cardnumber=*4111111111111111|cvc=*123|pin=*9876|expirydate=09/28|zipcode=90210",
            "identity|Jane||-|||||full_name=Jane Appleseed|phone_number=+1 555 0100|email=jane@example.com|address1=1 Main St|city=Springfield|country=US",
        ])
    }

    /// NordPass's older export has no type column and writes each folder as a row of its name alone.
    @Test func olderNordPassFolderRowsAreNotItems() throws {
        let text = "name,url,username,password,note,cardholdername,cardnumber,cvc,expirydate,zipcode,folder,full_name,phone_number,email,address1,address2,city,country,state\n"
            + "Bank,,,,,,,,,,,,,,,,,,\nBank account,https://bank.example,jane,pw,,,,,,,Bank,,,,,,,,\n"
        let result = try Importer.read(Data(text.utf8), format: .nordpassCSV, existing: [], now: Self.now)
        #expect(Self.lines(result) == ["login|Bank account|jane|pw|https://bank.example|||Bank"])
    }

    @Test func dashlanesArchiveOfCSVs() throws {
        let result = try Self.read("dashlane.zip", as: .dashlaneCSV)
        #expect(Self.lines(result) == [
            Self.mail + "|totp|Work/Servers|username2=jane",
            "login|Old forum||hunter2|https://forum.example.org|||",
            "identity|Jane Appleseed||-|||||type=passport|number=*X1234567|name=Jane Appleseed|issue_date=2020-1-2|expiration_date=2030-1-1|place_of_issue=US",
            "card|Visa||-|||||type=credit_card|account_name=Visa|account_holder=Jane Appleseed|cc_number=*4111111111111111|code=*123|expiration_month=9|expiration_year=2028|country=US",
            "secure-note|Alarm code||-||1234, then #||",
        ])
        #expect(Self.lines(try Self.read("dashlane-credentials.csv", as: .dashlaneCSV)) == Array(Self.lines(result).prefix(2)))
    }

    @Test func dashlanesOlderHeaderlessCSVAndJSON() throws {
        #expect(Self.lines(try Self.read("dashlane-old.csv", as: .dashlaneCSV)) == [Self.mail + "||", "secure-note|Alarm code||-||1234, then #||"])
        #expect(Self.lines(try Self.read("dashlane.json", as: .dashlaneJSON)) == [
            "login|Mail|jane|\(Self.password)|https://mail.example.com|first line⏎second, with a comma|||email=jane@example.com",
            "secure-note|Alarm code||-||1234, then #||",
            "card|Visa||-|||||owner=Jane Appleseed|cardNumber=*4111111111111111|securityCode=*123|expireMonth=09|expireYear=2028",
        ])
    }

    @Test func keepersHeaderlessCSVWithCustomPairsAndItsCode() throws {
        let result = try Self.read("keeper.csv", as: .keeperCSV)
        #expect(Self.lines(result) == [Self.mail + "|totp|Work/Servers|PIN=4321", "secure-note|Alarm code||-||1234, then #||",
                                       "login|Forum|jane|hunter2|https://forum.example.org|||Personal"])
        #expect(result.notHeld == ["the shared folder column (Keeper's shared folder), in 1 row"])
    }

    @Test func protonPassCSVAndItsZippedJSON() throws {
        let csv = try Self.read("protonpass.csv", as: .protonPassCSV)
        #expect(Self.lines(csv) == [Self.mail + "|totp|Work|Email=jane@home.example", "secure-note|Alarm code||-||1234, then #||Personal",
                                    "login|Shopping alias|shop.x1@passmail.net|||||Personal"])
        #expect(csv.entries[0].created == Self.created && csv.entries[0].modified == Self.modified)
        let json = try Self.read("protonpass.zip", as: .protonPassJSON)
        #expect(Self.lines(json) == [
            "login|Mail|jane@example.com|\(Self.password)|https://mail.example.com https://webmail.example.com|first line⏎second, with a comma|totp|Work,Favorites|Email=jane@home.example|PIN=*4321|Recovery=jane@home.example",
            "card|Visa||-||||Work|Cardholder name=Jane Appleseed|Number=*4111111111111111|Verification number=*123|Expiration date=2028-09|Pin=*9876",
            "secure-note|Alarm code||-||1234, then #||Personal",
            "login|Shopping alias|shop.x1@passmail.net|||||Personal",
        ])
        #expect(json.inTrash == 1 && json.entries[0].created == Self.created)
        // Each entry is made with its title and addresses: the category is guessed from them.
        #expect(json.entries[0].category == .email)
    }

    @Test func roboFormsFieldListsOldAndNew() throws {
        #expect(Self.lines(try Self.read("roboform.csv", as: .roboformCSV)) == [Self.mail + "|totp|Work/Servers|PIN=*4321",
                                                                                  "secure-note|Alarm code||-||1234, then #||Personal"])
        #expect(Self.lines(try Self.read("roboform-v1.csv", as: .roboformCSV)) == [Self.mail + "||Work/Servers|Mother's maiden name=Smith: of Springfield"])
    }

    @Test func enpassJSONIsNotBitwarden() throws {
        let result = try Self.read("enpass.json", as: .enpassJSON)
        #expect(Self.lines(result) == [Self.mail + "|totp|Work/Servers,Favorites|Security answer=*Smith", "secure-note|Alarm code||-||1234, then #||",
                                       "card|Visa||-||||Archived|Cardholder=Jane Appleseed|Number=*4111111111111111|CVC=*123|Expiry date=09/2028"])
        #expect(result.inTrash == 1 && result.notHeld == ["1 attachment of Mail (files from this format are not carried over yet)"])
        #expect(result.entries[0].created == Self.created && result.entries[0].modified == Self.modified)
    }

    /// Folders after the items, a folder named twice and one that is not
    /// there: read in one pass, the paths the same as when folders come first.
    @Test func enpassFoldersAfterTheItems() throws {
        let json = #"""
        {"items": [{"title": "Mail", "category": "login", "folders": ["f-servers", "f-gone", "f-servers"], "favorite": 1,
                    "fields": [{"type": "password", "label": "Password", "value": "pw"}]},
                   {"title": "Bank", "category": "login", "fields": [{"type": "password", "label": "Password", "value": "pw2"}]}],
         "folders": [{"uuid": "f-work", "title": "Work", "parent_uuid": ""}, {"uuid": "f-servers", "title": "Servers", "parent_uuid": "f-work"}]}
        """#
        let result = try Importer.read(Data(json.utf8), format: .enpassJSON, existing: [], now: Self.now)
        #expect(result.entries.map(\.tags) == [["Work/Servers", "Favorites"], []])
    }

    @Test func keePass2CSVAndKeePassX04XML() throws {
        #expect(Self.lines(try Self.read("keepass.csv", as: .keepassCSV)) == [Self.mail + "||"])
        let xml = try Self.read("keepassx.xml", as: .keepassxXML)
        #expect(Self.lines(xml) == [Self.mail + "||Work/Servers"] && xml.entries[0].expires == KeePassXXML.date("2030-01-01T00:00:00"))
        #expect(xml.inTrash == 1)
    }

    @Test func onePassword1PIFWithFoldersHistoryAndSections() throws {
        let result = try Self.read("1password.1pif", as: .onePasswordPIF)
        #expect(Self.lines(result) == [
            "login|Mail|jane@example.com|\(Self.password)|https://mail.example.com https://webmail.example.com|first line⏎second, with a comma|totp|Work/Servers,email,Favorites|PIN=*4321|member since=2020-01-01",
            "secure-note|Alarm code||-||1234, then #||",
            "card|Visa||-|||||cardholder name=Jane Appleseed|number=*4111111111111111|verification number=*123|expiry date=2028-09",
        ])
        #expect(result.entries[0].history.map(\.password) == ["older-password"] && result.inTrash == 1)
        #expect(result.entries[0].category == .email)  // guessed from the title and addresses the item gave
    }

    @Test func onePassword7sMacAndWindowsCSVs() throws {
        let mac = try Self.read("1password7-mac.csv", as: .onePassword7CSV)
        #expect(Self.lines(mac) == [Self.mail + "|totp|email,Work/Servers|PIN=*4321", "secure-note|Alarm code||-||1234, then #||",
                                    "card|Visa||-|||||cardholder name=Jane Appleseed|number=*4111111111111111|verification number=*123"])
        #expect(mac.entries[0].created == Self.created && mac.entries[0].modified == Self.modified)
        #expect(Self.lines(try Self.read("1password7-win.csv", as: .onePassword7CSV)) == [
            Self.mail + "||email", "secure-note|Alarm code||-||1234, then #||", "card|Visa||-|||||cardholder=Jane Appleseed|ccnum=*4111111111111111|cvv=*123"])
    }

    @Test func applesKeychainDump() throws {
        let result = try Self.read("apple-keychain.txt", as: .appleKeychain)
        #expect(Self.lines(result) == ["login|mail.example.com|jane@example.com|\(Self.password)|https://mail.example.com/login|first line|||Kind=Web form password",
                                       "login|Wi-Fi Home|Home|pässword|||||Service=AirPort"])
        #expect(result.entries[0].created == Self.created && result.entries[0].modified == Self.modified)
        #expect(result.notHeld == ["1 keychain item of class 0x80001000 (certificates and keys are not passwords)"])
    }
}
