import Foundation

/// A KeePass database's entries as bulwark's: Title, UserName, Password,
/// URL and Notes in their places; KeePassXC's `otp` (and its older `TOTP
/// Seed`/`TOTP Settings`) and KeePass 2.47's `TimeOtp-*`/`HmacOtp-*` as the
/// code generator; every other string a custom field in order, protected
/// ones hidden; history entries' other passwords as history; the recycle
/// bin's entries left out and counted; attachments kept (shared ones once).
enum KDBXImport {
    /// `transformed`: the file's key after its KDF, worked out already (`ImportPreparation.kdbxKey`).
    static func read(_ data: Data, password: String, keyFile: [UInt8]?, now: Date, transformed: [UInt8]? = nil) throws(ImportError) -> ImportRead {
        let container = try KDBXContainer.open(data, password: password, keyFile: keyFile, transformed: transformed)
        return try read(xml: container.xml, stream: container.innerStream, binaries: container.binaries, now: now)
    }

    /// KeePass 2's and KeePassXC's plain XML export (`keepassxc-cli export
    /// -f xml`): the database's own XML, no value masked, those KeePass
    /// protects marked `ProtectInMemory` (hidden here).
    static func readXML(_ data: Data, now: Date) throws(ImportError) -> ImportRead {
        try read(xml: data, stream: nil, now: now)
    }

    /// The document's entries: a large one read in two parts at once
    /// (`KDBXSplitRead`), else mapped on a second core while the parse goes
    /// on (at 100,000 entries the mapping took a third of the parse's time).
    static func read(xml: some ContiguousBytes, stream: StreamCiphers.KeyStream?, binaries: [[UInt8]] = [], now: Date) throws(ImportError) -> ImportRead {
        let split = try KDBXDocument.check(xml, findingSplit: true)
        var (read, byRef): (ImportRead, [Int: [UInt8]])
        if let split, let both = xml.withUnsafeBytes({ KDBXSplitRead.read($0, split: split, stream: stream, now: now) }) {
            (read, byRef) = both
        } else {
            let mapper = BatchMapper(now: now)
            // The mapping is waited for before a refusal is thrown.
            let outcome = Result { () throws(ImportError) in try KDBXDocument.parse(xml, stream: stream) { mapper.add($0) } }
            read = mapper.finish()
            byRef = try outcome.get().binaries
        }
        for (index, bytes) in binaries.enumerated() { byRef[index] = bytes }
        ImportFiles.fill(&read, from: byRef, now: now)
        return read
    }

    /// Items mapped in the order they came, one batch after another, on a queue of their own.
    private final class BatchMapper: @unchecked Sendable {
        private let queue = DispatchQueue(label: "bulwark.kdbx-import")
        private let group = DispatchGroup()
        private let now: Date
        private var read = ImportRead()  // touched only on the queue, and after `finish` waits

        init(now: Date) { self.now = now }

        func add(_ batch: [KDBXDocument.Item]) {
            queue.async(group: group) { KDBXImport.append(batch, to: &self.read, now: self.now) }
        }

        func finish() -> ImportRead {
            group.wait()
            return read
        }
    }

    static func read(_ document: KDBXDocument, now: Date) -> ImportRead {
        var read = ImportRead()
        append(document.items, to: &read, now: now)
        return read
    }

    static func append(_ items: [KDBXDocument.Item], to read: inout ImportRead, now: Date) {
        for item in items {
            if item.inRecycleBin {
                read.inTrash += 1
                continue
            }
            var entry = entry(item, now: now)
            // Each file by its place among the database's binaries, until they are known (`ImportFiles.fill`).
            entry.attachments = item.attachments.map { ImportFiles.pending(name: $0.name, ref: $0.ref, created: entry.created) }
            read.entries.append(entry)
        }
    }

    static let standard: Set<String> = ["Title", "UserName", "Password", "URL", "Notes"]
    static let codeFields: Set<String> = ["otp", "TOTP Seed", "TOTP Settings"]
    /// The fields bulwark's own export adds, read back into their places.
    static let ours: Set<String> = [KDBXXMLWriter.kindField, KDBXXMLWriter.categoryField, KDBXXMLWriter.passwordChangedField, KDBXXMLWriter.tagsField]

    static func entry(_ item: KDBXDocument.Item, now: Date) -> Entry {
        // Sized once: grown from empty, its rehashing was a tenth of the mapping.
        var strings = [String: String](minimumCapacity: item.strings.count)
        for string in item.strings where strings[string.key] == nil { strings[string.key] = string.value }
        let url = strings["URL"] ?? ""
        let password = strings["Password"] ?? ""
        // bulwark's own export says the kind; otherwise a note is an entry with nothing but notes.
        let savedKind = strings[KDBXXMLWriter.kindField].flatMap(EntryKind.init(rawValue:))
        let isNote = savedKind.map { !$0.holdsPassword } ?? (password.isEmpty && (strings["UserName"] ?? "").isEmpty && url.isEmpty && !(strings["Notes"] ?? "").isEmpty)
        // KeePassXC's further URLs: KP2A_URL, KP2A_URL_1, …
        let more = item.strings.filter { $0.key == "KP2A_URL" || $0.key.hasPrefix("KP2A_URL_") }.map(\.value).filter { !$0.isEmpty }
        let urls = (url.isEmpty ? [] : [url]) + more
        let title = strings["Title"].flatMap { $0.isEmpty ? nil : $0 } ?? Importer.fallbackTitle(urls: urls, note: isNote)
        // A "/" inside a group's name is not a path: written as KDBXXMLWriter.slashInName, and back.
        let group = item.group.map { $0.utf8.contains(0x2F) ? $0.replacingOccurrences(of: "/", with: KDBXXMLWriter.slashInName) : $0 }.joined(separator: "/")
        var tags = group.isEmpty ? [] : [group]
        tags += item.tags.filter { !tags.contains($0) }
        for tag in (strings[KDBXXMLWriter.tagsField] ?? "").split(separator: "\n").map(String.init) where !tags.contains(tag) { tags.append(tag) }
        let created = item.created ?? now
        var entry = Entry(title: title, urls: urls, username: strings["UserName"] ?? "", password: isNote && password.isEmpty ? nil : password,
                          notes: strings["Notes"] ?? "", totpURI: code(strings, title: title), tags: tags,
                          category: strings[KDBXXMLWriter.categoryField].flatMap(AccountCategory.init(rawValue:)), created: created,
                          kind: savedKind ?? (isNote ? .secureNote : .login))
        // The code's own fields are the code now; any other string is a custom field.
        let codeKeys = entry.totpURI == nil ? [] : codeFields.union(item.strings.map(\.key).filter { $0.hasPrefix("TimeOtp-") || $0.hasPrefix("HmacOtp-") })
        // KeePassXC's passkey becomes the entry's; attributes that do not make a whole one stay fields.
        let passkey = KeePassXCPasskey.read(strings, created: created)
        if let passkey { entry.passkeys = [passkey] }
        // Gathered, then set once: each change to an entry's rarer fields makes their box anew.
        var fields: [CustomField] = []
        for string in item.strings where !standard.contains(string.key) && !codeKeys.contains(string.key) && !ours.contains(string.key)
            && !(passkey != nil && KeePassXCPasskey.keys.contains(string.key))
            && string.key != "KP2A_URL" && !string.key.hasPrefix("KP2A_URL_") {
            // KeePassXC's passkey attributes are secrets whether or not the file protects each one.
            fields.append(CustomField(name: string.key, value: string.value, hidden: string.protected || string.key.hasPrefix("KPEX_PASSKEY_")))
        }
        if !fields.isEmpty { entry.fields = fields }
        if item.expiresSet, let expires = item.expires { entry.expires = expires }
        entry.modified = item.modified ?? created
        if !item.history.isEmpty {
            var seen: Set<String> = [password]
            var history: [PasswordHistoryItem] = []
            for old in item.history.reversed() {
                guard let oldPassword = old.strings.first(where: { $0.key == "Password" })?.value, !oldPassword.isEmpty, seen.insert(oldPassword).inserted else { continue }
                let reason = old.strings.first { $0.key == KDBXXMLWriter.reasonField }?.value ?? "from KeePass"
                history.append(PasswordHistoryItem(password: oldPassword, changedAt: old.modified ?? created, reason: reason))
            }
            entry.history = history
            entry.snapshots = snapshots(item)
        }
        entry.passwordChanged = strings[KDBXXMLWriter.passwordChangedField].flatMap(ISODate.parse)
            ?? item.history.last.flatMap { $0.strings.first { $0.key == "Password" }?.value == password ? nil : entry.modified } ?? created
        return entry
    }

    /// KeePass's history entries that are more than a password change,
    /// kept whole: those whose other values differ from the entry's. One
    /// holding only a title and a password (bulwark's own export of an old
    /// password) is a password change.
    static func snapshots(_ item: KDBXDocument.Item) -> [EntrySnapshot] {
        func others(_ strings: [(key: String, value: String, protected: Bool)]) -> [String: String] {
            var values: [String: String] = [:]
            for string in strings where !["Password", KDBXXMLWriter.reasonField, KDBXXMLWriter.passwordChangedField].contains(string.key) && !string.value.isEmpty {
                values[string.key] = values[string.key] ?? string.value
            }
            return values
        }
        guard !item.history.isEmpty else { return [] }
        let current = others(item.strings)
        return item.history.compactMap { old in
            let keys = Set(old.strings.map(\.key))
            guard !keys.isSubset(of: ["Title", "Password", KDBXXMLWriter.reasonField]), others(old.strings) != current else { return nil }
            return EntrySnapshot(at: old.modified ?? item.created ?? Date(timeIntervalSince1970: 0),
                                 values: old.strings.map { CustomField(name: $0.key, value: $0.value, hidden: $0.protected || $0.key == "Password") })
        }
    }

    /// The entry's code generator as an otpauth URL, or nil.
    static func code(_ strings: [String: String], title: String) -> String? {
        if let otp = strings["otp"], !otp.isEmpty {
            if otp.lowercased().hasPrefix("otpauth://") { return otp }
            return keeOtp(otp, title: title, account: strings["UserName"] ?? "") ?? legacy(seed: otp, settings: nil, title: title)
        }
        if let seed = strings["TOTP Seed"], !seed.isEmpty { return legacy(seed: seed, settings: strings["TOTP Settings"], title: title) }
        for (prefix, time) in [("TimeOtp-", true), ("HmacOtp-", false)] {
            // Looked for before its four spellings are: most entries have no code.
            guard strings.keys.contains(where: { $0.hasPrefix(prefix) }), let secret = secret(strings, prefix: prefix) else { continue }
            let digest: HMACDigest = switch strings[prefix + "Algorithm"] {
            case "HMAC-SHA-256": .sha256
            case "HMAC-SHA-512": .sha512
            default: .sha1
            }
            let digits = Int(strings[prefix + "Length"] ?? "") ?? 6
            let kind: OTPConfiguration.Kind = time ? .totp(period: Int(strings[prefix + "Period"] ?? "") ?? 30) : .hotp(counter: UInt64(strings[prefix + "Counter"] ?? "") ?? 0)
            return OTPAuthURL.build(OTPConfiguration(kind: kind, secret: secret, digest: digest, digits: digits, issuer: title, account: strings["UserName"] ?? ""))
        }
        return nil
    }

    /// KeePass's secret in one of its four spellings.
    static func secret(_ strings: [String: String], prefix: String) -> [UInt8]? {
        if let text = strings[prefix + "Secret"], !text.isEmpty { return Array(text.utf8) }
        if let hex = strings[prefix + "Secret-Hex"], !hex.isEmpty {
            let digits = Array(hex.filter { !$0.isWhitespace })
            guard digits.count % 2 == 0 else { return nil }
            return stride(from: 0, to: digits.count, by: 2).compactMap { UInt8(String(digits[$0...$0 + 1]), radix: 16) }
        }
        if let base32 = strings[prefix + "Secret-Base32"], let bytes = try? Base32.decode(base32), !bytes.isEmpty { return bytes }
        if let base64 = strings[prefix + "Secret-Base64"], let bytes = Data(base64Encoded: base64), !bytes.isEmpty { return Array(bytes) }
        return nil
    }

    /// KeeOtp's `otp` ("key=BASE32&size=8&step=60&otpHashMode=Sha256",
    /// `type=Hotp` with a `counter`), which KeePassXC reads as a code too.
    static func keeOtp(_ text: String, title: String, account: String) -> String? {
        var parameters: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            if parts.count == 2 { parameters[parts[0].lowercased()] = parts[1].removingPercentEncoding ?? parts[1] }
        }
        guard let key = parameters["key"], let secret = try? Base32.decode(key), !secret.isEmpty else { return nil }
        let digits = Int(parameters["size"] ?? "6") ?? 0, period = Int(parameters["step"] ?? "30") ?? 0
        guard (6...8).contains(digits), (1...86_400).contains(period) else { return nil }
        let digest: HMACDigest = switch parameters["otphashmode"]?.lowercased() {
        case "sha256": .sha256
        case "sha512": .sha512
        default: .sha1
        }
        let kind: OTPConfiguration.Kind = parameters["type"]?.lowercased() == "hotp"
            ? .hotp(counter: UInt64(parameters["counter"] ?? "0") ?? 0) : .totp(period: period)
        return OTPAuthURL.build(OTPConfiguration(kind: kind, secret: secret, digest: digest, digits: digits, issuer: title, account: account))
    }

    /// KeePassXC before 2.5: `TOTP Seed` (base32) and `TOTP Settings`
    /// ("30;6", or "30;S" for Steam).
    static func legacy(seed: String, settings: String?, title: String) -> String? {
        guard let secret = try? Base32.decode(seed.replacingOccurrences(of: " ", with: "")), !secret.isEmpty else { return seed }
        let parts = (settings ?? "30;6").split(separator: ";").map(String.init)
        let period = parts.first.flatMap { Int($0) } ?? 30
        if parts.count > 1 && parts[1] == "S" { return OTPAuthURL.build(.steam(secret: secret)) }
        return OTPAuthURL.build(OTPConfiguration(kind: .totp(period: period), secret: secret, digits: parts.count > 1 ? Int(parts[1]) ?? 6 : 6, issuer: title))
    }
}
