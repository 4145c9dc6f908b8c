import Foundation
import Testing
@testable import BulwarkCore

/// Each CSV format's columns as its exporter writes them: nothing it holds
/// is dropped without a word.
@Suite struct CSVColumnsImportTests {
    static func read(_ text: String, _ format: ImportFormat) throws -> ImportResult {
        try Importer.read(Data(text.utf8), format: format, existing: [], now: Date(timeIntervalSince1970: 0))
    }

    /// 1Password's CSV with the columns its exporter adds for fields it has
    /// no standard column for: each becomes a custom field of its row.
    @Test func onePasswordsExtraColumnsBecomeCustomFields() throws {
        let result = try Self.read("""
        Title,Url,Username,Password,OTPAuth,Favorite,Archived,Tags,Notes,member number,PIN
        Chirp,https://chirp.example,@jane,pw,,true,false,"social,fun",,A-17,
        Old,https://old.example,jane,pw2,,false,true,,note,,9999
        """, .onePasswordCSV)
        #expect(result.entries[0].fields == [CustomField(name: "member number", value: "A-17")])
        #expect(result.entries[0].tags == ["social", "fun", "Favorites"])
        #expect(result.entries[1].fields == [CustomField(name: "PIN", value: "9999")] && result.entries[1].tags == ["Archived"])
        #expect(result.notHeld.isEmpty)
    }

    /// Firefox (LoginExport.sys.mjs): no title; times in milliseconds; its
    /// own guid and last-use time are named as not kept; HTTP realms are kept.
    @Test func firefoxColumns() throws {
        let result = try Self.read("""
        "url","username","password","httpRealm","formActionOrigin","guid","timeCreated","timeLastUsed","timePasswordChanged"
        "https://www.google.com/maps/@48.8583701,2.2944813,17z","jane","pw",,"https://accounts.google.com","{4b1c}","1600000000000","1700000000000","1650000000000"
        "https://intranet.example","bob","pw2","Staff only",,"{77aa}","1600000000000","1700000000000","1600000000000"
        """, .firefoxCSV)
        // One URL, never split at its commas.
        #expect(result.entries[0].urls == ["https://www.google.com/maps/@48.8583701,2.2944813,17z"])
        #expect(result.entries[0].title == "www.google.com")
        #expect(result.entries[0].created == Date(timeIntervalSince1970: 1_600_000_000))
        #expect(result.entries[0].passwordChanged == Date(timeIntervalSince1970: 1_650_000_000))
        #expect(result.entries[0].fields == [CustomField(name: "formActionOrigin", value: "https://accounts.google.com")])
        #expect(result.entries[1].fields == [CustomField(name: "httpRealm", value: "Staff only")])
        #expect(result.notHeld == ["the guid column (Firefox's own id of the login), in 2 rows", "the timeLastUsed column (when Firefox last filled it), in 2 rows"])
    }

    /// Bitwarden's CSV: several URIs joined by commas (its own convention),
    /// `type` note, `favorite` 1, custom fields as `name: value` lines.
    @Test func bitwardenCSVColumns() throws {
        let result = try Self.read("""
        folder,favorite,type,name,notes,fields,reprompt,login_uri,login_username,login_password,login_totp
        Social,1,login,Twitter,,"Recovery: abc: def
        PIN: 1234",1,"https://twitter.com,https://x.com",jane,pw,S3K3TPI5MYA2M67V
        ,,note,Wi-Fi,the key is on the router,,0,,,,
        """, .bitwardenCSV)
        let twitter = result.entries[0]
        #expect(twitter.urls == ["https://twitter.com", "https://x.com"] && twitter.tags == ["Social", "Favorites"])
        // Split at the last ": ", as Bitwarden's own importer does.
        #expect(twitter.fields == [CustomField(name: "Recovery: abc", value: "def"), CustomField(name: "PIN", value: "1234")])
        #expect(try OTPAuthURL.parse(twitter.totpURI!).secret == Base32.decode("S3K3TPI5MYA2M67V"))
        #expect(result.entries[1].kind == .secureNote && result.entries[1].password == nil && result.entries[1].notes == "the key is on the router")
        #expect(result.notHeld == ["the reprompt column (Bitwarden's master-password re-prompt setting), in 1 row"])
    }

    /// KeePassXC's CSV holds its recycle bin's entries under "Root/Recycle Bin": not live entries.
    @Test func keepassxcRecycleBinIsLeftOut() throws {
        let result = try Self.read("""
        "Group","Title","Username","Password","URL","Notes","TOTP","Icon","Last Modified","Created"
        "Root","Live","a","b","https://a.example","","","0","2022-01-02T03:04:05Z","2021-03-04T05:06:07Z"
        "Root/Recycle Bin","Deleted","a","c","https://a.example","","","0","2022-01-02T03:04:05Z","2021-03-04T05:06:07Z"
        "Root/Recycle Bin/Old","Deleted too","a","d","","","","0","",""
        "Root/Recycle Bins","Not the bin","a","e","","","","12","",""
        """, .keepassxcCSV)
        #expect(result.entries.map(\.title) == ["Live", "Not the bin"] && result.inTrash == 2)
        #expect(result.entries[1].tags == ["Recycle Bins"])
        #expect(result.notHeld == ["the Icon column (KeePassXC's icon number), in 1 row"])
    }

    /// Steam as KeePassXC writes it (`encoder=steam`) is kept as it is and gives Steam's codes.
    @Test func steamTOTPInKeePassXCsCSV() throws {
        let result = try Self.read("""
        "Group","Title","Username","Password","URL","Notes","TOTP","Icon","Last Modified","Created"
        "Root","Steam","gamer","pw","https://store.steampowered.com","","otpauth://totp/Steam:gamer?secret=JBSWY3DPEHPK3PXP&period=30&digits=5&issuer=Steam&encoder=steam","0","",""
        """, .keepassxcCSV)
        #expect(try OTPAuthURL.parse(result.entries[0].totpURI!).code(at: 59) == "2YXGV")
        #expect(result.keptAside.isEmpty)
    }
}
