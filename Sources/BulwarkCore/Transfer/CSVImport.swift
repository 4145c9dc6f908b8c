import Foundation

/// One CSV export read row by row, each column as its exporter means it
/// (`ImportFormat.Columns`); any column the format does not define is kept
/// as a custom field of its row, under the header's own name.
struct CSVImport: Sendable {
    let format: ImportFormat
    let columns: ImportFormat.Columns
    let now: Date
    let skipBadRows: Bool
    /// Apple CSV as bulwark writes it: a cell its spreadsheet guard marked
    /// (`'` before = + - @) is read without the `'`, and counted.
    var undoSpreadsheetGuard = false

    /// The first line as a message may show it. A file without a header
    /// has a login there, so a cell is shown only when it is a column name
    /// some exporter writes; the others are counted by position, never shown
    /// (a message, a log or a transcript must not carry a password).
    static func describeHeader(_ fields: [String]) -> String {
        let known = Set(ImportFormat.allCases.compactMap(\.columns).flatMap { columns in
            columns.defined.union([columns.url, columns.username, columns.password] + [columns.title].compactMap { $0 })
        })
        var shown: [String] = []
        var hidden: [Int] = []
        for (index, field) in fields.enumerated() {
            let name = field.trimmingCharacters(in: .whitespaces)
            if known.contains(name.lowercased()) { shown.append(name) } else { hidden.append(index + 1) }
        }
        if hidden.isEmpty { return "its header is \(shown.joined(separator: ","))" }
        let unnamed = hidden.count == 1 ? "column \(hidden[0]) is" : "columns \(hidden.map(String.init).joined(separator: ", ")) are"
        if shown.isEmpty {
            return "its first line has \(fields.count) field\(fields.count == 1 ? "" : "s") and none is a column name: a file without a header? Its values are not shown"
        }
        return "its header names \(shown.joined(separator: ",")); \(unnamed) no column name bulwark knows, not shown"
    }

    func read(_ text: String) throws(ImportError) -> ImportRead {
        let records: [(line: Int, fields: [String])]
        var strays: [Int] = []
        do { records = try CSV.parse(text, backslashEscapes: columns.backslashEscapes, lenient: skipBadRows, strays: &strays) } catch {
            let stray = error.message.contains("quote") && !error.message.contains("never closed")
            throw ImportError(line: error.line, message: error.message + (stray && !skipBadRows ? "; --skip-bad-rows reads such a quote as part of the value" : ""))
        }
        guard var header = records.first else { throw ImportError(line: 1, message: "the file is empty") }
        var body = records.dropFirst()
        if let positional = columns.positional, !isHeader(header.fields) {
            // No header (Keeper, Dashlane's older CSV): every line is an item, its columns by position.
            header = (line: 0, fields: positional)
            body = records[...]
        }
        if let detected = ImportFormat.detect(header: header.fields), detected != format, detected.isUnmistakable {
            throw ImportError(line: 1, message: "this is a \(detected.rawValue) file, not \(format.rawValue) (\(Self.describeHeader(header.fields))); use --format \(detected.rawValue), or leave --format out")
        }
        let names = header.fields.map(columnKey)
        for required in [columns.title, columns.url, columns.username, columns.password].compactMap({ $0 }) where !names.contains(required) {
            throw ImportError(line: 1, message: "no '\(required)' column: this is not a \(format.rawValue) file (\(Self.describeHeader(header.fields)))")
        }
        let defined = columns.defined
        // Each column's position, found once rather than per cell.
        var positions: [String: Int] = [:]
        for (index, name) in names.enumerated() where positions[name] == nil { positions[name] = index }
        var read = ImportRead()
        for line in strays { read.rowNotes.append("line \(line): a stray quote, read as part of the value") }
        var rows: [[String]] = []
        var unguardedCells = 0
        rows.reserveCapacity(records.count)
        var extras: [Int: [String]] = [:]
        for var record in body {
            var more: [String] = []
            if record.fields.count > names.count, columns.positional != nil || columns.roboformFields != nil {
                // Keeper's custom fields and RoboForm's field list run on past the header.
                more = Array(record.fields[names.count...])
                record.fields.removeLast(record.fields.count - names.count)
            }
            if record.fields.count > names.count {
                let problem = "\(record.fields.count) fields where the header has \(names.count)"
                guard skipBadRows else { throw ImportError(line: record.line, message: problem + " (--skip-bad-rows imports the rest)") }
                read.rowNotes.append("line \(record.line) skipped: \(problem)")
                continue
            }
            if record.fields.count < names.count {
                // Chrome's older exports and hand-edited files end rows early: the rest is empty.
                read.rowNotes.append("line \(record.line) had \(record.fields.count) of \(names.count) fields; the rest were read as empty")
                record.fields += Array(repeating: "", count: names.count - record.fields.count)
            }
            if let group = columns.group, columns.groupHasRoot, isRecycleBin(Row(positions: positions, fields: record.fields)[group]) {
                read.inTrash += 1
                continue
            }
            if undoSpreadsheetGuard {
                for index in record.fields.indices {
                    guard let value = SpreadsheetGuard.unguarded(record.fields[index]) else { continue }
                    record.fields[index] = value
                    unguardedCells += 1
                }
            }
            if isFolderRow(Row(positions: positions, fields: record.fields)) { continue }
            if !more.isEmpty { extras[rows.count] = more }  // keyed by the row it belongs to, once it is kept
            rows.append(record.fields)
        }
        if unguardedCells > 0 {
            read.rowNotes.append("\(unguardedCells) cell\(unguardedCells == 1 ? "" : "s") began with ' before = + - @ or a tab, as bulwark's export guards a cell from spreadsheets: read without the ' (--raw-cells keeps it)")
        }
        // The rows become entries on every core (an id, a category guess
        // and every field each); each also says which unkept columns it had.
        let headerFields = header.fields, columnAt = positions, moreCells = extras
        read.entries = (try? Concurrently.map(Array(rows.enumerated()), chunk: 1024) { (position, fields) -> Entry in
            var entry = entry(Row(positions: columnAt, fields: fields))
            for (index, name) in names.enumerated() where !fields[index].isEmpty && columns.notHeld[name] == nil && !defined.contains(name) {
                entry.fields.append(CustomField(name: fieldName(headerFields[index]), value: fields[index], hidden: isHidden(name)))
            }
            addExporterFields(&entry, Row(positions: columnAt, fields: fields), more: moreCells[position] ?? [])
            return entry
        }) ?? []
        // Room made once: a CSV without dates (Chrome's) has 100,000 of them, and growing the set rehashed it a dozen times.
        read.undated.reserveCapacity(read.entries.count)
        for entry in read.entries where entry.created == now && entry.modified == now { read.undated.insert(entry.id) }
        // Columns not kept, counted where they say something (KeePassXC's
        // icon 0 and Bitwarden's reprompt 0 are the defaults).
        var unheldColumns: [String: Int] = [:]
        for (index, name) in names.enumerated() where columns.notHeld[name] != nil {
            let count = rows.reduce(0) { $0 + ($1[index].isEmpty || $1[index] == "0" ? 0 : 1) }
            if count > 0 { unheldColumns[headerFields[index], default: 0] += count }
        }
        for (column, count) in unheldColumns.sorted(by: { $0.key < $1.key }) {
            read.notHeld.append("the \(column) column (\(columns.notHeld[columnKey(column)] ?? "")), in \(count) row\(count == 1 ? "" : "s")")
        }
        return read
    }

    /// A row's cells by (lower-cased) column name.
    struct Row {
        let positions: [String: Int]
        let fields: [String]
        subscript(_ name: String?) -> String {
            guard let name, let at = positions[name] else { return "" }
            return fields[at]
        }
    }

    func entry(_ row: Row) -> Entry {
        let cell = row[columns.url]
        let typeCell = row[columns.type].lowercased()
        let kind: EntryKind = (columns.noteURL.map { cell == $0 } ?? false) || typeCell == "note" ? .secureNote : columns.kinds[typeCell] ?? .login
        var urls = kind == .secureNote && columns.noteURL != nil || cell.isEmpty ? []
            : columns.commaSeparatedURLs ? cell.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } : [cell]
        urls += jsonStrings(row[columns.moreURLsJSON]).filter { !$0.isEmpty && !urls.contains($0) }
        var tags = tagList(row[columns.tags])
        let group = groupPath(row[columns.group])
        if !group.isEmpty { tags.append(group) }
        if Self.isTrue(row[columns.favorite]), !tags.contains("Favorites") { tags.append("Favorites") }
        if Self.isTrue(row[columns.archived]) { tags.append("Archived") }
        let title = row[columns.title]
        let created = date(row[columns.created]) ?? now
        let password = row[columns.password]
        let totp = ([columns.totp].compactMap { $0 } + columns.totpAlternatives).lazy.map { row[$0] }.first { !$0.isEmpty } ?? ""
        var username = row[columns.username]
        let email = row[columns.email]
        if username.isEmpty { username = email }
        var entry = Entry(title: title.isEmpty ? Importer.fallbackTitle(urls: urls, note: kind == .secureNote) : title, urls: urls,
                          username: username, password: !kind.holdsPassword && password.isEmpty ? nil : password,
                          notes: row[columns.notes], totpURI: totp.isEmpty ? nil : totp, tags: tags, created: created, kind: kind)
        entry.modified = date(row[columns.modified]) ?? created
        entry.passwordChanged = date(row[columns.passwordChanged]) ?? created
        entry.fields = bitwardenFields(row[columns.fields])
        if !email.isEmpty, email != username { entry.fields.append(CustomField(name: "Email", value: email)) }
        return entry
    }

    static func isTrue(_ cell: String) -> Bool { !cell.isEmpty && ["1", "true", "yes"].contains(cell.lowercased()) }

    /// KeePassXC writes each entry's group as its full path from the root
    /// group ("Root/Work/Servers"): the tag is the path below the root.
    func groupPath(_ cell: String) -> String {
        // LastPass writes a folder inside another as "Work\Servers"; a tag's path is "Work/Servers" everywhere else.
        if columns.groupBackslashes { return cell.replacingOccurrences(of: "\\", with: "/") }
        // RoboForm writes a folder as a path from its root ("/Work/Servers").
        guard columns.groupHasRoot else { return format == .roboformCSV && cell.hasPrefix("/") ? String(cell.dropFirst()) : cell }
        let parts = cell.split(separator: "/", omittingEmptySubsequences: false)
        return parts.count > 1 ? parts.dropFirst().joined(separator: "/") : ""
    }

    /// KeePassXC's recycle bin is a group of the root named "Recycle Bin"
    /// in the language the database was made in (the CSV carries no other
    /// mark of it): its name in each of KeePassXC's translations.
    func isRecycleBin(_ cell: String) -> Bool {
        let parts = cell.split(separator: "/", omittingEmptySubsequences: false)
        return parts.count > 1 && Self.recycleBinNames.contains(String(parts[1]))
    }

    /// "Recycle Bin" as KeePassXC's translations write it (share/translations/keepassxc_*.ts).
    static let recycleBinNames: Set<String> = [
        "Recycle Bin", "Cestino", "Corbeille", "Coș de gunoi", "Keranjang Sampah", "Kosh Hedhurinash", "Kosz", "Koš", "Koš za smeće", "Kuka",
        "Kôš", "Lixeira", "Papelera", "Paperera", "Papierkorb", "Papirkurv", "Papperskorg", "Prullenbak", "Prügikast", "Reciclagem", "Roskakori",
        "Çöp kutusu", "Šiukšlinė", "Κάδος Ανακύκλωσης", "Корзина", "Корпа за отпатке", "Кошче", "Смітник", "סל־מחזור", "سلة المهملات",
        "ප්‍රතිචක්‍රීකරණ බඳුන", "ถังขยะ", "အမှိုက်ပုံး", "ធុងសំរាម", "ゴミ箱", "回收桶", "回收站", "휴지통",
    ]

    /// Bitwarden's CSV writes custom fields as `name: value` lines; its
    /// importer splits each line at the last ": ", and so does this.
    func bitwardenFields(_ cell: String) -> [CustomField] {
        guard !cell.isEmpty else { return [] }
        // Any line break: "\r\n" is one Character in Swift, so splitting on "\n" never split Windows lines.
        return cell.split(whereSeparator: \.isNewline).map { line in
            let text = String(line.hasSuffix("\r") ? line.dropLast() : line)
            guard let split = text.range(of: ": ", options: .backwards) else { return CustomField(name: text, value: "") }
            return CustomField(name: String(text[..<split.lowerBound]), value: String(text[split.upperBound...]))
        }
    }

    /// The formats' dates: Firefox's milliseconds since 1970, KeePassXC's ISO 8601.
    func date(_ cell: String) -> Date? {
        guard !cell.isEmpty else { return nil }
        if let number = Double(cell), number > 0, number < 1e15 { return Date(timeIntervalSince1970: columns.secondsDates ? number : number / 1000) }
        return BitwardenJSON.date(cell)
    }
}
