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
        let root = try JSONItems.document(data)
        var read = ImportRead()
        for section in root.keys {
            guard let items = root[section] as? [Any] else { continue }
            guard sections.contains(section) else {
                if !items.isEmpty { read.notHeld.append("the \(section) section (\(items.count) item\(items.count == 1 ? "" : "s")), which bulwark does not know") }
                continue
            }
            let kind = kind(of: section)
            for case let item as JSONObject in items { read.entries.append(entry(item, kind: kind, section: section, now: now)) }
        }
        for entry in read.entries { read.undated.insert(entry.id) }
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
        var entry = Entry(title: title, urls: kind == .login ? urls : [], username: kind == .login ? username : "",
                          password: kind == .login ? text("password") : nil, notes: notes, created: now, kind: kind)
        for key in item.keys {
            let value = text(key)
            guard !value.isEmpty, key != titleKey else { continue }
            if kind == .login ? loginKeys.contains(key) && !(key == "email" && value != username) : ["title", "note", "content"].contains(key) { continue }
            if kind != .login, key == "domain" { entry.urls = [value]; continue }
            entry.fields.append(CustomField(name: key, value: value, hidden: hiddenKeys.contains(key)))
        }
        return entry
    }
}
