import Foundation
import Testing
@testable import BulwarkCore

@Suite struct ImporterTests {
    static func read(_ text: String, _ format: ImportFormat, existing: [Entry] = []) throws -> ImportResult {
        try Importer.read(Data(text.utf8), format: format, existing: existing)
    }

    @Test func appleCSV() throws {
        let result = try Self.read("""
        Title,URL,Username,Password,Notes,OTPAuth\r
        "Bank, Main",https://bank.example/login,jane,"p,w""1","multi\r
        line",otpauth://totp/Bank:jane?secret=GEZDGNBV\r
        Café,https://café.example,josé,pässwörd,,\r

        """, .appleCSV)
        #expect(result.entries.count == 2)
        let bank = result.entries[0]
        #expect(bank.title == "Bank, Main" && bank.urls == ["https://bank.example/login"] && bank.username == "jane")
        #expect(bank.password == "p,w\"1" && bank.notes == "multi\r\nline" && bank.totpURI == "otpauth://totp/Bank:jane?secret=GEZDGNBV")
        #expect(result.entries[1].title == "Café" && result.entries[1].username == "josé" && result.entries[1].password == "pässwörd")
        #expect(result.entries[1].totpURI == nil)
    }

    @Test func chromeCSVWithABOM() throws {
        let result = try Self.read("\u{FEFF}name,url,username,password,note\nShiny,https://shiny.example/,jane,s3cret,hello\n", .chromeCSV)
        #expect(result.entries.map(\.title) == ["Shiny"])
        #expect(result.entries[0].notes == "hello")
    }

    @Test func bitwardenCSV() throws {
        let result = try Self.read("""
        folder,favorite,type,name,notes,fields,reprompt,login_uri,login_username,login_password,login_totp
        Work,,login,Jira,,,0,https://jira.corp.example,jane,pw1,
        ,1,login,Mail,"note, with comma",,0,"https://mail.example,https://m.mail.example",jane@mail.example,pw2,JBSWY3DP

        """, .bitwardenCSV)
        #expect(result.entries.map(\.title) == ["Jira", "Mail"])
        #expect(result.entries[0].tags == ["Work"])
        #expect(result.entries[1].urls == ["https://mail.example", "https://m.mail.example"])
        // A bare secret becomes the otpauth URL it stands for, and gives RFC 6238 codes.
        let totp = try #require(result.entries[1].totpURI)
        #expect(totp == "otpauth://totp/Mail:jane%40mail.example?secret=JBSWY3DP&issuer=Mail&algorithm=SHA1&digits=6&period=30")
        #expect(try OTPAuthURL.parse(totp).secret == Base32.decode("JBSWY3DP"))
    }

    @Test func keepassxcCSV() throws {
        let result = try Self.read("""
        "Group","Title","Username","Password","URL","Notes","TOTP","Icon","Last Modified","Created"
        "Root","Forum","janea","hunter2","http://forum.example","","","0","2024-01-01T00:00:00Z","2024-01-01T00:00:00Z"
        "Root/Games","Old Game","xXjaneXx","letmein","https://oldgame.example","日本語のメモ","","0","",""

        """, .keepassxcCSV)
        #expect(result.entries.map(\.title) == ["Forum", "Old Game"])
        #expect(result.entries[0].tags == [])
        #expect(result.entries[1].tags == ["Root/Games"] && result.entries[1].notes == "日本語のメモ")
    }

    @Test func onePasswordCSV() throws {
        let result = try Self.read("""
        Title,Url,Username,Password,OTPAuth,Favorite,Archived,Tags,Notes
        Chirp,https://chirp.example,@jane,pw,,false,false,"social,fun",
        """, .onePasswordCSV)
        #expect(result.entries[0].tags == ["social", "fun"])
        #expect(result.entries[0].category == .social)
    }

    @Test func bitwardenJSON() throws {
        let json = """
        {"encrypted": false, "folders": [{"id": "f1", "name": "Money"}],
         "items": [
          {"type": 1, "name": "Northwind", "notes": null, "folderId": "f1",
           "login": {"username": "jane", "password": "pw", "totp": null, "uris": [{"match": null, "uri": "https://bank.northwind.example"}]}},
          {"type": 2, "name": "A secure note", "notes": "text"},
          {"type": 1, "name": "", "login": {"username": "x", "password": "y", "uris": [{"uri": "https://noname.example/a"}]}}
         ]}
        """
        let result = try Self.read(json, .bitwardenJSON)
        #expect(result.entries.map(\.title) == ["Northwind", "noname.example"])
        #expect(result.entries[0].tags == ["Money"] && result.entries[0].category == .finance)
        #expect(result.skippedNotLogins == 1)
    }

    @Test func exactDuplicatesAreSkippedAndCounted() throws {
        let existing = [Entry(title: "Old", urls: ["https://shiny.example/"], username: "jane", password: "s3cret")]
        let result = try Self.read("""
        name,url,username,password,note
        Shiny,https://shiny.example/,jane,s3cret,
        Shiny again,https://shiny.example/,jane,s3cret,
        Shiny new password,https://shiny.example/,jane,other,
        Shiny new password twice,https://shiny.example/,jane,other,
        """, .chromeCSV, existing: existing)
        #expect(result.entries.map(\.title) == ["Shiny new password"])
        #expect(result.duplicates == 3)
    }

    @Test(arguments: [
        ("name,url,username,password,note\nShiny,https://s.example,jane\n", ImportFormat.chromeCSV, ImportError(line: 2, message: "3 fields where the header has 5")),
        ("name,url,username,password,note\n\"unclosed,x,y,z,w\n", .chromeCSV, ImportError(line: 2, message: "a quoted field is never closed")),
        ("Title,URL,Username,Password\n", .chromeCSV, ImportError(line: 1, message: "no 'name' column: this is not a chrome-csv file (its header is Title,URL,Username,Password)")),
        ("", .appleCSV, ImportError(line: 1, message: "the file is empty")),
        ("{\"items\": [\n{\"type\": 1,,}\n]}", .bitwardenJSON, ImportError(line: 2, message: "not valid JSON")),
        ("{\"encrypted\": true, \"items\": []}", .bitwardenJSON, ImportError(line: nil, message: "this is an encrypted Bitwarden export; export it unencrypted to import it")),
        ("[1, 2]", .bitwardenJSON, ImportError(line: nil, message: "expected a JSON object with an \"items\" list")),
    ])
    func malformedFilesImportNothingAndNameTheProblem(text: String, format: ImportFormat, error: ImportError) {
        #expect(throws: error) { try Self.read(text, format) }
    }

    @Test func exportsReadBack() throws {
        let entries = [Entry(title: "A, \"quoted\"", urls: ["https://a.example"], username: "u", password: "p\nq", notes: "n",
                             totpURI: "otpauth://totp/A?secret=GEZDGNBV")]
        let csv = try Importer.read(Exporter.write(entries, format: .appleCSV), format: .appleCSV, existing: [])
        #expect(csv.entries.map(\.title) == ["A, \"quoted\""] && csv.entries[0].password == "p\nq" && csv.entries[0].totpURI == entries[0].totpURI)
        let json = try Importer.read(Exporter.write(entries, format: .bitwardenJSON), format: .bitwardenJSON, existing: [])
        #expect(json.entries.map(\.username) == ["u"] && json.entries[0].notes == "n" && json.entries[0].urls == ["https://a.example"])
    }
}
