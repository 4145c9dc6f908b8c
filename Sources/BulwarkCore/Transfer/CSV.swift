import Foundation

/// An RFC 4180 CSV reader and writer: quoted fields with commas, quotes
/// (`""`) and line breaks inside, CRLF or LF, an optional UTF-8 BOM.
public enum CSV {
    public struct ParseError: Error, Equatable, CustomStringConvertible {
        public let line: Int
        public let message: String
        public var description: String { "line \(line): \(message)" }
    }

    /// The text of the first record (a header), up to the first line break
    /// outside quotes; the whole text when there is none.
    public static func firstRecord(of text: String) -> Substring {
        var inQuotes = false
        for index in text.utf8.indices {
            let byte = text.utf8[index]
            if byte == 0x22 { inQuotes.toggle() }
            if (byte == 0x0A || byte == 0x0D) && !inQuotes { return text[..<index] }
        }
        return text[...]
    }

    /// Records with the line each started on (1-based).
    /// With `backslashEscapes`, `\"` and `\\` inside a quoted field stand for
    /// `"` and `\` (as 1Password for Mac writes them).
    public static func parse(_ text: String, backslashEscapes: Bool = false) throws(ParseError) -> [(line: Int, fields: [String])] {
        var strays: [Int] = []
        return try parse(text, backslashEscapes: backslashEscapes, lenient: false, strays: &strays)
    }

    /// The same, but a stray quote (one inside an unquoted field, or one
    /// inside a quoted field that is not doubled, as some exporters write
    /// them) is read as part of the value; `strays` gets the line of each.
    /// A quoted field that is never closed is still refused.
    public static func parse(_ text: String, backslashEscapes: Bool = false, lenient: Bool,
                             strays: inout [Int]) throws(ParseError) -> [(line: Int, fields: [String])] {
        // On UTF-8 bytes: every delimiter is ASCII, and a byte of ASCII never
        // occurs inside another character's encoding.
        var text = text
        var found: [Int] = []
        let result = text.withUTF8 { all in
            let bom = all.count >= 3 && all[0] == 0xEF && all[1] == 0xBB && all[2] == 0xBF
            return Result { () throws(ParseError) in
                try parse(bytes: UnsafeBufferPointer(rebasing: all[(bom ? 3 : 0)...]), backslashEscapes: backslashEscapes, lenient: lenient, strays: &found)
            }
        }
        strays = found
        return try result.get()
    }

    private static func parse(bytes: UnsafeBufferPointer<UInt8>, backslashEscapes: Bool, lenient: Bool,
                              strays: inout [Int]) throws(ParseError) -> [(line: Int, fields: [String])] {
        let quote: UInt8 = 0x22, comma: UInt8 = 0x2C, lf: UInt8 = 0x0A, cr: UInt8 = 0x0D, backslash: UInt8 = 0x5C
        var records: [(line: Int, fields: [String])] = []
        var fields: [String] = []
        var field: [UInt8] = []
        var line = 1, recordLine = 1
        var inQuotes = false, quotedField = false, quoteOpenedOnLine = 1
        let count = bytes.count
        func endField() {
            fields.append(String(decoding: field, as: UTF8.self))
            field.removeAll(keepingCapacity: true)
        }
        func endRecord() {
            endField()
            // A blank line is not a record.
            if !(fields.count == 1 && fields[0].isEmpty && !quotedField) { records.append((recordLine, fields)) }
            fields = []
            quotedField = false
        }
        var i = 0
        while i < count {
            let c = bytes[i]
            if inQuotes {
                if backslashEscapes, c == backslash, i + 1 < count, bytes[i + 1] == quote || bytes[i + 1] == backslash {
                    field.append(bytes[i + 1])
                    i += 2
                    continue
                }
                if c == quote {
                    if i + 1 < count && bytes[i + 1] == quote {
                        field.append(quote)
                        i += 2
                        continue
                    }
                    if i + 1 < count, bytes[i + 1] != comma, bytes[i + 1] != lf, bytes[i + 1] != cr {
                        guard lenient else { throw ParseError(line: line, message: "unexpected text after a closing quote") }
                        // Not a closing quote after all: part of the value.
                        if strays.last != line { strays.append(line) }
                        field.append(quote)
                        i += 1
                        continue
                    }
                    inQuotes = false
                    i += 1
                    continue
                }
                if c == lf { line += 1 }
                if c == cr && !(i + 1 < count && bytes[i + 1] == lf) { line += 1 }
                field.append(c)
                i += 1
                continue
            }
            switch c {
            case quote:
                guard field.isEmpty else {
                    guard lenient else { throw ParseError(line: line, message: "a quote inside an unquoted field") }
                    if strays.last != line { strays.append(line) }
                    field.append(quote)
                    i += 1
                    continue
                }
                inQuotes = true
                quotedField = true
                quoteOpenedOnLine = line
            case comma:
                endField()
                quotedField = false
            case cr, lf:
                if c == cr && i + 1 < count && bytes[i + 1] == lf { i += 1 }
                endRecord()
                line += 1
                recordLine = line
            default:
                // A run of ordinary bytes at once.
                var end = i + 1
                while end < count, bytes[end] != quote, bytes[end] != comma, bytes[end] != lf, bytes[end] != cr { end += 1 }
                field.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[i..<end]))
                i = end
                continue
            }
            i += 1
        }
        if inQuotes { throw ParseError(line: quoteOpenedOnLine, message: "a quoted field is never closed") }
        if !field.isEmpty || !fields.isEmpty || quotedField { endRecord() }
        return records
    }

    public static func write(_ rows: [[String]]) -> String { rows.map(row).joined() }

    /// One record and its CRLF; a field with a comma, quote or line break is quoted.
    public static func row(_ fields: [String]) -> String {
        fields.map { field in
            field.utf8.contains(where: { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D })
                ? "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : field
        }.joined(separator: ",") + "\r\n"
    }
}
