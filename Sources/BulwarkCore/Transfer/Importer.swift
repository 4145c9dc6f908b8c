import Foundation

public struct ImportError: Error, Equatable, CustomStringConvertible {
    public let line: Int?
    public let message: String
    public var description: String { (line.map { "line \($0): " } ?? "") + message }
}

/// What an import found: the new entries, and what it left out and why.
public struct ImportResult: Sendable {
    public var entries: [Entry]
    public var duplicates: Int
    /// Items in the source's trash (recycle bin): not imported as live entries.
    public var inTrash: Int
    /// Values that failed the checks `add` makes, each kept as a hidden
    /// custom field of its entry instead, named for the summary.
    public var keptAside: [String] = []
    /// Rows read leniently (fewer fields than the header) or skipped
    /// (`skipBadRows`), each with its line, for the summary.
    public var rowNotes: [String] = []
}

public enum Importer {
    /// Reads `data` in `format`. All or nothing: a malformed file imports
    /// nothing and the error names the line and the problem. Entries that
    /// repeat an existing one (same URL, username and password) are counted
    /// and left out.
    public static func read(_ data: Data, format: ImportFormat, existing: [Entry], now: Date = Date(),
                            skipBadRows: Bool = false) throws(ImportError) -> ImportResult {
        let (text, encodingNote) = try decodeText(data)
        var candidates: [Entry]
        var inTrash = 0
        var keptAside: [String] = []
        var rowNotes: [String] = []
        if let columns = format.columns {
            (candidates, rowNotes) = try readCSV(text, columns: columns, format: format, now: now, skipBadRows: skipBadRows)
        } else {
            let read = try BitwardenJSON.read(data, now: now, skipBadRows: skipBadRows)
            (candidates, inTrash, keptAside) = (read.entries, read.inTrash, read.keptAside)
            rowNotes += read.skipped
        }
        if format == .appleCSV { candidates = mergingWebsites(candidates) }
        // What `add` refuses is not stored as if it were good: a TOTP that
        // does not parse stays with the entry as a hidden custom field, named.
        for index in candidates.indices {
            guard let uri = candidates[index].totpURI else { continue }
            // A bare base32 secret (as Bitwarden accepts) is a default TOTP: 6 digits, 30 s, SHA-1.
            if !uri.contains(":"), let secret = try? Base32.decode(uri), !secret.isEmpty {
                let entry = candidates[index]
                candidates[index].totpURI = OTPAuthURL.build(OTPConfiguration(kind: .totp(period: 30), secret: secret,
                                                                              issuer: entry.title, account: entry.username))
                continue
            }
            do { _ = try OTPAuthURL.parse(uri) } catch {
                candidates[index].totpURI = nil
                candidates[index].fields.append(CustomField(name: "TOTP (as imported)", value: uri, hidden: true))
                keptAside.append("the TOTP of \(candidates[index].title) (\(error)), kept as a hidden custom field")
            }
        }
        var seen = Set(existing.map(duplicateKey))
        var fresh: [Entry] = []
        var duplicates = 0
        for entry in candidates {
            if seen.insert(duplicateKey(entry)).inserted { fresh.append(entry) } else { duplicates += 1 }
        }
        return ImportResult(entries: fresh, duplicates: duplicates, inTrash: inTrash, keptAside: keptAside,
                            rowNotes: (encodingNote.map { [$0] } ?? []) + rowNotes)
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

    /// Only an exact duplicate is one: the same title, URLs, username,
    /// password, notes, TOTP and tags. "GitHub (work)" with a note of its
    /// own, or a login that gained a TOTP, is a different item.
    static func duplicateKey(_ e: Entry) -> String {
        ([e.title, e.username, e.password ?? "", e.notes, e.totpURI ?? ""] + e.urls + ["|"] + e.tags).joined(separator: "\u{1F}")
    }

    static func readCSV(_ text: String, columns: ImportFormat.Columns, format: ImportFormat, now: Date,
                        skipBadRows: Bool) throws(ImportError) -> ([Entry], [String]) {
        let records: [(line: Int, fields: [String])]
        do { records = try CSV.parse(text, backslashEscapes: columns.backslashEscapes) } catch { throw ImportError(line: error.line, message: error.message) }
        guard let header = records.first else { throw ImportError(line: 1, message: "the file is empty") }
        if let detected = ImportFormat.detect(header: header.fields), detected != format, detected.isUnmistakable {
            throw ImportError(line: 1, message: "this is a \(detected.rawValue) file, not \(format.rawValue) (its header is \(header.fields.joined(separator: ","))); use --format \(detected.rawValue), or leave --format out")
        }
        let names = header.fields.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        func index(_ name: String?) -> Int? { name.flatMap { names.firstIndex(of: $0) } }
        for required in [columns.title, columns.url, columns.username, columns.password].compactMap({ $0 }) where index(required) == nil {
            throw ImportError(line: 1, message: "no '\(required)' column: this is not a \(format.rawValue) file (its header is \(header.fields.joined(separator: ",")))")
        }
        var entries: [Entry] = []
        var notes: [String] = []
        for var record in records.dropFirst() {
            if record.fields.count > names.count {
                let problem = "\(record.fields.count) fields where the header has \(names.count)"
                guard skipBadRows else { throw ImportError(line: record.line, message: problem + " (--skip-bad-rows imports the rest)") }
                notes.append("line \(record.line) skipped: \(problem)")
                continue
            }
            if record.fields.count < names.count {
                // Chrome's older exports and hand-edited files end rows early: the rest is empty.
                notes.append("line \(record.line) had \(record.fields.count) of \(names.count) fields; the rest were read as empty")
                record.fields += Array(repeating: "", count: names.count - record.fields.count)
            }
            func value(_ name: String?) -> String { index(name).map { record.fields[$0] } ?? "" }
            let cell = value(columns.url)
            let isNote = columns.noteURL.map { cell == $0 } ?? false
            let urls = isNote || cell.isEmpty ? [] : columns.commaSeparatedURLs
                ? cell.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } : [cell]
            var tags = value(columns.tags).split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            let group = value(columns.group)
            if !group.isEmpty && group.lowercased() != "root" { tags.append(group) }
            let totp = value(columns.totp)
            let title = value(columns.title)
            var created = now
            if let milliseconds = Double(value(columns.createdMilliseconds)), milliseconds > 0, milliseconds < 1e15 {
                created = Date(timeIntervalSince1970: milliseconds / 1000)
            }
            let entry = Entry(title: title.isEmpty ? fallbackTitle(urls: urls, note: isNote) : title, urls: urls,
                              username: value(columns.username), password: value(columns.password), notes: value(columns.notes),
                              totpURI: totp.isEmpty ? nil : totp, tags: tags, created: created)
            entries.append(entry)
        }
        return (entries, notes)
    }

    /// A JSON number, never a boolean: JSONSerialization gives `true` as an
    /// NSNumber subclass that `as? Int` reads as 1.
    static func jsonInteger(_ value: Any?) -> Int? {
        guard let value, type(of: value) == NSNumber.self else { return nil }
        return value as? Int
    }

    /// A JSON string, or a number written back as the text it was (a
    /// numeric password is still that password).
    static func jsonText(_ value: Any?) -> (text: String, wasNumber: Bool)? {
        if let text = value as? String { return (text, false) }
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
