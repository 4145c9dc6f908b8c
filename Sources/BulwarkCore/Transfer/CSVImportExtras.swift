import Foundation

/// What some exporters write beyond plain columns: custom fields as JSON
/// (NordPass), a field list running past the header (RoboForm), name and
/// value pairs after the last column (Keeper), labelled column names and
/// brace-wrapped tag lists (1Password 7 for Mac), folders as rows (NordPass).
extension CSVImport {
    /// A column's name as the tables write it: trimmed, lower-cased.
    func columnKey(_ name: String) -> String { name.trimmingCharacters(in: .whitespaces).lowercased() }

    /// A custom field's name from its column: 1Password 7 for Mac writes
    /// "cardholder name(cardholder)"; the field is "cardholder name".
    func fieldName(_ column: String) -> String {
        let name = column.trimmingCharacters(in: .whitespaces)
        guard columns.labelledColumns, name.hasSuffix(")"), let open = name.lastIndex(of: "("), open > name.startIndex else { return name }
        let label = name[..<open].trimmingCharacters(in: .whitespaces)
        return label.isEmpty ? name : label
    }

    /// Whether a column's values are secrets: by its name, or by the id of a `label(id)` name.
    func isHidden(_ key: String) -> Bool {
        guard !columns.hiddenColumns.isEmpty else { return false }
        if columns.hiddenColumns.contains(key) { return true }
        guard key.hasSuffix(")"), let open = key.lastIndex(of: "(") else { return false }
        return columns.hiddenColumns.contains(String(key[key.index(after: open)..<key.index(before: key.endIndex)]))
    }

    /// Whether a first line is a header (some exporters write one, some
    /// not, some only lately): it names the format's four main columns.
    func isHeader(_ fields: [String]) -> Bool {
        let names = Set(fields.map(columnKey))
        return [columns.title, columns.url, columns.username, columns.password].compactMap { $0 }.allSatisfy(names.contains)
    }

    /// A NordPass row that is a folder, not an item: its type says so, or
    /// (older exports, which have no type column) it has a name and nothing else.
    func isFolderRow(_ row: Row) -> Bool {
        if columns.skippedTypes.contains(row[columns.type].lowercased()) { return true }
        guard format == .nordpassCSV, columns.type.map({ row.positions[$0] == nil }) ?? true else { return false }
        let name = columns.title.flatMap { row.positions[$0] }
        return row.fields.indices.allSatisfy { $0 == name || row.fields[$0].isEmpty }
    }

    /// A cell's tags: "a, b", or 1Password 7 for Mac's `{(\n    a,\n    b\n)}`.
    func tagList(_ cell: String) -> [String] {
        var text = Substring(cell.trimmingCharacters(in: .whitespacesAndNewlines))
        if columns.labelledColumns, text.hasPrefix("{("), text.hasSuffix(")}") { text = text.dropFirst(2).dropLast(2) }
        return text.split(separator: ",").map { tag in
            // 1Password for Mac quotes a tag with a slash or a space: {(\n    "Work/Servers"\n)}.
            let trimmed = tag.trimmingCharacters(in: .whitespacesAndNewlines)
            return columns.labelledColumns && trimmed.count >= 2 && trimmed.hasPrefix("\"") && trimmed.hasSuffix("\"") ? String(trimmed.dropFirst().dropLast()) : trimmed
        }.filter { !$0.isEmpty }
    }

    /// A JSON array of strings in a cell (NordPass's additional_urls); none when it is not one.
    func jsonStrings(_ cell: String) -> [String] {
        guard cell.hasPrefix("[") else { return [] }
        return ((try? JSONSerialization.jsonObject(with: Data(cell.utf8))) as? [Any])?.compactMap { $0 as? String } ?? []
    }

    /// Fields written in the exporter's own way, added to the entry.
    func addExporterFields(_ entry: inout Entry, _ row: Row, more: [String]) {
        if let column = columns.fieldsJSON { entry.fields += nordpassFields(row[column]) }
        if let column = columns.roboformFields {
            // RfFieldsV2 (the later column) writes each field as comma-separated parts, Rf_fields as colon-separated.
            let second = row.positions["rffieldsv2"] != nil
            let cells = ([second ? row["rffieldsv2"] : row[column]] + more).filter { !$0.isEmpty }
            for field in cells.compactMap(second ? Self.roboformFieldV2 : Self.roboformField) {
                switch field.name {
                case "User ID" where field.value == entry.username, "Password" where field.value == (entry.password ?? ""), "Script": continue
                case "TOTP KEY" where entry.totpURI == nil: entry.totpURI = field.value
                default: entry.fields.append(field)
                }
            }
        }
        if columns.positional != nil {
            // Keeper: name, value, name, value… after the last column.
            var index = 0
            while index < more.count {
                let name = more[index], value = index + 1 < more.count ? more[index + 1] : ""
                index += 2
                if name.isEmpty && value.isEmpty { continue }
                if name == columns.totpField, entry.totpURI == nil { entry.totpURI = value } else { entry.fields.append(CustomField(name: name, value: value)) }
            }
        }
    }

    /// NordPass's custom fields: `[{"label": …, "type": "text"|"hidden"|…, "value": …}]`.
    func nordpassFields(_ cell: String) -> [CustomField] {
        guard cell.hasPrefix("["), let list = (try? JSONSerialization.jsonObject(with: Data(cell.utf8))) as? [[String: Any]] else {
            return cell.isEmpty ? [] : [CustomField(name: "custom_fields", value: cell)]
        }
        return list.compactMap { field in
            guard let label = field["label"] as? String else { return nil }
            let value = Importer.jsonText(field["value"])?.text ?? ""
            return CustomField(name: label, value: value, hidden: (field["type"] as? String) == "hidden")
        }
    }

    /// RoboForm's Rf_fields: `name$:type:value` (the name's `$` marks a
    /// field RoboForm itself fills); `pwd` fields are hidden.
    static func roboformField(_ cell: String) -> CustomField? {
        let parts = cell.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        return CustomField(name: roboformName(parts[0]), value: String(parts[2]), hidden: parts[1] == "pwd")
    }

    /// RfFieldsV2: `name,id,position,type,value`, the value holding any further commas.
    static func roboformFieldV2(_ cell: String) -> CustomField? {
        let parts = cell.split(separator: ",", maxSplits: 4, omittingEmptySubsequences: false)
        guard parts.count == 5 else { return nil }
        return CustomField(name: roboformName(parts[0]), value: String(parts[4]), hidden: parts[3] == "pwd")
    }

    static func roboformName(_ raw: Substring) -> String {
        let name = raw.hasSuffix("$") ? raw.dropLast() : raw
        return name == "-no-name-" ? "Field" : String(name)
    }
}
