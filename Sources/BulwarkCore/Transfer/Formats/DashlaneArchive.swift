import Foundation

/// Dashlane's CSV export today: a ZIP of one CSV per kind. `credentials.csv`
/// holds the logins (`CSVColumns`' dashlane-csv); `securenotes.csv` notes
/// (`title,note`); `payments.csv` cards and bank accounts (`type,
/// account_name,…,cc_number,code,…`); `ids.csv` documents (`type,number,
/// name,…`); `personalInfo.csv` names, addresses, e-mails and numbers.
/// Each of the others' rows is an entry whose values are its fields.
enum DashlaneArchive {
    static func read(_ data: Data, now: Date, skipBadRows: Bool) throws(ImportError) -> ImportRead {
        let archive: ZipArchive
        do { archive = try ZipArchive(data) } catch { throw ImportError.wrapping(error) }
        var read = ImportRead()
        for name in archive.names.sorted() where name.hasSuffix(".csv") {
            let bytes: Data
            do {
                guard let member = try archive.read(name, limit: CXFImport.sizeLimit) else { continue }
                bytes = member
            } catch {
                throw ImportError(line: nil, message: "\(name) in the archive: \(error)")
            }
            let (text, note) = try Importer.decodeText(bytes)
            if let note { read.rowNotes.append("\(name): \(note)") }
            let file = (name as NSString).lastPathComponent.lowercased()
            var part: ImportRead
            do {
                if file == "credentials.csv" {
                    part = try CSVImport(format: .dashlaneCSV, columns: ImportFormat.dashlaneCSV.columns!, now: now, skipBadRows: skipBadRows).read(text)
                } else {
                    part = try rows(text, file: file, now: now)
                }
            } catch {
                throw ImportError(line: error.line, message: "\(name) in the archive: \(error.message)")
            }
            read.entries += part.entries
            read.rowNotes += part.rowNotes.map { "\(name): \($0)" }
            read.notHeld += part.notHeld
            read.undated.formUnion(part.undated)
        }
        return read
    }

    /// Values that are secrets, hidden wherever the entry is shown.
    static let hidden: Set<String> = ["cc_number", "code", "account_number", "routing_number", "number", "iban", "bic"]

    static func rows(_ text: String, file: String, now: Date) throws(ImportError) -> ImportRead {
        let records: [(line: Int, fields: [String])]
        do { records = try CSV.parse(text) } catch { throw ImportError(line: error.line, message: error.message) }
        guard let header = records.first?.fields.map({ $0.trimmingCharacters(in: .whitespaces) }) else { return ImportRead() }
        var read = ImportRead()
        for record in records.dropFirst() {
            var values: [String: String] = [:]
            for (index, name) in header.enumerated() where index < record.fields.count { values[name] = record.fields[index] }
            let type = values["type"] ?? ""
            let kind: EntryKind
            switch file {
            case "securenotes.csv": kind = .secureNote
            case "payments.csv": kind = type == "credit_card" ? .card : .other
            case "ids.csv", "personalinfo.csv": kind = .identity
            default: kind = .other
            }
            let title = [values["title"], values["account_name"], values["item_name"], values["name"],
                         [values["first_name"], values["last_name"]].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " ")]
                .compactMap { $0 }.first { !$0.isEmpty } ?? (type.isEmpty ? file : type.replacingOccurrences(of: "_", with: " ").capitalized)
            var entry = Entry(title: title, notes: values["note"] ?? "", created: now, kind: kind)
            for (index, name) in header.enumerated() where index < record.fields.count {
                let value = record.fields[index]
                guard !value.isEmpty, !["title", "note"].contains(name), !(kind == .secureNote && name == "category") else { continue }
                entry.fields.append(CustomField(name: name, value: value, hidden: hidden.contains(name)))
            }
            if kind == .secureNote, let category = values["category"], !category.isEmpty { entry.tags = [category] }
            read.entries.append(entry)
            read.undated.insert(entry.id)
        }
        return read
    }
}
