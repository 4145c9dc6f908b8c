import Foundation

/// An RFC 4180 CSV reader and writer: quoted fields with commas, quotes
/// (`""`) and line breaks inside, CRLF or LF, an optional UTF-8 BOM.
public enum CSV {
    public struct ParseError: Error, Equatable, CustomStringConvertible {
        public let line: Int
        public let message: String
        public var description: String { "line \(line): \(message)" }
    }

    /// Records with the line each started on (1-based).
    /// With `backslashEscapes`, `\"` and `\\` inside a quoted field stand for
    /// `"` and `\` (as 1Password for Mac writes them).
    public static func parse(_ text: String, backslashEscapes: Bool = false) throws(ParseError) -> [(line: Int, fields: [String])] {
        var records: [(line: Int, fields: [String])] = []
        var fields: [String] = []
        var field = ""
        var line = 1, recordLine = 1
        var inQuotes = false, quotedField = false, quoteOpenedOnLine = 1
        var scalars = Array(text.unicodeScalars)
        if scalars.first == "\u{FEFF}" { scalars.removeFirst() }
        var i = 0
        func endRecord() {
            fields.append(field)
            // A blank line is not a record.
            if !(fields.count == 1 && fields[0].isEmpty && !quotedField) { records.append((recordLine, fields)) }
            fields = []
            field = ""
            quotedField = false
        }
        while i < scalars.count {
            let c = scalars[i]
            if inQuotes {
                if backslashEscapes, c == "\\", i + 1 < scalars.count, scalars[i + 1] == "\"" || scalars[i + 1] == "\\" {
                    field.unicodeScalars.append(scalars[i + 1])
                    i += 2
                    continue
                }
                if c == "\"" {
                    if i + 1 < scalars.count && scalars[i + 1] == "\"" {
                        field.unicodeScalars.append("\"")
                        i += 2
                        continue
                    }
                    inQuotes = false
                    i += 1
                    if i < scalars.count, !["," , "\n", "\r"].contains(scalars[i]) {
                        throw ParseError(line: line, message: "unexpected text after a closing quote")
                    }
                    continue
                }
                if c == "\n" { line += 1 }
                if c == "\r" && !(i + 1 < scalars.count && scalars[i + 1] == "\n") { line += 1 }
                field.unicodeScalars.append(c)
                i += 1
                continue
            }
            switch c {
            case "\"":
                guard field.isEmpty else { throw ParseError(line: line, message: "a quote inside an unquoted field") }
                inQuotes = true
                quotedField = true
                quoteOpenedOnLine = line
            case ",":
                fields.append(field)
                field = ""
                quotedField = false
            case "\r", "\n":
                if c == "\r" && i + 1 < scalars.count && scalars[i + 1] == "\n" { i += 1 }
                endRecord()
                line += 1
                recordLine = line
            default:
                field.unicodeScalars.append(c)
            }
            i += 1
        }
        if inQuotes { throw ParseError(line: quoteOpenedOnLine, message: "a quoted field is never closed") }
        if !field.isEmpty || !fields.isEmpty || quotedField { endRecord() }
        return records
    }

    public static func write(_ rows: [[String]]) -> String {
        rows.map { row in
            row.map { field in
                field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" })
                    ? "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : field
            }.joined(separator: ",")
        }.joined(separator: "\r\n") + "\r\n"
    }
}
