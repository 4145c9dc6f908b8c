import Foundation
import Testing
@testable import BulwarkCore

/// Detection that does not guess: every CSV dialect told by its header
/// however long the file, the choice explained when two fit, and a file no
/// reader takes answered with the closest format and its first difference.
@Suite struct ImportDetectionTests {
    /// Each dialect's first lines: a header (none for Keeper's and Dashlane's
    /// older CSV) and a row with a quoted line break and a comma.
    static let dialects: [(ImportFormat, String)] = [
        (.appleCSV, "Title,URL,Username,Password,Notes,OTPAuth\nMail,https://a.example,jane,pw,\"a\nb, c\",\n"),
        (.chromeCSV, "name,url,username,password,note\nMail,https://a.example,jane,pw,\"a\nb, c\"\n"),
        (.firefoxCSV, "\"url\",\"username\",\"password\",\"httpRealm\",\"formActionOrigin\",\"guid\",\"timeCreated\",\"timeLastUsed\",\"timePasswordChanged\"\n\"https://a.example\",\"jane\",\"p\"\"w, x\",,\"\",\"{1}\",\"1\",\"1\",\"1\"\n"),
        (.lastpassCSV, "url,username,password,totp,extra,name,grouping,fav\nhttps://a.example,jane,pw,,\"a\nb, c\",Mail,Work,0\n"),
        (.bitwardenCSV, "folder,favorite,type,name,notes,fields,reprompt,login_uri,login_username,login_password,login_totp\n,,login,Mail,\"a\nb, c\",,0,https://a.example,jane,pw,\n"),
        (.keepassxcCSV, "\"Group\",\"Title\",\"Username\",\"Password\",\"URL\",\"Notes\",\"TOTP\",\"Icon\",\"Last Modified\",\"Created\"\n\"Root\",\"Mail\",\"jane\",\"pw\",\"https://a.example\",\"a\nb, c\",\"\",\"0\",\"2024-01-01T00:00:00Z\",\"2024-01-01T00:00:00Z\"\n"),
        (.onePasswordCSV, "Title,Url,Username,Password,OTPAuth,Favorite,Archived,Tags,Notes\n\"Mail\",\"https://a.example\",\"jane\",\"pw\",\"\",\"false\",\"false\",\"\",\"a\nb, c\"\n"),
    ]

    static func csvFixtures() throws -> [(ImportFormat, String)] {
        let files: [(ImportFormat, String)] = [(.nordpassCSV, "nordpass.csv"), (.dashlaneCSV, "dashlane-credentials.csv"), (.dashlaneCSV, "dashlane-old.csv"),
                                               (.keeperCSV, "keeper.csv"), (.protonPassCSV, "protonpass.csv"), (.roboformCSV, "roboform.csv"),
                                               (.roboformCSV, "roboform-v1.csv"), (.keepassCSV, "keepass.csv"), (.onePassword7CSV, "1password7-mac.csv"),
                                               (.onePassword7CSV, "1password7-win.csv")]
        return try dialects + files.map { ($0.0, String(decoding: try ProtectedAndZippedImportTests.fixture("formats/" + $0.1), as: UTF8.self)) }
    }

    /// Rows repeated past 64 KB: detection reads the header (or, headerless, the first lines), never a prefix cut in a quote.
    @Test func everyCSVDialectIsToldPast64KB() throws {
        for (format, text) in try Self.csvFixtures() {
            let header = CSV.firstRecord(of: text)
            let headerless = ImportFormat.identify(header: (try CSV.parse(String(header)).first?.fields) ?? []) == nil
            let rows = headerless ? text : String(text.dropFirst(header.count + 1))
            var long = text
            while long.utf8.count < 70_000 { long += rows }
            let data = Data(long.utf8)
            #expect(data.count > 65_536)
            #expect(ImportFormat.detect(data) == format, "\(format.rawValue)")
            #expect(ImportFormat.detect(Data(text.utf8)) == format, "\(format.rawValue)")
        }
    }

    @Test func whenTwoFitTheChoiceIsExplained() throws {
        let nordpass = try #require(ImportFormat.identify(header: ["name", "url", "username", "password", "note", "cardholdername", "folder"]))
        #expect(nordpass.format == .nordpassCSV && nordpass.alsoFits == [.chromeCSV])
        #expect(nordpass.explanation == "its header's cardholdername column; chrome-csv's columns are there too, but not those")
        let firefox = try #require(ImportFormat.identify(header: ["url", "username", "password", "httpRealm", "formActionOrigin", "guid"]))
        #expect(firefox.explanation == "its header's httprealm, formactionorigin and guid columns")
    }

    @Test func aFileNoReaderTakesNamesTheClosestFormatAndItsFirstDifference() {
        let near = ImportFormat.identify(Data("name,url,username,pass\nMail,https://a.example,jane,pw\n".utf8))
        #expect(near == .failure(ImportNotRecognised(description: "the closest is chrome-csv, whose header has name, url, username and password; this one has no 'password' column (its header names name,url,username; column 4 is no column name bulwark knows, not shown)")))
        // A headerless file's first line is a login: its cells are never shown.
        let secret = ImportFormat.identify(Data("hunter2,correct horse\n".utf8))
        #expect(secret == .failure(ImportNotRecognised(description: "its first line names no column any format bulwark reads has (its first line has 2 fields and none is a column name: a file without a header? Its values are not shown)")))
        let json = ImportFormat.identify(Data("{\"logins\": [], \"version\": 2}".utf8))
        #expect(json == .failure(ImportNotRecognised(description: "a JSON document whose keys are \"logins\", \"version\": Bitwarden's and Enpass's have items, CXF's accounts, Proton Pass's vaults, Dashlane's AUTHENTIFIANT")))
    }

    /// Enpass's export has items and folders as Bitwarden's does; its items' fields and category tell it.
    @Test func enpassIsNotReadAsBitwarden() {
        let enpass = Data(#"{"folders": [], "items": [{"title": "A", "category": "login", "fields": []}]}"#.utf8)
        let bitwarden = Data(#"{"encrypted": false, "folders": [], "items": [{"type": 1, "name": "A"}]}"#.utf8)
        #expect(ImportFormat.detect(enpass) == .enpassJSON && ImportFormat.detect(bitwarden) == .bitwardenJSON)
    }
}
