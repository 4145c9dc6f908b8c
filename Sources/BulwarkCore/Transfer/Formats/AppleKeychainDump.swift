import Foundation

/// The text macOS's `security dump-keychain -d` writes of a keychain (the
/// way out of the login and iCloud keychains on a Mac): one block per item,
/// `keychain: "…"`, `version:`, `class: "inet"` (an internet password) or
/// `"genp"` (an application's), `attributes:` one per line (`"acct"<blob>="jane"`,
/// `0x00000007 <blob>="label"`, `"srvr"`, `"ptcl"<uint32>="htps"`, `"port"`,
/// `"path"`, `"svce"`, `"cdat"<timedate>=0x… "20190418184252Z\000"`,
/// `"mdat"`, `"icmt"`, `"desc"`), then `data:` and the secret on the next
/// line. A value is `<NULL>`, `"text"`, or `0xHEX` (then its text after it)
/// when it is not printable; the hex is read. Certificates and keys are counted, not kept.
enum AppleKeychainDump {
    static func looksLikeDump(_ start: String) -> Bool {
        start.hasPrefix("keychain: \"") && start.contains("\nclass: ")
    }

    /// Apple's four-letter protocol codes, as URL schemes.
    static let schemes: [String: String] = ["htps": "https", "http": "http", "ftp ": "ftp", "ftps": "ftps", "ssh ": "ssh", "smb ": "smb",
                                            "imap": "imap", "imps": "imaps", "pop3": "pop3", "pops": "pop3s", "smtp": "smtp",
                                            "ldap": "ldap", "ldps": "ldaps", "teln": "telnet", "afp ": "afp", "cifs": "cifs", "webd": "webdav"]

    struct Item {
        var itemClass = "", attributes: [String: String] = [:], secret: String?
    }

    static func read(_ data: Data, now: Date) throws(ImportError) -> ImportRead {
        let (text, _) = try Importer.decodeText(data)
        var items: [Item] = []
        var current: Item?, readingData = false
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            if line.hasPrefix("keychain: ") {
                if let current { items.append(current) }
                current = Item()
                readingData = false
                continue
            }
            guard current != nil else {
                if !line.trimmingCharacters(in: .whitespaces).isEmpty { throw ImportError(line: 1, message: "not the output of security dump-keychain: it does not start with keychain:") }
                continue
            }
            if readingData {
                current?.secret = value(line)
                readingData = false
            } else if line.hasPrefix("class: ") {
                // "inet", "genp", or a number (0x80001000: a certificate) kept as written.
                let raw = line.dropFirst(7).trimmingCharacters(in: .whitespaces)
                current?.itemClass = raw.hasPrefix("\"") ? value(Substring(raw)) ?? raw : raw
            } else if line.hasPrefix("data:") {
                let rest = line.dropFirst(5).trimmingCharacters(in: .whitespaces)
                if rest.isEmpty { readingData = true } else { current?.secret = value(Substring(rest)) }
            } else if line.hasPrefix("    "), let equals = line.firstIndex(of: "=") {
                let key = line[..<equals].trimmingCharacters(in: .whitespaces)
                let name = key.hasPrefix("\"") ? String(key.dropFirst().prefix { $0 != "\"" }) : String(key.prefix { $0 != " " && $0 != "<" })
                if let value = value(line[line.index(after: equals)...]) { current?.attributes[name] = value }
            }
        }
        if let current { items.append(current) }
        var read = ImportRead()
        var other: [String: Int] = [:]
        for item in items {
            guard item.itemClass == "inet" || item.itemClass == "genp" else { other[item.itemClass, default: 0] += 1; continue }
            read.entries.append(entry(item, now: now))
        }
        for (itemClass, count) in other.sorted(by: { $0.key < $1.key }) {
            read.notHeld.append("\(count) keychain item\(count == 1 ? "" : "s") of class \(itemClass) (certificates and keys are not passwords)")
        }
        return read
    }

    /// `<NULL>` is none; `0x…` is read as hex (its text after it is a
    /// rendering); `"text"` is the text between the first and last quote.
    static func value(_ raw: Substring) -> String? {
        let text = raw.trimmingCharacters(in: .whitespaces)
        if text.isEmpty || text == "<NULL>" { return nil }
        if text.hasPrefix("0x") {
            let hex = text.dropFirst(2).prefix { $0.isHexDigit }
            var bytes: [UInt8] = []
            var index = hex.startIndex
            while let next = hex.index(index, offsetBy: 2, limitedBy: hex.endIndex), index < hex.endIndex {
                guard let byte = UInt8(hex[index..<next], radix: 16) else { break }
                bytes.append(byte)
                index = next
            }
            while bytes.last == 0 { bytes.removeLast() }
            return String(decoding: bytes, as: UTF8.self)
        }
        if text.hasPrefix("\""), text.count >= 2, let last = text.lastIndex(of: "\""), last > text.startIndex {
            return String(text[text.index(after: text.startIndex)..<last])
        }
        return text
    }

    static func entry(_ item: Item, now: Date) -> Entry {
        let a = item.attributes
        var url = ""
        if let server = a["srvr"], !server.isEmpty {
            let scheme = schemes[a["ptcl"] ?? ""] ?? (a["ptcl"]?.trimmingCharacters(in: .whitespaces).lowercased()).flatMap { $0.isEmpty || $0 == "0" ? nil : $0 } ?? "https"
            let port = a["port"].flatMap { Int($0) }.flatMap { $0 == 0 ? nil : ":\($0)" } ?? ""
            let host = server.hasSuffix("/") ? String(server.dropLast()) : server
            url = "\(scheme)://\(host)\(port)\(a["path"] ?? "")"
        }
        let label = a["0x00000007"] ?? a["labl"] ?? ""
        let title = [label, a["srvr"] ?? "", a["svce"] ?? ""].first { !$0.isEmpty } ?? "Keychain item"
        var entry = Entry(title: title, urls: url.isEmpty ? [] : [url], username: a["acct"] ?? "", password: item.secret ?? "",
                          notes: a["icmt"] ?? "", created: date(a["cdat"]) ?? now)
        entry.modified = date(a["mdat"]) ?? entry.created
        entry.passwordChanged = entry.modified
        if let service = a["svce"], !service.isEmpty, service != title { entry.fields.append(CustomField(name: "Service", value: service)) }
        if let kind = a["desc"], !kind.isEmpty { entry.fields.append(CustomField(name: "Kind", value: kind)) }
        return entry
    }

    /// "20190418184252Z" (the keychain's times, in UTC).
    static func date(_ text: String?) -> Date? {
        guard let text, text.count >= 15 else { return nil }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMddHHmmss'Z'"
        return formatter.date(from: String(text.prefix(15)))
    }
}
