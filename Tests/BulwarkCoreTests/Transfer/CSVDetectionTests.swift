import Foundation
import Testing
@testable import BulwarkCore

/// Two reading bugs a new user's files found (#39).
@Suite struct CSVDetectionAndFieldsTests {
    /// A Firefox export whose 4,096th character falls inside a quoted
    /// field was once "not a format bulwark recognises": only its header is read to tell.
    @Test func aLongExportIsDetectedByItsHeaderWhereverItsQuotesFall() {
        var text = "\"url\",\"username\",\"password\",\"httpRealm\",\"formActionOrigin\",\"guid\",\"timeCreated\",\"timeLastUsed\",\"timePasswordChanged\"\n"
        while text.utf8.count < 70_000 {
            text += "\"https://site.example\",\"jane\",\"pass, with \"\"quotes\"\" and a comma\",,\"\",\"{1}\",\"1\",\"1\",\"1\"\n"
        }
        for cut in 0..<40 {
            let data = Data((text + String(repeating: "x", count: cut)).utf8)
            #expect(ImportFormat.detect(data) == .firefoxCSV)
        }
        #expect(ImportFormat.detect(Data("name,\"a\nb\",url,username,password\nx,y,z,u,p\n".utf8)) == .chromeCSV)
    }

    /// Bitwarden's CSV on Windows ends its custom fields' lines with CRLF: each line is a field.
    @Test func bitwardenCustomFieldsOnCRLFLinesAreEachAField() throws {
        let text = "folder,favorite,type,name,notes,fields,reprompt,login_uri,login_username,login_password,login_totp\r\n"
            + ",,login,Mail,,\"PIN: 1234\r\nQuestion: first pet\",0,https://mail.example,jane,pw,\r\n"
        let result = try Importer.read(Data(text.utf8), format: .bitwardenCSV, existing: [])
        #expect(result.entries.first?.fields == [CustomField(name: "PIN", value: "1234"), CustomField(name: "Question", value: "first pet")])
    }

    /// LastPass writes a folder in a folder with a backslash; the tag is the path as every other format writes it.
    @Test func lastPassFolderPathsBecomeTagPaths() throws {
        let text = "url,username,password,totp,extra,name,grouping,fav\nhttps://a.example,jane,pw,,,A,Work\\Servers,0\n"
        let result = try Importer.read(Data(text.utf8), format: .lastpassCSV, existing: [])
        #expect(result.entries.first?.tags == ["Work/Servers"])
    }

    /// An organisation's Bitwarden CSV names each item's collections (joined by commas): they are tags.
    @Test func bitwardenOrganisationCollectionsAreTags() throws {
        let text = "collections,type,name,notes,fields,reprompt,login_uri,login_username,login_password,login_totp\n"
            + "\"Engineering,Ops/On call\",login,Pager,,,0,https://pager.example,jane,pw,\n"
        let result = try Importer.read(Data(text.utf8), format: .bitwardenCSV, existing: [])
        #expect(result.entries.first?.tags == ["Engineering", "Ops/On call"] && result.entries.first?.fields.isEmpty == true)
    }

    /// A row with a stray quote (an undoubled one inside a quoted field, one inside a plain field)
    /// refuses the file saying what --skip-bad-rows does, and with it reads the quote as part of the value.
    @Test func aStrayQuoteIsNamedAndReadWithSkipBadRows() throws {
        let text = "\"url\",\"username\",\"password\",\"httpRealm\",\"formActionOrigin\",\"guid\",\"timeCreated\",\"timeLastUsed\",\"timePasswordChanged\"\n"
            + "\"https://a.example\",\"jane\",\"pass\"word\",,\"\",\"{1}\",\"1\",\"1\",\"1\"\n"
            + "https://b.example,jo\"e,pw2,,,{2},1,1,1\n"
        #expect(throws: ImportError(line: 2, message: "unexpected text after a closing quote; --skip-bad-rows reads such a quote as part of the value")) {
            try Importer.read(Data(text.utf8), format: .firefoxCSV, existing: [])
        }
        let result = try Importer.read(Data(text.utf8), format: .firefoxCSV, existing: [], skipBadRows: true)
        #expect(result.entries.map(\.password) == ["pass\"word", "pw2"] && result.entries.map(\.username) == ["jane", "jo\"e"])
        #expect(result.rowNotes == ["line 2: a stray quote, read as part of the value", "line 3: a stray quote, read as part of the value"])
    }

    /// KeePassXC's recycle bin is named in the database's language: a German one's "Papierkorb" is its trash too.
    @Test func aKeePassXCRecycleBinInAnyLanguageIsTheTrash() throws {
        let text = "\"Group\",\"Title\",\"Username\",\"Password\",\"URL\",\"Notes\",\"TOTP\",\"Icon\",\"Last Modified\",\"Created\"\n"
            + "\"Stamm/Papierkorb\",\"Old\",\"jane\",\"pw\",\"\",\"\",\"\",\"0\",\"2024-01-01T00:00:00Z\",\"2024-01-01T00:00:00Z\"\n"
            + "\"Racine/Corbeille/Sous\",\"Older\",\"jane\",\"pw\",\"\",\"\",\"\",\"0\",\"2024-01-01T00:00:00Z\",\"2024-01-01T00:00:00Z\"\n"
            + "\"Stamm/Arbeit\",\"Mail\",\"jane\",\"pw\",\"\",\"\",\"\",\"0\",\"2024-01-01T00:00:00Z\",\"2024-01-01T00:00:00Z\"\n"
        let result = try Importer.read(Data(text.utf8), format: .keepassxcCSV, existing: [])
        #expect(result.entries.map(\.title) == ["Mail"] && result.entries[0].tags == ["Arbeit"] && result.inTrash == 2)
    }
}
