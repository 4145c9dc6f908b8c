import Foundation

/// Dashlane's older JSON export ("Unsecured archive"): one array per kind
/// of item, named in capitals. `AUTHENTIFIANT` holds logins (`title`,
/// `domain`, `login`, `email`, `secondaryLogin`, `password`, `note`);
/// `SECURENOTE` notes (`title`, `content`); the payment, identity and
/// contact arrays hold cards, documents and details, each value a field.
enum DashlaneJSON {
    static let sections: Set<String> = ["AUTHENTIFIANT", "SECURENOTE", "PAYMENTMEANS_CREDITCARD", "PAYMENTMEAN_PAYPAL", "BANKSTATEMENT",
                                        "IDENTITY", "EMAIL", "PHONE", "ADDRESS", "COMPANY", "PERSONALWEBSITE", "IDCARD", "PASSPORT",
                                        "DRIVERLICENCE", "SOCIALSECURITYSTATEMENT", "FISCALSTATEMENT"]

    static func kind(of section: String) -> EntryKind {
        switch section {
        case "AUTHENTIFIANT": .login
        case "SECURENOTE": .secureNote
        case "PAYMENTMEANS_CREDITCARD": .card
        case "IDENTITY", "IDCARD", "PASSPORT", "DRIVERLICENCE", "SOCIALSECURITYSTATEMENT", "FISCALSTATEMENT": .identity
        default: .other
        }
    }

    /// Values that are secrets, hidden wherever the entry is shown.
    static let hiddenKeys: Set<String> = ["cardNumber", "securityCode", "pin", "IBAN", "BIC", "number", "socialSecurityNumber", "fiscalNumber"]
    /// A login's values that fill the entry rather than a field.
    static let loginKeys: Set<String> = ["title", "domain", "login", "email", "password", "note"]

    static func read(_ data: Data, now: Date) throws(ImportError) -> ImportRead {
        // Each known section's items as they stream past; the others are counted from the rest.
        let known = sections.sorted().map { [$0] }
        var read = ImportRead()
        let root = try JSONItems.read(data, streaming: known, into: &read) { path, item in
            JSONItems.Made(entry: entry(item, kind: kind(of: path[0]), section: path[0], now: now), undated: true)
        }
        for section in root.keys where !sections.contains(section) {
            guard let items = root[section] as? [Any], !items.isEmpty else { continue }
            read.notHeld.append("the \(section) section (\(items.count) item\(items.count == 1 ? "" : "s")), which bulwark does not know")
        }
        return read
    }

    static func entry(_ item: JSONObject, kind: EntryKind, section: String, now: Date) -> Entry {
        func text(_ key: String) -> String { JSONItems.text(item[key]) }
        let domain = text("domain")
        let urls = domain.isEmpty ? [] : [domain]
        var username = text("login"), notes = text("note")
        if kind == .secureNote, notes.isEmpty { notes = text("content") }
        if username.isEmpty { username = text("email") }
        let titleKey = ["title", "name", "bank", "fullname"].first { !text($0).isEmpty }
        let title = titleKey.map(text) ?? (kind == .login ? Importer.fallbackTitle(urls: urls) : section.capitalized)
        var entry = Entry(title: title, urls: urls, username: kind == .login ? username : "",
                          password: kind == .login ? text("password") : nil, notes: notes, created: now, kind: kind)
        for key in item.keys {
            let value = text(key)
            guard !value.isEmpty, key != titleKey else { continue }
            if kind == .login ? loginKeys.contains(key) && !(key == "email" && value != username) : ["title", "note", "content"].contains(key) { continue }
            if key == "domain" { continue }  // the entry's address
            entry.fields.append(CustomField(name: key, value: value, hidden: hiddenKeys.contains(key)))
        }
        return entry
    }
}
