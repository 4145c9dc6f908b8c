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
public enum ImportFormat: String, CaseIterable, Sendable {
    case appleCSV = "apple-csv", chromeCSV = "chrome-csv", firefoxCSV = "firefox-csv", lastpassCSV = "lastpass-csv",
         bitwardenJSON = "bitwarden-json", bitwardenCSV = "bitwarden-csv", keepassxcCSV = "keepassxc-csv", onePasswordCSV = "1password-csv",
         onePassword1PUX = "1password-1pux", kdbx = "kdbx", cxf = "cxf", keepassXML = "keepass-xml"

    /// Columns (matched without regard to case) and how they map onto an
    /// entry. A column not named here is kept as a custom field.
    struct Columns: Sendable {
        /// Nil: the format has no title; the site's host stands in.
        var title: String?
        var url: String, username: String, password: String
        var notes: String? = nil, totp: String? = nil, tags: String? = nil, group: String? = nil
        /// Only Bitwarden CSV joins several URLs with commas in one cell.
        var commaSeparatedURLs = false
        /// Dates: milliseconds since 1970 (Firefox) or ISO 8601 (KeePassXC).
        var created: String? = nil, modified: String? = nil, passwordChanged: String? = nil
        /// 1Password for Mac escapes quotes inside quoted fields with a backslash.
        var backslashEscapes = false
        /// A URL that marks a secure note rather than a login (LastPass).
        var noteURL: String? = nil
        /// A column naming the item's type ("note" is a secure note: Bitwarden).
        var type: String? = nil
        var favorite: String? = nil, archived: String? = nil
        /// Bitwarden's `name: value` lines of custom fields.
        var fields: String? = nil
        /// The group is a path from the database's root group (KeePassXC).
        var groupHasRoot = false
        /// The group's path is written with backslashes ("Work\\Servers", LastPass).
        var groupBackslashes = false
        /// Columns of the exporter's own bookkeeping, not kept, with why.
        var notHeld: [String: String] = [:]

        var defined: Set<String> {
            Set([title, url, username, password, notes, totp, tags, group, created, modified, passwordChanged, type, favorite, archived, fields]
                .compactMap { $0 } + notHeld.keys)
        }
    }

    var columns: Columns? {
        switch self {
        case .appleCSV: Columns(title: "title", url: "url", username: "username", password: "password", notes: "notes", totp: "otpauth")
        case .chromeCSV: Columns(title: "name", url: "url", username: "username", password: "password", notes: "note")
        case .firefoxCSV: Columns(title: nil, url: "url", username: "username", password: "password", created: "timecreated",
                                  passwordChanged: "timepasswordchanged",
                                  notHeld: ["guid": "Firefox's own id of the login", "timelastused": "when Firefox last filled it"])
        case .lastpassCSV: Columns(title: "name", url: "url", username: "username", password: "password", notes: "extra", totp: "totp",
                                   group: "grouping", noteURL: "http://sn", favorite: "fav", groupBackslashes: true)
        case .bitwardenCSV: Columns(title: "name", url: "login_uri", username: "login_username", password: "login_password", notes: "notes",
                                    totp: "login_totp", tags: "collections", group: "folder", commaSeparatedURLs: true, type: "type", favorite: "favorite",
                                    fields: "fields", notHeld: ["reprompt": "Bitwarden's master-password re-prompt setting"])
        case .keepassxcCSV: Columns(title: "title", url: "url", username: "username", password: "password", notes: "notes", totp: "totp",
                                    group: "group", created: "created", modified: "last modified", groupHasRoot: true,
                                    notHeld: ["icon": "KeePassXC's icon number"])
        case .onePasswordCSV: Columns(title: "title", url: "url", username: "username", password: "password", notes: "notes", totp: "otpauth",
                                      tags: "tags", backslashEscapes: true, favorite: "favorite", archived: "archived")
        case .bitwardenJSON, .onePassword1PUX, .kdbx, .cxf, .keepassXML: nil
        }
    }

    /// The format a file is in, from its magic bytes, its JSON keys or its
    /// CSV header: the columns only one exporter writes decide first.
    public static func detect(_ data: Data) -> ImportFormat? {
        if ZipArchive.looksLikeZip(data) {
            // 1Password's archive holds export.data; any other is read as CXF's (which says what it found).
            return (try? ZipArchive(data))?.names.contains("export.data") == false ? .cxf : .onePassword1PUX
        }
        if KDBXContainer.looksLikeKDBX(data) { return .kdbx }
        // KeePass's XML export: its root element within the first lines (after the XML declaration).
        if String(decoding: data.prefix(512), as: UTF8.self).contains("<KeePassFile>") { return .keepassXML }
        if let format = detectJSON(data) { return format }
        // The header alone: a prefix cut inside a later quoted field would not parse (Firefox's and KeePassXC's
        // exports over 4 KB were once "not a format bulwark recognises").
        guard let (text, _) = try? Importer.decodeText(data), let header = try? CSV.parse(String(CSV.firstRecord(of: text))).first else { return nil }
        return detect(header: header.fields)
    }

    /// A JSON document's format from its keys and its first item, read up to
    /// that item and no further (a 100,000-item export is not parsed to tell).
    /// A CXF Account has "items" too: its items hold "credentials", Bitwarden's a numeric "type".
    static func detectJSON(_ data: Data) -> ImportFormat? {
        guard let first = data.first(where: { ![0x20, 0x0A, 0x0D, 0x09, 0xEF, 0xBB, 0xBF].contains($0) }), first == UInt8(ascii: "{") else { return nil }
        struct Seen: Error { let path: JSONStream.Path; let item: Any }
        let object: JSONObject
        do {
            guard let root = try JSONStream.parse(data, streaming: [["items"], ["accounts", "*", "items"]], each: { throw Seen(path: $0, item: $1) }) as? JSONObject else {
                return nil
            }
            object = root
        } catch let seen as Seen {
            if (seen.item as? JSONObject)?["credentials"] is [Any] { return .cxf }
            return seen.path == ["items"] ? .bitwardenJSON : nil
        } catch {
            return nil
        }
        if CXFImport.isDocument(object) { return .cxf }
        if object["items"] != nil || object["encrypted"] != nil { return .bitwardenJSON }
        return nil
    }

    static func detect(header fields: [String]) -> ImportFormat? {
        let names = Set(fields.map { $0.trimmingCharacters(in: .whitespaces).lowercased() })
        func has(_ columns: String...) -> Bool { columns.allSatisfy(names.contains) }
        if has("login_uri", "login_username", "login_password") { return .bitwardenCSV }
        if has("httprealm", "formactionorigin", "guid") { return .firefoxCSV }
        if has("grouping", "extra", "url", "name") { return .lastpassCSV }
        if has("group", "title", "url") && (names.contains("last modified") || names.contains("icon")) { return .keepassxcCSV }
        if has("title", "url", "otpauth") && (names.contains("archived") || names.contains("favorite") || names.contains("tags")) { return .onePasswordCSV }
        if has("title", "url", "username", "password") && (names.contains("otpauth") || names.contains("notes")) {
            return names.contains("group") ? .keepassxcCSV : .appleCSV
        }
        if has("name", "url", "username", "password") { return .chromeCSV }
        return nil
    }

    /// What `detect` reads to tell this format, for the message that says it.
    public var detectedFrom: String {
        switch self {
        case .onePassword1PUX: "ZIP magic bytes and export.data"
        case .cxf: "CXF Header or Account members"
        case .keepassXML: "KeePassFile root element"
        case .kdbx: "KeePass signature"
        case .bitwardenJSON: "JSON keys"
        default: "header"
        }
    }

    /// Whether the file itself is sealed with a password of its own.
    public var needsFilePassword: Bool { self == .kdbx }

    /// Formats whose header cannot be mistaken: asked to read one of these
    /// as something else, the import refuses and names it.
    var isUnmistakable: Bool { [.bitwardenCSV, .firefoxCSV, .lastpassCSV, .keepassxcCSV, .onePasswordCSV].contains(self) }
}
