import Foundation

extension ImportFormat {
    /// Columns (matched without regard to case) and how they map onto an
    /// entry. A column not named here is kept as a custom field.
    struct Columns: Sendable {
        /// Nil: the format has no title; the site's host stands in.
        var title: String?
        var url: String, username: String, password: String
        var notes: String? = nil, totp: String? = nil, tags: String? = nil, group: String? = nil
        /// Only Bitwarden CSV joins several URLs with commas in one cell.
        var commaSeparatedURLs = false
        /// Dates: milliseconds since 1970 (Firefox), seconds (`secondsDates`), or ISO 8601 (KeePassXC).
        var created: String? = nil, modified: String? = nil, passwordChanged: String? = nil
        var secondsDates = false
        /// 1Password for Mac escapes quotes inside quoted fields with a backslash.
        var backslashEscapes = false
        /// A URL that marks a secure note rather than a login (LastPass).
        var noteURL: String? = nil
        /// A column naming the item's type, and what each value is (values
        /// not listed are logins; "note" is always a secure note).
        var type: String? = nil
        var kinds: [String: EntryKind] = [:]
        /// Type values that are not items (NordPass writes its folders as rows).
        var skippedTypes: Set<String> = []
        var favorite: String? = nil, archived: String? = nil
        /// Bitwarden's `name: value` lines of custom fields.
        var fields: String? = nil
        /// The group is a path from the database's root group (KeePassXC).
        var groupHasRoot = false
        /// The group's path is written with backslashes ("Work\\Servers", LastPass).
        var groupBackslashes = false
        /// Columns of the exporter's own bookkeeping, not kept, with why.
        var notHeld: [String: String] = [:]
        /// A second address column: the user name when `username` is empty,
        /// else kept as a field of this name (Proton Pass's email).
        var email: String? = nil
        /// Alternatives for the TOTP column, the first present wins (Dashlane's otpSecret, later otpUrl).
        var totpAlternatives: [String] = []
        /// A JSON array of further URLs (NordPass's additional_urls).
        var moreURLsJSON: String? = nil
        /// A JSON array of `{label, type, value}` custom fields (NordPass).
        var fieldsJSON: String? = nil
        /// The column where the exporter's own field list starts; cells past
        /// the header's end belong to it (RoboForm's Rf_fields).
        var roboformFields: String? = nil
        /// Column names are `label(id)`, and a tag list is `{(tag, tag)}` (1Password 7 for Mac).
        var labelledColumns = false
        /// No header: the columns by position (Keeper, Dashlane's older CSV);
        /// cells past them are `name, value` pairs of custom fields.
        var positional: [String]? = nil
        /// A custom field of this name is the TOTP (Keeper's "TFC:Keeper").
        var totpField: String? = nil
        /// Columns kept as hidden fields (a card's number and code), by name
        /// or by the id in a `label(id)` name.
        var hiddenColumns: Set<String> = []

        var defined: Set<String> {
            Set(([title, url, username, password, notes, totp, tags, group, created, modified, passwordChanged, type, favorite, archived, fields,
                  email, moreURLsJSON, fieldsJSON, roboformFields].compactMap { $0 } + totpAlternatives + notHeld.keys + (roboformFields == nil ? [] : ["rffieldsv2"])))
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
                                    totp: "login_totp", tags: "collections", group: "folder", commaSeparatedURLs: true, type: "type",
                                    favorite: "favorite", fields: "fields",
                                    notHeld: ["reprompt": "Bitwarden's master-password re-prompt setting"])
        case .keepassxcCSV: Columns(title: "title", url: "url", username: "username", password: "password", notes: "notes", totp: "totp",
                                    group: "group", created: "created", modified: "last modified", groupHasRoot: true,
                                    notHeld: ["icon": "KeePassXC's icon number"])
        case .onePasswordCSV: Columns(title: "title", url: "url", username: "username", password: "password", notes: "notes", totp: "otpauth",
                                      tags: "tags", backslashEscapes: true, favorite: "favorite", archived: "archived")
        // NordPass: name,url,additional_urls,username,password,note,cardholdername,cardnumber,cvc,pin,expirydate,zipcode,
        // folder,full_name,phone_number,email,address1,address2,city,country,state,type,custom_fields (older exports
        // lack additional_urls, pin, type and custom_fields, and write each folder as a row of its name alone).
        case .nordpassCSV: Columns(title: "name", url: "url", username: "username", password: "password", notes: "note", group: "folder",
                                   type: "type", kinds: ["credit_card": .card, "identity": .identity], skippedTypes: ["folder"],
                                   moreURLsJSON: "additional_urls", fieldsJSON: "custom_fields",
                                   hiddenColumns: ["cardnumber", "cvc", "pin"])
        // Dashlane's credentials.csv: username,username2,username3,title,password,note,url,category,otpSecret (otpUrl lately).
        case .dashlaneCSV: Columns(title: "title", url: "url", username: "username", password: "password", notes: "note", group: "category",
                                   totpAlternatives: ["otpurl", "otpsecret"], positional: ["title", "url", "username", "password", "note"])
        // Keeper: no header; folder, title, login, password, website address, notes, shared folder, then name/value pairs.
        case .keeperCSV: Columns(title: "title", url: "website address", username: "login", password: "password", notes: "notes",
                                 group: "folder", notHeld: ["shared folder": "Keeper's shared folder"],
                                 positional: ["folder", "title", "login", "password", "website address", "notes", "shared folder"],
                                 totpField: "TFC:Keeper")
        // Proton Pass: type,name,url,email,username,password,note,totp,createTime,modifyTime,vault; times in seconds.
        case .protonPassCSV: Columns(title: "name", url: "url", username: "username", password: "password", notes: "note", totp: "totp",
                                     group: "vault", created: "createtime", modified: "modifytime", secondsDates: true, type: "type",
                                     kinds: ["creditcard": .card, "identity": .identity, "sshkey": .sshKey, "custom": .other, "alias": .login],
                                     email: "email")
        // RoboForm: Name,Url,MatchUrl,Login,Pwd,Note,Folder,RfFieldsV2 (older: Name,Url,Login,Pwd,Note,Folder,Rf_fields).
        case .roboformCSV: Columns(title: "name", url: "url", username: "login", password: "pwd", notes: "note", group: "folder",
                                   notHeld: ["matchurl": "RoboForm's address for matching"], roboformFields: "rf_fields")
        // KeePass 2's CSV export: "Account","Login Name","Password","Web Site","Comments".
        case .keepassCSV: Columns(title: "account", url: "web site", username: "login name", password: "password", notes: "comments")
        // 1Password 7 for Windows (title, type, url, username, password, notes, tags, ainfo, uuid and each
        // template's columns) and for Mac ("Title", "Type", "URL", "Username", "Password", "Notes", "Tags",
        // "Created Date", "Modified Date", and "label(id)" for the rest).
        case .onePassword7CSV: Columns(title: "title", url: "url", username: "username", password: "password", notes: "notes", tags: "tags",
                                       created: "created date", modified: "modified date", secondsDates: true, type: "type",
                                       kinds: ["credit card": .card, "identity": .identity, "secure note": .secureNote, "password": .other,
                                               "bank account": .other, "software license": .other, "server": .other, "wireless router": .other],
                                       notHeld: ["ainfo": "1Password's summary line", "uuid": "1Password's own id of the item",
                                                 "scope": "1Password's autofill setting", "autosubmit": "1Password's autofill setting"],
                                       totpAlternatives: ["first one-time password"], labelledColumns: true,
                                       hiddenColumns: ["ccnum", "cvv", "pin", "telephonepin", "password", "disk_password", "admin_console_password",
                                                       "pop_password", "smtp_password", "wireless_password", "reg_code", "accountno", "iban"])
        default: nil
        }
    }
}
