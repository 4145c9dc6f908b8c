import Foundation

/// The export formats bulwark reads, and how each one's columns map onto an
/// entry, as each exporter writes them:
/// - Apple Passwords: `Title,URL,Username,Password,Notes,OTPAuth`, one URL
///   per row (an account with several websites is several rows).
/// - Chrome: `name,url,username,password[,note]` (older exports have no note).
/// - Firefox (about:logins, LoginExport.sys.mjs): `url,username,password,
///   httpRealm,formActionOrigin,guid,timeCreated,timeLastUsed,
///   timePasswordChanged`, times in milliseconds since 1970, no title.
/// - LastPass: `url,username,password,totp,extra,name,grouping,fav` (older
///   exports have no totp); a secure note has the url `http://sn` and its
///   text in `extra`; `grouping` is the folder path.
/// - Bitwarden CSV: `folder,favorite,type,name,notes,fields,reprompt,
///   login_uri,login_username,login_password,login_totp`; several URIs are
///   joined by commas in `login_uri` (the one format that does that).
/// - KeePassXC: `Group,Title,Username,Password,URL,Notes,TOTP,Icon,Last
///   Modified,Created`.
/// - 1Password: `Title,Url,Username,Password,OTPAuth,Favorite,Archived,
///   Tags,Notes`; 1Password for Mac writes a quote inside a quoted field
///   as `\"`.
/// - Bitwarden JSON: `items` with `type` 1 to 5 (`BitwardenJSON`), plain
///   or password-protected (`BitwardenEncryption`).
/// - 1Password 1PUX: a ZIP with `export.data` (`OnePasswordPUX`).
/// - KeePass KDBX 3.1 and 4.x (`KDBXImport`), with a password and or a key file.
/// - Credential Exchange Format 1.0 (`CXFImport`): a Header, a bare Account, or either in a ZIP.
/// - KeePass 2's and KeePassXC's plain XML export (`KDBXImport.readXML`).
/// - NordPass, Dashlane, Keeper, Proton Pass, RoboForm, KeePass 2 and
///   1Password 7 CSVs (`CSVColumns.swift`); Dashlane's, Proton Pass's and
///   Enpass's JSON, 1Password's 1PIF, KeePassX 0.4's XML, the text of
///   Apple's `security dump-keychain -d`, and `pass` directories (`Formats/`).
public enum ImportFormat: String, CaseIterable, Sendable {
    case appleCSV = "apple-csv", chromeCSV = "chrome-csv", firefoxCSV = "firefox-csv", lastpassCSV = "lastpass-csv",
         bitwardenJSON = "bitwarden-json", bitwardenCSV = "bitwarden-csv", keepassxcCSV = "keepassxc-csv", onePasswordCSV = "1password-csv",
         onePassword1PUX = "1password-1pux", kdbx = "kdbx", cxf = "cxf", keepassXML = "keepass-xml",
         nordpassCSV = "nordpass-csv", dashlaneCSV = "dashlane-csv", dashlaneJSON = "dashlane-json", keeperCSV = "keeper-csv",
         protonPassCSV = "protonpass-csv", protonPassJSON = "protonpass-json", roboformCSV = "roboform-csv", enpassJSON = "enpass-json",
         keepassCSV = "keepass-csv", keepassxXML = "keepassx-xml", onePasswordPIF = "1password-1pif", onePassword7CSV = "1password7-csv",
         appleKeychain = "apple-keychain", pass

    /// The format a file is in (see `identify` for why).
    public static func detect(_ data: Data) -> ImportFormat? { try? identify(data).get().format }

    /// Formats with no kind of their own for a note (or which write notes
    /// as logins): a login with a note and nothing else is a secure note.
    var loginsWithOnlyNotesAreNotes: Bool {
        [.nordpassCSV, .dashlaneCSV, .keeperCSV, .roboformCSV, .keepassCSV, .enpassJSON, .onePasswordPIF, .keepassxXML, .dashlaneJSON, .pass]
            .contains(self)
    }

    /// Whether the file itself is sealed with a password of its own.
    public var needsFilePassword: Bool { self == .kdbx }

    /// Formats whose header cannot be mistaken: asked to read one of these
    /// as something else, the import refuses and names it.
    var isUnmistakable: Bool {
        [.bitwardenCSV, .firefoxCSV, .lastpassCSV, .keepassxcCSV, .onePasswordCSV, .nordpassCSV, .protonPassCSV, .dashlaneCSV, .roboformCSV,
         .keepassCSV, .onePassword7CSV].contains(self)
    }
}
