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
        // The group is a path from the root group: the tag is what lies below it; the dates are KeePassXC's.
        #expect(result.entries[0].tags == [])
        #expect(result.entries[1].tags == ["Games"] && result.entries[1].notes == "日本語のメモ")
        #expect(result.entries[0].created == Date(timeIntervalSince1970: 1_704_067_200) && result.entries[0].modified == result.entries[0].created)
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
        // Every item becomes an entry: the secure note too, as a note.
        #expect(result.entries.map(\.title) == ["Northwind", "A secure note", "noname.example"])
        #expect(result.entries[0].tags == ["Money"] && result.entries[0].category == .finance)
        #expect(result.entries[1].kind == .secureNote && result.entries[1].notes == "text" && result.entries[1].password == nil)
    }

    /// Only an exact duplicate is skipped; an item that differs in any
    /// field (a title, a note, a TOTP) is an item of its own.
    @Test func onlyExactDuplicatesAreSkipped() throws {
        let existing = [Entry(title: "Shiny", urls: ["https://shiny.example/"], username: "jane", password: "s3cret")]
        let result = try Self.read("""
        name,url,username,password,note
        Shiny,https://shiny.example/,jane,s3cret,
        Shiny,https://shiny.example/,jane,s3cret,
        Shiny (work),https://shiny.example/,jane,s3cret,its own note
        Shiny,https://shiny.example/,jane,other,
        Note only,,,,a secure note
        Another note,,,,another secure note
        """, .chromeCSV, existing: existing)
        #expect(result.entries.map(\.title) == ["Note only", "Another note"])
        // The same site and user name as the vault's login, but not the same item: a match to merge or keep beside it.
        #expect(result.matches.map(\.incoming.title) == ["Shiny (work)", "Shiny"])
        #expect(result.matches.allSatisfy { $0.existingID == existing[0].id })
        #expect(result.duplicates == 2)
    }

    /// A URL holding commas is one URL in every format but Bitwarden CSV,
    /// the only one that joins several with commas.
    @Test func urlsAreSplitOnlyWhereTheFormatJoinsThem() throws {
        let maps = "https://www.google.com/maps/@48.8583701,2.2944813,17z"
        let chrome = try Self.read("name,url,username,password\nMaps,\"\(maps)\",jane,pw\n", .chromeCSV)
        #expect(chrome.entries[0].urls == [maps])
        let apple = try Self.read("Title,URL,Username,Password,Notes,OTPAuth\nMaps,\"\(maps)\",jane,pw,,\n", .appleCSV)
        #expect(apple.entries[0].urls == [maps])
    }

    /// A row that ends early (Chrome's older exports) reads the rest as
    /// empty and is named; a row with too many fields refuses the file
    /// unless bad rows are skipped, each named.
    @Test func shortRowsAreReadAndLongRowsNamed() throws {
        let short = try Self.read("name,url,username,password,note\nShiny,https://s.example,jane\nOther,https://o.example,bob,pw,n\n", .chromeCSV)
        #expect(short.entries.map(\.title) == ["Shiny", "Other"] && short.entries[0].password == "")
        #expect(short.rowNotes == ["line 2 had 3 of 5 fields; the rest were read as empty"])
        let long = "name,url,username,password\nA,https://a.example,u,p,extra\nB,https://b.example,u,p\n"
        #expect(throws: ImportError(line: 2, message: "5 fields where the header has 4 (--skip-bad-rows imports the rest)")) { try Self.read(long, .chromeCSV) }
        let skipped = try Importer.read(Data(long.utf8), format: .chromeCSV, existing: [], skipBadRows: true)
        #expect(skipped.entries.map(\.title) == ["B"] && skipped.rowNotes == ["line 2 skipped: 5 fields where the header has 4"])
    }

    /// 1Password for Mac writes a quote inside a quoted field as \".
    @Test func onePasswordBackslashQuotes() throws {
        let result = try Self.read(#"""
        Title,Url,Username,Password,OTPAuth,Favorite,Archived,Tags,Notes
        "Say \"hi\"",https://hi.example,jane,"p\"w\\d",,false,false,"a,b","back\\slash"

        """#, .onePasswordCSV)
        #expect(result.entries[0].title == "Say \"hi\"" && result.entries[0].password == "p\"w\\d" && result.entries[0].notes == "back\\slash")
        #expect(result.entries[0].tags == ["a", "b"])
    }

    /// As Firefox's about:logins export writes it (LoginExport.sys.mjs): no
    /// title, times in milliseconds.
    @Test func firefoxCSV() throws {
        let result = try Self.read("""
        "url","username","password","httpRealm","formActionOrigin","guid","timeCreated","timeLastUsed","timePasswordChanged"
        "https://shiny.example","jane","s3cret",,"https://shiny.example","{0b7b9d3c-1}","1600000000000","1700000000000","1650000000000"
        "https://maps.example/@48.8,2.2","bob","p,w",,"","{0b7b9d3c-2}","1600000000001","1700000000001","1650000000001"

        """, .firefoxCSV)
        #expect(result.entries.map(\.title) == ["shiny.example", "maps.example"])
        #expect(result.entries[0].created == Date(timeIntervalSince1970: 1_600_000_000) && result.entries[1].urls == ["https://maps.example/@48.8,2.2"])
        #expect(result.entries[1].password == "p,w")
    }

    /// As LastPass writes it: `http://sn` marks a secure note, its text in `extra`.
    @Test func lastPassCSV() throws {
        let result = try Self.read("""
        url,username,password,totp,extra,name,grouping,fav
        https://bank.example,jane,pw,,"my note",Bank,Finance\\Banks,1
        http://sn,,,,"Wi-Fi key: hunter2",Home Wi-Fi,Notes,0

        """, .lastpassCSV)
        #expect(result.entries.map(\.title) == ["Bank", "Home Wi-Fi"])
        #expect(result.entries[0].notes == "my note" && result.entries[0].tags == ["Finance/Banks", "Favorites"])
        #expect(result.entries[1].urls.isEmpty && result.entries[1].notes == "Wi-Fi key: hunter2")
        #expect(result.entries[1].kind == .secureNote && result.entries[1].password == nil && result.entries[1].tags == ["Notes"])
    }

    /// UTF-16 with a byte-order mark, and Latin-1 when the bytes are not UTF-8: read, and said.
    @Test func otherEncodingsAreDetectedAndSaid() throws {
        let csv = "name,url,username,password\nCafé,https://cafe.example,josé,pässwörd\n"
        var utf16 = Data([0xFF, 0xFE])
        utf16.append(csv.data(using: .utf16LittleEndian)!)
        let wide = try Importer.read(utf16, format: .chromeCSV, existing: [])
        #expect(wide.entries.first?.username == "josé" && wide.rowNotes == ["the file is UTF-16 text; it was read as such"])
        #expect(ImportFormat.detect(utf16) == .chromeCSV)
        let latin = try Importer.read(csv.data(using: .isoLatin1)!, format: .chromeCSV, existing: [])
        #expect(latin.entries.first?.password == "pässwörd")
        #expect(latin.rowNotes == ["the file is not UTF-8; it was read as Latin-1 (Windows-1252): check accented letters"])
    }

    @Test func theFormatIsDetectedAndAMismatchRefusedByName() throws {
        let lastpass = "url,username,password,totp,extra,name,grouping,fav\nhttps://a.example,u,p,,,A,,0\n"
        #expect(ImportFormat.detect(Data(lastpass.utf8)) == .lastpassCSV)
        #expect(throws: ImportError(line: 1, message: "this is a lastpass-csv file, not chrome-csv (its header is url,username,password,totp,extra,name,grouping,fav); use --format lastpass-csv, or leave --format out")) {
            try Self.read(lastpass, .chromeCSV)
        }
        #expect(ImportFormat.detect(Data("name,url,username,password,note\n".utf8)) == .chromeCSV)
        #expect(ImportFormat.detect(Data("Title,URL,Username,Password,Notes,OTPAuth\n".utf8)) == .appleCSV)
        #expect(ImportFormat.detect(Data("\"Group\",\"Title\",\"Username\",\"Password\",\"URL\",\"Notes\",\"TOTP\",\"Icon\",\"Last Modified\",\"Created\"\n".utf8)) == .keepassxcCSV)
        #expect(ImportFormat.detect(Data("folder,favorite,type,name,notes,fields,reprompt,login_uri,login_username,login_password,login_totp\n".utf8)) == .bitwardenCSV)
        #expect(ImportFormat.detect(Data("Title,Url,Username,Password,OTPAuth,Favorite,Archived,Tags,Notes\n".utf8)) == .onePasswordCSV)
        #expect(ImportFormat.detect(Data(#"{"encrypted": false, "items": []}"#.utf8)) == .bitwardenJSON)
        #expect(ImportFormat.detect(Data("a,b,c\n".utf8)) == nil)
    }

    /// A file without a header (pass-import's Keeper fixture is one) has a
    /// login on its first line: the refusal names columns by position and
    /// shows only cells that are column names, never a password.
    @Test func aRefusalNeverShowsAValueOfAFileWithoutAHeader() throws {
        let keeper = "\"Business\",\"GitHub\",\"jane\",\"h7!Secret-Pass\",\"https://github.com\",\"recovery\",\"\"\n"
        do {
            _ = try Self.read(keeper, .chromeCSV)
            Issue.record("a file without a header was read")
        } catch let error as ImportError {
            #expect(error == ImportError(line: 1, message: "no 'name' column: this is not a chrome-csv file (its first line has 7 fields and none is a column name: a file without a header? Its values are not shown)"))
            #expect(!error.description.contains("h7!Secret-Pass") && !error.description.contains("jane"))
        }
        // A header with one unknown column besides known ones: counted by position.
        #expect(throws: ImportError(line: 1, message: "no 'name' column: this is not a chrome-csv file (its header names url,username,password; column 4 is no column name bulwark knows, not shown)")) {
            try Self.read("url,username,password,s3cret!\n", .chromeCSV)
        }
    }

    @Test(arguments: [
        ("name,url,username,password,note\n\"unclosed,x,y,z,w\n", ImportFormat.chromeCSV, ImportError(line: 2, message: "a quoted field is never closed")),
        ("Title,URL,Username,Password\n", .chromeCSV, ImportError(line: 1, message: "no 'name' column: this is not a chrome-csv file (its header is Title,URL,Username,Password)")),
        ("", .appleCSV, ImportError(line: 1, message: "the file is empty")),
        ("{\"items\": [\n{\"type\": 1,,}\n]}", .bitwardenJSON, ImportError(line: 2, message: "not valid JSON (expected a member's name)")),
        ("{\"encrypted\": true, \"items\": []}", .bitwardenJSON, ImportError(line: nil, message: "this is an account-restricted Bitwarden export: only the Bitwarden account that made it can open it. In Bitwarden, export again as \"Password protected\" (or unencrypted) to import it")),
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
