import Foundation

/// Writes entries in a plaintext interchange format.
public enum Exporter {
    public enum Format: String, CaseIterable, Sendable { case bitwardenJSON = "bitwarden-json", appleCSV = "apple-csv" }

    public static func write(_ entries: [Entry], format: Format) -> Data { write(entries, format: format, spreadsheetSafe: false).data }

    /// A cell a spreadsheet would run as a formula, with where it is.
    public struct GuardedCell: Sendable, Equatable {
        public let title: String
        public let column: String
    }

    /// With `spreadsheetSafe`, CSV cells that begin with `=`, `+`, `-`,
    /// `@`, a tab or a carriage return get a leading `'` (OWASP's advice
    /// against formula injection), and each such cell is returned so the
    /// person can be told: the `'` is part of the value for any other program.
    public static func write(_ entries: [Entry], format: Format, spreadsheetSafe: Bool) -> (data: Data, guarded: [GuardedCell]) {
        switch format {
        case .appleCSV:
            let header = ["Title", "URL", "Username", "Password", "Notes", "OTPAuth"]
            var guarded: [GuardedCell] = []
            // One row per website, as Apple's own export writes an account with several.
            let rows = [header] + entries.flatMap { e in (e.urls.isEmpty ? [""] : e.urls).map { (e, $0) } }.map { e, url -> [String] in
                let cells = [e.title, url, e.username, e.password ?? "", e.notes, e.totpURI ?? ""]
                guard spreadsheetSafe else { return cells }
                return zip(header, cells).map { column, cell in
                    guard let first = cell.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first) else { return cell }
                    guarded.append(GuardedCell(title: e.title, column: column))
                    return "'" + cell
                }
            }
            return (Data(CSV.write(rows).utf8), guarded)
        case .bitwardenJSON:
            return (BitwardenJSON.write(entries), [])
        }
    }
}
