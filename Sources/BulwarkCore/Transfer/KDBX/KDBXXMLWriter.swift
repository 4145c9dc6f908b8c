import Foundation

/// KeePass's XML for bulwark's entries (KDBX 4 conventions: times as base64
/// seconds since year 1, protected values XORed with the inner stream in
/// document order, then base64).
struct KDBXXMLWriter {
    let stream: StreamCiphers.KeyStream
    let now: Date
    /// Each file's place in the inner header's list, by blob.
    var binaryRefs: [String: Int] = [:]

    init(stream: StreamCiphers.KeyStream, now: Date) {
        self.stream = stream
        self.now = now
    }

    static let kindField = "bulwark:kind", categoryField = "bulwark:category", reasonField = "bulwark:reason"
    static let passwordChangedField = "bulwark:password-changed"
    /// Tags KeePass's Tags cannot hold (it splits them at ; and ,), one a line.
    static let tagsField = "bulwark:tags"
    /// A slash inside a KeePass group's name, as a tag writes it: the tag's
    /// own "/" is the path between groups (U+2215, which looks the same).
    static let slashInName = "\u{2215}"

    func document(_ entries: [Entry]) -> [UInt8] {
        // Groups from each entry's first tag, as a path.
        final class Group {
            var children: [String: Group] = [:]
            var order: [String] = []
            var entries: [Entry] = []
            func child(_ name: String) -> Group {
                if let existing = children[name] { return existing }
                let made = Group()
                children[name] = made
                order.append(name)
                return made
            }
        }
        let root = Group()
        for entry in entries {
            var group = root
            for part in (entry.tags.first ?? "").split(separator: "/").map(String.init) where !part.isEmpty {
                group = group.child(part.replacingOccurrences(of: Self.slashInName, with: "/"))
            }
            group.entries.append(entry)
        }
        // Bytes from the start (a String of 122 MB, then its copy as bytes, held 360 MB at 100,000 entries).
        var xml: [UInt8] = []
        xml.reserveCapacity(entries.count * 1_300 + 4_096)
        xml += Array(("<?xml version=\"1.0\" encoding=\"utf-8\" standalone=\"yes\"?>\n<KeePassFile><Meta><Generator>bulwark</Generator><DatabaseName>bulwark</DatabaseName>"
            + "<RecycleBinEnabled>False</RecycleBinEnabled></Meta><Root>").utf8)
        func write(_ group: Group, name: String) {
            xml.append(contentsOf: "<Group><UUID>\(Self.uuid(nil))</UUID><Name>\(escaped(name))</Name>".utf8)
            for entry in group.entries { self.entry(entry, into: &xml) }
            for child in group.order { write(group.children[child]!, name: child) }
            xml.append(contentsOf: "</Group>".utf8)
        }
        write(root, name: "bulwark")
        xml.append(contentsOf: "</Root></KeePassFile>\n".utf8)
        return xml
    }

    /// An entry's XML appended to `xml` as bytes (each piece a String
    /// added to a String, then copied on as bytes, was most of an export).
    func entry(_ e: Entry, into xml: inout [UInt8]) {
        put("<Entry><UUID>", Self.uuid(e.id), "</UUID>", into: &xml)
        let plainTags = e.tags.dropFirst().filter { !$0.contains(";") && !$0.contains(",") }
        let otherTags = e.tags.dropFirst().filter { $0.contains(";") || $0.contains(",") }
        if !plainTags.isEmpty { put("<Tags>", escaped(plainTags.joined(separator: ";")), "</Tags>", into: &xml) }
        times(created: e.created, modified: e.modified, expires: e.expires, into: &xml)
        var strings: [(String, String, Bool)] = [("Title", e.title, false), ("UserName", e.username, false), ("Password", e.password ?? "", true),
                                                 ("URL", e.urls.first ?? "", false), ("Notes", e.notes, false)]
        for (index, url) in e.urls.dropFirst().enumerated() { strings.append((index == 0 ? "KP2A_URL" : "KP2A_URL_\(index)", url, false)) }
        if let totp = e.totpURI { strings.append(("otp", totp, true)) }
        for field in e.fields { strings.append((field.name, field.value, field.hidden)) }
        if let passkey = e.passkeys.first { strings += KeePassXCPasskey.strings(passkey) }
        if e.kind != .login { strings.append((Self.kindField, e.kind.rawValue, false)) }
        if e.categoryIsManual { strings.append((Self.categoryField, e.category.rawValue, false)) }
        if !otherTags.isEmpty { strings.append((Self.tagsField, otherTags.joined(separator: "\n"), false)) }
        if e.password != nil { strings.append((Self.passwordChangedField, ISODate.string(e.passwordChanged), false)) }
        uniqueStrings(strings, into: &xml)
        // Files, each a reference into the inner header's list.
        for attachment in e.attachments {
            guard let ref = binaryRefs[attachment.blob] else { continue }
            put("<Binary><Key>", escaped(attachment.name), "</Key><Value Ref=\"\(ref)\"/></Binary>", into: &xml)
        }
        // History, oldest first as KeePass keeps it: each earlier version kept whole, and each old
        // password as the entry with that password (what KeePass's own history of a password change holds).
        var versions: [(at: Date, strings: [(String, String, Bool)])] = e.snapshots.map { snapshot in
            (snapshot.at, snapshot.values.map { ($0.name, $0.value, $0.hidden) })
        }
        let withoutDate = strings.filter { $0.0 != Self.passwordChangedField }
        for old in e.history where !e.snapshots.contains(where: { $0.at == old.changedAt && $0.value("Password") == old.password }) {
            versions.append((old.changedAt, withoutDate.map { $0.0 == "Password" ? ($0.0, old.password, true) : $0 } + [(Self.reasonField, old.reason, false)]))
        }
        if !versions.isEmpty {
            put("<History>", into: &xml)
            for version in versions.sorted(by: { $0.at < $1.at }) {
                put("<Entry><UUID>", Self.uuid(e.id), "</UUID>", into: &xml)
                times(created: e.created, modified: version.at, into: &xml)
                uniqueStrings(version.strings, into: &xml)
                put("</Entry>", into: &xml)
            }
            put("</History>", into: &xml)
        }
        put("</Entry>", into: &xml)
    }

    /// Texts appended as UTF-8.
    private func put(_ texts: String..., into xml: inout [UInt8]) {
        for text in texts { xml.append(contentsOf: text.utf8) }
    }

    /// Strings, each key once: KeePass needs that, so a repeated name (two
    /// "PIN" fields, a field called "Notes") is written as "PIN (2)".
    func uniqueStrings(_ strings: [(String, String, Bool)], into xml: inout [UInt8]) {
        // The names used so far in a list while they are few (an entry has
        // a handful: a set made and hashed per entry was a fifth of a
        // 100,000-entry export), in a set past that.
        var few: [String] = [], many: Set<String>?
        func isUsed(_ name: String) -> Bool { many?.contains(name) ?? few.contains(name) }
        for (key, value, protected) in strings {
            var unique = Self.xmlSafeKey(key), n = 2
            while isUsed(unique) {
                unique = "\(Self.xmlSafeKey(key)) (\(n))"
                n += 1
            }
            if many != nil {
                many!.insert(unique)
            } else {
                few.append(unique)
                if few.count > 16 { many = Set(few) }
            }
            string(unique, value, protected: protected, into: &xml)
        }
    }

    /// A protected value (and any value XML 1.0 cannot carry) is XORed with
    /// the inner stream and base64-encoded, so every character survives.
    func string(_ key: String, _ value: String, protected: Bool, into xml: inout [UInt8]) {
        let mustProtect = protected || !Self.isXMLSafe(value)
        guard mustProtect else {
            put("<String><Key>", escaped(key), "</Key><Value>", escaped(value), "</Value></String>", into: &xml)
            return
        }
        let masked = Data(stream.xor(Array(value.utf8))).base64EncodedString()
        put("<String><Key>", escaped(key), "</Key><Value Protected=\"True\">", masked, "</Value></String>", into: &xml)
    }

    /// KeePass's times; an expiry is its ExpiryTime with Expires set.
    func times(created: Date, modified: Date, expires: Date? = nil, into xml: inout [UInt8]) {
        // The modification time written four times, made once.
        let changed = Self.time(modified)
        put("<Times><CreationTime>", Self.time(created), "</CreationTime><LastModificationTime>", changed, "</LastModificationTime>",
            "<LastAccessTime>", changed, "</LastAccessTime><ExpiryTime>", expires.map(Self.time) ?? changed, "</ExpiryTime>",
            "<Expires>", expires == nil ? "False" : "True", "</Expires>",
            "<UsageCount>0</UsageCount><LocationChanged>", changed, "</LocationChanged></Times>", into: &xml)
    }

    static func time(_ date: Date) -> String {
        let seconds = Int64(date.timeIntervalSince1970.rounded(.down)) + 62_135_596_800
        return Data(ByteReader.le(UInt64(bitPattern: seconds), 8)).base64EncodedString()
    }

    /// The entry's id as KeePass's 16-byte UUID when it is one, else a new one.
    static func uuid(_ id: String?) -> String {
        if let id, let bytes = uuidBytes(id) ?? UUID(uuidString: id).map({ uuid in withUnsafeBytes(of: uuid.uuid) { Array($0) } }) {
            return Data(bytes).base64EncodedString()
        }
        return Data(SecureRandom.bytes(16)).base64EncodedString()
    }

    /// A UUID's 16 bytes when `id` is written as bulwark writes its ids
    /// (8-4-4-4-12 hex digits); nil for anything else, which Foundation's
    /// `UUID(uuidString:)` then reads as it does (it parses with sscanf: a
    /// tenth of a 100,000-entry export).
    static func uuidBytes(_ id: String) -> [UInt8]? {
        let text = Array(id.utf8)
        guard text.count == 36, text[8] == 0x2D, text[13] == 0x2D, text[18] == 0x2D, text[23] == 0x2D else { return nil }
        func nibble(_ c: UInt8) -> UInt8? {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
            default: return nil
            }
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16)
        var at = 0
        while at < 36 {
            if at == 8 || at == 13 || at == 18 || at == 23 { at += 1; continue }
            guard let high = nibble(text[at]), let low = nibble(text[at + 1]) else { return nil }
            bytes.append(high << 4 | low)
            at += 2
        }
        return bytes
    }

    /// Characters XML 1.0 allows: tab, line feed, carriage return, and from U+0020 on (less the surrogates and U+FFFE/F).
    /// No CR either: a parser reads a CR back as a line feed. Scalar by
    /// scalar, without Foundation (its `contains` was most of a 100,000-entry export).
    static func isXMLSafe(_ text: String) -> Bool { text.unicodeScalars.allSatisfy(isXMLSafe) }

    static func isXMLSafe(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return value == 0x09 || value == 0x0A || (value >= 0x20 && value != 0xFFFE && value != 0xFFFF)
    }

    /// A key cannot be protected: characters XML 1.0 cannot carry become U+FFFD.
    static func xmlSafeKey(_ key: String) -> String {
        guard !isXMLSafe(key) else { return key }
        var out = String.UnicodeScalarView()
        for scalar in key.unicodeScalars { out.append(isXMLSafe(scalar) ? scalar : "\u{FFFD}") }
        return String(out)
    }

    func escaped(_ text: String) -> String { XMLText.escaped(text) }
}
