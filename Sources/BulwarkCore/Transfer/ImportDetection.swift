import Foundation

/// Which format a file is in and why: what decided, and which other
/// formats the file fits too (the import says so before it reads).
public struct ImportIdentification: Sendable, Equatable {
    public let format: ImportFormat
    /// What decided it: "its header's login_uri, login_username and login_password columns".
    public let because: String
    /// Formats the file fits as well, which the marks above ruled out.
    public let alsoFits: [ImportFormat]

    public var explanation: String {
        because + (alsoFits.isEmpty ? "" : "; \(ImportFormat.list(alsoFits.map(\.rawValue)))'s columns are there too, but not those")
    }
}

/// No reader takes the file: the closest format, and the first difference.
public struct ImportNotRecognised: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String
}

extension ImportFormat {
    /// A CSV exporter's header: the columns it always writes, and (when
    /// others write those too) one of the columns only it writes.
    struct HeaderSignature {
        let format: ImportFormat
        let all: [String]
        var anyOf: [String] = []
    }

    /// The most telling first: a header that fits several is the first's.
    static let headerSignatures: [HeaderSignature] = [
        HeaderSignature(format: .bitwardenCSV, all: ["login_uri", "login_username", "login_password"]),
        HeaderSignature(format: .firefoxCSV, all: ["url", "username", "password", "httprealm", "formactionorigin", "guid"]),
        HeaderSignature(format: .lastpassCSV, all: ["url", "username", "password", "extra", "name", "grouping"]),
        HeaderSignature(format: .nordpassCSV, all: ["name", "url", "username", "password", "note"],
                        anyOf: ["cardholdername", "cardnumber", "full_name", "additional_urls", "custom_fields"]),
        HeaderSignature(format: .protonPassCSV, all: ["type", "name", "url", "email", "username", "password", "note", "totp"]),
        HeaderSignature(format: .dashlaneCSV, all: ["username", "title", "password", "note", "url", "category"]),
        HeaderSignature(format: .roboformCSV, all: ["name", "url", "login", "pwd"]),
        HeaderSignature(format: .keepassCSV, all: ["account", "login name", "password", "web site"]),
        HeaderSignature(format: .keeperCSV, all: ["folder", "title", "login", "password", "website address"]),
        HeaderSignature(format: .keepassxcCSV, all: ["group", "title", "username", "password", "url"]),
        HeaderSignature(format: .onePassword7CSV, all: ["title", "type", "url", "username", "password"],
                        anyOf: ["ainfo", "uuid", "created date", "modified date", "scope"]),
        HeaderSignature(format: .onePasswordCSV, all: ["title", "url", "username", "password", "otpauth"], anyOf: ["archived", "favorite", "tags"]),
        HeaderSignature(format: .appleCSV, all: ["title", "url", "username", "password"], anyOf: ["otpauth", "notes"]),
        HeaderSignature(format: .chromeCSV, all: ["name", "url", "username", "password"]),
    ]

    static func detect(header fields: [String]) -> ImportFormat? { identify(header: fields)?.format }

    static func identify(header fields: [String]) -> ImportIdentification? {
        let names = Set(fields.map { $0.trimmingCharacters(in: .whitespaces).lowercased() })
        let fitting = headerSignatures.filter { $0.all.allSatisfy(names.contains) && ($0.anyOf.isEmpty || $0.anyOf.contains(where: names.contains)) }
        guard let chosen = fitting.first else { return nil }
        // The columns that tell it: those only it has of the signatures (all of them when it has none).
        let others = Set(headerSignatures.filter { $0.format != chosen.format }.flatMap(\.all))
        let marks = !chosen.anyOf.isEmpty ? chosen.anyOf.filter(names.contains)
            : chosen.all.filter { !others.contains($0) }.isEmpty ? chosen.all : chosen.all.filter { !others.contains($0) }
        // Fits too: another's columns are all there (Chrome's four are in NordPass's header).
        let also = fitting.filter { $0.format != chosen.format }.map(\.format)
        return ImportIdentification(format: chosen.format, because: "its header's \(list(marks)) column\(marks.count == 1 ? "" : "s")", alsoFits: also)
    }

    /// The format of a file, from its magic bytes, its markup, its JSON keys
    /// or its CSV header; or the closest format and how this file differs.
    public static func identify(_ data: Data) -> Result<ImportIdentification, ImportNotRecognised> {
        func found(_ format: ImportFormat, _ because: String) -> Result<ImportIdentification, ImportNotRecognised> {
            .success(ImportIdentification(format: format, because: because, alsoFits: []))
        }
        if ZipArchive.looksLikeZip(data) {
            let names = (try? ZipArchive(data))?.names ?? []
            if names.contains("export.data") { return found(.onePassword1PUX, "its ZIP's export.data") }
            if names.contains(where: { $0.hasSuffix("data.json") && $0.hasPrefix("Proton Pass/") }) { return found(.protonPassJSON, "its ZIP's Proton Pass/data.json") }
            if names.contains(where: { $0 == "credentials.csv" || $0.hasSuffix("/credentials.csv") }) { return found(.dashlaneCSV, "its ZIP's credentials.csv") }
            if names.contains("data.json") { return found(.bitwardenJSON, "its ZIP's data.json (Bitwarden's export with attachments)") }
            // Any other archive is read as CXF's (whose reader says what it found).
            return found(.cxf, "its ZIP (neither 1Password's, Proton Pass's, Dashlane's nor Bitwarden's), read for a CXF document")
        }
        if KDBXContainer.looksLikeKDBX(data) { return found(.kdbx, "its KeePass signature") }
        let start = String(decoding: data.prefix(1024), as: UTF8.self)
        // KeePass's XML export: its root element within the first lines (after the XML declaration).
        if start.contains("<KeePassFile>") { return found(.keepassXML, "its KeePassFile root element") }
        if start.contains("<!DOCTYPE KEEPASSX_DATABASE>") || start.range(of: #"^\s*(<\?xml[^>]*>\s*)?<database>"#, options: .regularExpression) != nil {
            return found(.keepassxXML, "its KEEPASSX_DATABASE document")
        }
        if OnePasswordPIF.looksLikePIF(data) { return found(.onePasswordPIF, "1PIF's separator lines") }
        if AppleKeychainDump.looksLikeDump(start) { return found(.appleKeychain, "the keychain: and class: lines of security dump-keychain") }
        if let first = data.first(where: { ![0x20, 0x0A, 0x0D, 0x09, 0xEF, 0xBB, 0xBF].contains($0) }), first == UInt8(ascii: "{") {
            return identifyJSON(data)
        }
        guard let (text, _) = try? Importer.decodeText(data) else { return .failure(ImportNotRecognised(description: "it is not text, JSON, XML or an archive bulwark reads")) }
        // The header alone: a prefix cut inside a later quoted field would not parse (Firefox's and KeePassXC's
        // exports over 4 KB were once "not a format bulwark recognises").
        guard let header = try? CSV.parse(String(CSV.firstRecord(of: text))).first else {
            return .failure(ImportNotRecognised(description: "its first line is not a CSV header"))
        }
        if let identified = identify(header: header.fields) { return .success(identified) }
        if let headerless = identifyHeaderless(text) { return .success(headerless) }
        return .failure(closest(to: header.fields))
    }

    /// Keeper and Dashlane's older CSV write no header: told by the shape
    /// of their lines, which is said as the reason.
    static func identifyHeaderless(_ text: String) -> ImportIdentification? {
        var sample = Substring(text)
        var records: [[String]] = []
        while records.count < 20, !sample.isEmpty {
            let record = CSV.firstRecord(of: String(sample))
            guard let fields = try? CSV.parse(String(record)).first?.fields else { return nil }
            records.append(fields)
            sample = sample.dropFirst(record.count).drop(while: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" })
        }
        func address(_ cell: String) -> Bool { cell.isEmpty || cell.contains("://") || (cell.contains(".") && !cell.contains(" ")) }
        if !records.isEmpty, records.allSatisfy({ $0.count >= 7 && ($0.count - 7) % 2 == 0 && address($0[4]) }) {
            return ImportIdentification(format: .keeperCSV, because: "no header, and lines of 7 cells (and name, value pairs) whose fifth is a web address, as Keeper writes",
                                        alsoFits: [])
        }
        // (A trailing comma makes a sixth, empty cell.)
        if records.contains(where: { $0.count >= 5 }), records.allSatisfy({ $0.dropFirst(5).allSatisfy(\.isEmpty) && ($0.count < 2 || address($0[1])) }) {
            return ImportIdentification(format: .dashlaneCSV, because: "no header, and lines of 5 cells whose second is a web address, as Dashlane's older CSV writes",
                                        alsoFits: [])
        }
        return nil
    }

    /// The nearest header and the first column this file lacks; its own
    /// cells named only when they are column names (a headerless file's first line is a login).
    static func closest(to fields: [String]) -> ImportNotRecognised {
        let names = Set(fields.map { $0.trimmingCharacters(in: .whitespaces).lowercased() })
        // The largest share of a header's columns present (the first of equals).
        let scored = headerSignatures.map { signature in (signature, Double(signature.all.filter(names.contains).count) / Double(signature.all.count)) }
        guard let best = scored.max(by: { $0.1 < $1.1 }), best.1 > 0 else {
            return ImportNotRecognised(description: "its first line names no column any format bulwark reads has (\(CSVImport.describeHeader(fields)))")
        }
        let missing = best.0.all.first { !names.contains($0) } ?? best.0.anyOf.joined(separator: " or ")
        return ImportNotRecognised(description: "the closest is \(best.0.format.rawValue), whose header has \(list(best.0.all)); this one has no '\(missing)' column (\(CSVImport.describeHeader(fields)))")
    }

    static func list(_ names: [String]) -> String {
        names.count < 2 ? names.joined() : names.dropLast().joined(separator: ", ") + " and " + names.last!
    }
}
