import Foundation

public struct ImportError: Error, Equatable, Sendable, CustomStringConvertible {
    public let line: Int?
    public let message: String
    public var description: String { (line.map { "line \($0): " } ?? "") + message }

    public init(line: Int?, message: String) {
        self.line = line
        self.message = message
    }

    /// Any error met while reading as an import's: an ImportError as it is,
    /// another (a damaged ZIP, a failed read) by what it says.
    static func wrapping(_ error: Error) -> ImportError { error as? ImportError ?? ImportError(line: nil, message: "\(error)") }
}

/// What an import found: the new entries, the ones that match a login
/// the vault already holds, and what it left out and why.
public struct ImportResult: Sendable {
    public var entries: [Entry]
    /// Incoming logins for the same site and user name as an existing one
    /// (but not exact duplicates): merged or kept beside it, as the person chooses.
    public var matches: [ImportMatch] = []
    public var duplicates: Int
    /// Items in the source's trash (recycle bin): not imported as live entries.
    public var inTrash: Int
    /// Values that failed the checks `add` makes, each kept as a hidden
    /// custom field of its entry instead, named for the summary.
    public var keptAside: [String] = []
    /// Rows read leniently (fewer fields than the header) or skipped
    /// (`skipBadRows`), each with its line, for the summary.
    public var rowNotes: [String] = []
    /// What the source had that bulwark cannot hold (attachments, an
    /// exporter's bookkeeping columns), named for the summary.
    public var notHeld: [String] = []
    /// The files the entries hold, by the placeholder each attachment
    /// carries until the vault seals it (`VaultTransaction.storeImportedFiles`).
    public var files: [String: [UInt8]] = [:]
}

/// An incoming entry and the existing login it matches.
public struct ImportMatch: Sendable {
    public var incoming: Entry
    public var existingID: String
    /// False when the file gave the item no dates: it is then never the
    /// newer side of a merge (`ImportMerge`).
    public var incomingIsDated = true
}

public enum Importer {
    /// Reads `data` in `format`. All or nothing: a malformed file imports
    /// nothing and the error names the line and the problem. Only exact
    /// duplicates (of the file's own items or the vault's) are left out; a
    /// login for a site and user name the vault already has is a match.
    /// `filePassword` opens a password-protected Bitwarden export.
    public static func read(_ data: Data, format: ImportFormat, existing: [Entry], now: Date = Date(),
                            skipBadRows: Bool = false, filePassword: String? = nil, keyFile: [UInt8]? = nil, rawCells: Bool = false) throws(ImportError) -> ImportResult {
        classify(try parse(data, format: format, now: now, skipBadRows: skipBadRows, filePassword: filePassword, keyFile: keyFile, rawCells: rawCells),
                 existing: existing)
    }

    /// The file's items and notes, before the vault is consulted: what
    /// needs no vault, so the command can do it while the KDF runs.
    public struct Parsed: Sendable {
        var candidates: [Entry]
        var result: ImportResult
        /// Candidates the file gave no dates.
        var undated: Set<String> = []
    }

    /// `keyFile`: a KeePass key file's 32 bytes (`KeePassKeyFile.key`).
    /// `rawCells`: Apple CSV cells are read as they are, bulwark's
    /// spreadsheet guard (`SpreadsheetGuard`) left in place.
    /// `prepared`: what `prepare` read of these same bytes.
    public static func parse(_ data: Data, format: ImportFormat, now: Date = Date(), skipBadRows: Bool = false,
                             filePassword: String? = nil, keyFile: [UInt8]? = nil, rawCells: Bool = false,
                             prepared: ImportPreparation? = nil) throws(ImportError) -> Parsed {
        let read: ImportRead
        var encodingNote: String?
        switch format {
        case .onePassword1PUX: read = try OnePasswordPUX.read(data, now: now, skipBadRows: skipBadRows)
        case .kdbx: read = try KDBXImport.read(data, password: filePassword ?? "", keyFile: keyFile, now: now, transformed: prepared?.kdbxKey?.bytes)
        case .bitwardenJSON where ZipArchive.looksLikeZip(data):
            read = try BitwardenJSON.readArchive(data, now: now, skipBadRows: skipBadRows, password: filePassword)
        case .bitwardenJSON: read = try BitwardenJSON.read(data, now: now, skipBadRows: skipBadRows, password: filePassword, index: prepared?.items)
        case .cxf: read = try CXFImport.read(data, now: now, skipBadRows: skipBadRows, index: prepared?.items)
        case .keepassXML:
            if let prepared = prepared?.keepassXML { read = try prepared.read(now: now) } else { read = try KDBXImport.readXML(data, now: now) }
        case .keepassxXML: read = try KeePassXXML.read(data, now: now)
        case .enpassJSON: read = try EnpassJSON.read(data, now: now, index: prepared?.items)
        case .dashlaneJSON: read = try DashlaneJSON.read(data, now: now)
        case .protonPassJSON: read = try ProtonPassJSON.read(data, now: now)
        case .onePasswordPIF: read = try OnePasswordPIF.read(data, now: now)
        case .appleKeychain: read = try AppleKeychainDump.read(data, now: now)
        case .pass: throw ImportError(line: nil, message: "a pass store is a directory: give its path (import --format pass ~/.password-store)")
        case .dashlaneCSV where ZipArchive.looksLikeZip(data): read = try DashlaneArchive.read(data, now: now, skipBadRows: skipBadRows)
        default:
            let (text, note) = try decodeText(data)
            encodingNote = note
            read = try CSVImport(format: format, columns: format.columns!, now: now, skipBadRows: skipBadRows,
                                 undoSpreadsheetGuard: format == .appleCSV && !rawCells).read(text)
        }
        var checked = try parsed(read, format: format, skipBadRows: skipBadRows)
        if let encodingNote { checked.result.rowNotes.insert(encodingNote, at: 0) }
        return checked
    }

    /// A reader's items after the checks `add` makes, with the summary's notes.
    static func parsed(_ read: ImportRead, format: ImportFormat, skipBadRows: Bool) throws(ImportError) -> Parsed {
        var candidates = read.entries
        var result = ImportResult(entries: [], duplicates: 0, inTrash: read.inTrash, keptAside: read.keptAside,
                                  rowNotes: read.rowNotes, notHeld: read.notHeld, files: read.files)
        let undated = read.undated
        try ImportLimits.enforce(&candidates, skipBadRows: skipBadRows, notes: &result.rowNotes)
        if format == .appleCSV { candidates = mergingWebsites(candidates) }
        if format.loginsWithOnlyNotesAreNotes {
            for index in candidates.indices where candidates[index].kind == .login && candidates[index].isOnlyANote {
                candidates[index].kind = .secureNote
                candidates[index].password = nil
            }
        }
        // Which have a code found on every core (a cache miss or two an entry), then each put right in turn.
        let withCodes = (try? Concurrently.map(candidates, chunk: 2048) { $0.totpURI != nil }) ?? candidates.map { $0.totpURI != nil }
        for index in candidates.indices where withCodes[index] {
            if let note = normaliseTOTP(&candidates[index]) { result.keptAside.append(note) }
        }
        return Parsed(candidates: candidates, result: result, undated: undated)
    }

    /// A pass store's entries (`PassStore`), checked as a file's are.
    public static func parse(passStore directory: String, now: Date = Date()) throws(ImportError) -> Parsed {
        try parsed(PassStore.read(directory: directory, now: now), format: .pass, skipBadRows: false)
    }

    /// Which parsed items are new, exact duplicates, or matches of a login the vault holds.
    public static func classify(_ parsed: Parsed, existing: [Entry]) -> ImportResult {
        let candidates = parsed.candidates
        var result = parsed.result
        var logins: [String: String] = [:]
        for entry in existing where entry.kind == .login { if let key = loginKey(entry) { logins[key] = logins[key] ?? entry.id } }
        // Content hashes and login keys on every core (login keys only when
        // the vault has logins to match); duplicates are then found by hash
        // and confirmed field by field, in file order.
        let matching = !logins.isEmpty
        let keys = (try? Concurrently.map(candidates, chunk: 1024) { (entry: Entry) in
            (contentHash(entry), matching && entry.kind == .login ? loginKey(entry) : nil)
        }) ?? []
        var seen = ContentSet(existing: existing, candidates: candidates)
        for index in existing.indices { _ = seen.insert(.existing(index), hash: contentHash(existing[index])) }
        var leftOut: [Int] = []
        for (index, (hash, login)) in keys.enumerated() {
            guard seen.insert(.candidate(index), hash: hash) else {
                result.duplicates += 1
                leftOut.append(index)
                continue
            }
            if let login, let match = logins[login] {
                result.matches.append(ImportMatch(incoming: candidates[index], existingID: match, incomingIsDated: !parsed.undated.contains(candidates[index].id)))
                leftOut.append(index)
            }
        }
        // Moved, not copied, when nothing was left out (the usual import).
        if leftOut.isEmpty {
            result.entries = candidates
        } else {
            let skip = Set(leftOut)
            result.entries = candidates.indices.filter { !skip.contains($0) }.map { candidates[$0] }
        }
        return result
    }

    /// What `add` refuses is not stored as if it were good: a bare base32
    /// secret (as Bitwarden accepts) becomes a default TOTP URL, Steam's
    /// `steam://` its otpauth form, and a TOTP that does not parse stays
    /// with the entry as a hidden custom field, named.
    static func normaliseTOTP(_ entry: inout Entry) -> String? {
        guard let uri = entry.totpURI else { return nil }
        if !uri.contains(":"), let secret = try? Base32.decode(uri), !secret.isEmpty {
            entry.totpURI = OTPAuthURL.build(OTPConfiguration(kind: .totp(period: 30), secret: secret, issuer: entry.title, account: entry.username))
            return nil
        }
        do {
            let configuration = try OTPAuthURL.parse(uri)
            if uri.lowercased().hasPrefix("steam://") {
                entry.totpURI = OTPAuthURL.build(.steam(secret: configuration.secret, account: entry.username))
            }
            return nil
        } catch {
            entry.totpURI = nil
            entry.fields.append(CustomField(name: "TOTP (as imported)", value: uri, hidden: true))
            return "the TOTP of \(entry.title) (\(error)), kept as a hidden custom field"
        }
    }

    /// The same login: the same site (the first URL's host) and user name.
    static func loginKey(_ entry: Entry) -> String? {
        guard let url = entry.urls.first, !entry.username.isEmpty else { return nil }
        let host = Domain.normalize(url)
        return host.isEmpty ? nil : host + "\u{1F}" + entry.username.lowercased()
    }

    /// A title for an item without one: its site's host, else what it is.
    static func fallbackTitle(urls: [String], note: Bool = false) -> String {
        if let host = urls.first.map(Domain.normalize), !host.isEmpty { return host }
        return note ? "Secure note" : "Untitled"
    }

    /// The file's text: UTF-8 (with or without a BOM); UTF-16 when it starts
    /// with a UTF-16 byte-order mark (some Windows exports); else Latin-1
    /// (Windows-1252), which every byte sequence is, said in the summary.
    static func decodeText(_ data: Data) throws(ImportError) -> (String, String?) {
        let bytes = [UInt8](data.prefix(2))
        if bytes == [0xFF, 0xFE] || bytes == [0xFE, 0xFF] {
            guard let text = String(data: data, encoding: .utf16) else { throw ImportError(line: nil, message: "the file starts as UTF-16 but is not UTF-16 text") }
            return (text, "the file is UTF-16 text; it was read as such")
        }
        if let text = String(data: data, encoding: .utf8) { return (text, nil) }
        guard let text = String(data: data, encoding: .windowsCP1252) ?? String(data: data, encoding: .isoLatin1) else {
            throw ImportError(line: nil, message: "the file is not text")
        }
        return (text, "the file is not UTF-8; it was read as Latin-1 (Windows-1252): check accented letters")
    }

    /// Apple's export writes an account with several websites as one row
    /// per website, the rest alike: consecutive such rows are one entry.
    static func mergingWebsites(_ entries: [Entry]) -> [Entry] {
        var merged: [Entry] = []
        for entry in entries {
            if let last = merged.last, !entry.urls.isEmpty, !last.urls.isEmpty, last.title == entry.title, last.username == entry.username,
               last.password == entry.password, last.notes == entry.notes, last.totpURI == entry.totpURI {
                merged[merged.count - 1].urls += entry.urls.filter { !last.urls.contains($0) }
            } else {
                merged.append(entry)
            }
        }
        return merged
    }

    /// Only an exact duplicate is one: the same kind, title, URLs, user
    /// name, password, notes, TOTP, tags and fields. "GitHub (work)" with a
    /// note of its own, or a login that gained a TOTP, is a different item.
    static func sameContent(_ a: Entry, _ b: Entry) -> Bool {
        a.kind == b.kind && a.title == b.title && a.username == b.username && a.password == b.password && a.notes == b.notes
            && a.totpURI == b.totpURI && a.urls == b.urls && a.tags == b.tags && a.fields == b.fields
            && a.passkeys.map(\.credentialID) == b.passkeys.map(\.credentialID)
    }

    static func contentHash(_ e: Entry) -> Int {
        var hasher = Hasher()
        hasher.combine(e.kind)
        hasher.combine(e.title)
        hasher.combine(e.username)
        hasher.combine(e.password)
        hasher.combine(e.notes)
        hasher.combine(e.totpURI)
        hasher.combine(e.urls)
        hasher.combine(e.tags)
        hasher.combine(e.fields)
        for passkey in e.passkeys { hasher.combine(passkey.credentialID) }
        return hasher.finalize()
    }

    /// Entries seen so far, by content hash, as positions (copying 100,000
    /// entries into a set was most of classifying them); equal hashes are
    /// compared field by field, so a hash collision never drops an item.
    struct ContentSet {
        enum Position { case existing(Int), candidate(Int) }
        let existing: [Entry], candidates: [Entry]
        private var first: [Int: Position] = [:]
        private var more: [Int: [Position]] = [:]

        init(existing: [Entry], candidates: [Entry]) {
            self.existing = existing
            self.candidates = candidates
            first.reserveCapacity(existing.count + candidates.count)
        }

        func entry(_ position: Position) -> Entry {
            switch position {
            case .existing(let index): existing[index]
            case .candidate(let index): candidates[index]
            }
        }

        /// False when an entry with the same content is already in the set.
        mutating func insert(_ position: Position, hash: Int) -> Bool {
            guard let seen = first[hash] else {
                first[hash] = position
                return true
            }
            let entry = entry(position)
            if sameContent(self.entry(seen), entry) || more[hash, default: []].contains(where: { sameContent(self.entry($0), entry) }) { return false }
            more[hash, default: []].append(position)
            return true
        }
    }

    /// A JSON number, never a boolean: JSONSerialization gives `true` as an
    /// NSNumber subclass that `as? Int` reads as 1.
    static func jsonInteger(_ value: Any?) -> Int? {
        guard let value else { return nil }
        if type(of: value) == Int.self { return value as? Int }  // `JSONStream`'s
        guard type(of: value) == NSNumber.self else { return nil }
        return value as? Int
    }

    /// A JSON string, or a number written back as the text it was (a
    /// numeric password is still that password).
    static func jsonText(_ value: Any?) -> (text: String, wasNumber: Bool)? {
        if let text = value as? String { return (text, false) }
        if let value, type(of: value) == Int.self, let int = value as? Int { return (String(int), true) }  // `JSONStream`'s
        if let value, type(of: value) == Double.self, let double = value as? Double { return (String(double), true) }
        guard let value, type(of: value) == NSNumber.self, let number = value as? NSNumber else { return nil }
        return (number.stringValue, true)
    }

    /// Foundation reports a JSON error's byte offset; turn it into a line.
    static func jsonErrorLine(_ data: Data, _ error: Error) -> Int? {
        let text = "\(error)"
        guard let range = text.range(of: #"(?:character|offset) (\d+)"#, options: .regularExpression),
              let offset = Int(text[range].split(separator: " ").last ?? "") else { return nil }
        return data.prefix(offset).filter { $0 == 10 }.count + 1
    }
}
