import Foundation

/// Writes entries in a plaintext interchange format.
public enum Exporter {
    public enum Format: String, CaseIterable, Sendable { case bitwardenJSON = "bitwarden-json", appleCSV = "apple-csv", cxf = "cxf" }

    public static func write(_ entries: [Entry], format: Format) -> Data { write(entries, format: format, spreadsheetSafe: false).data }

    /// A cell a spreadsheet would run as a formula, with where it is.
    public struct GuardedCell: Sendable, Equatable {
        public let title: String
        public let column: String
    }

    /// With `spreadsheetSafe`, CSV cells that begin with `=`, `+`, `-`,
    /// `@`, a tab or a carriage return get a leading `'` (OWASP's advice
    /// against formula injection, `SpreadsheetGuard`), and each such cell is
    /// returned so the person can be told. bulwark's own import takes the
    /// `'` away again; for any other program it is part of the value.
    public static func write(_ entries: [Entry], format: Format, spreadsheetSafe: Bool) -> (data: Data, guarded: [GuardedCell]) {
        let sink = ByteSink(descriptor: nil)
        let guarded = write(entries, format: format, spreadsheetSafe: spreadsheetSafe, to: sink)
        return (Data(sink.bytes), guarded)
    }

    /// The same, written as it goes into `sink` (a file, for exports of
    /// 100,000 entries that never hold the whole text).
    public static func write(_ entries: [Entry], format: Format, spreadsheetSafe: Bool, to sink: ByteSink) -> [GuardedCell] {
        switch format {
        case .appleCSV:
            let header = ["Title", "URL", "Username", "Password", "Notes", "OTPAuth"]
            var guarded: [GuardedCell] = []
            sink.write(CSV.row(header))
            // One row per website, as Apple's own export writes an account with several.
            for e in entries {
                for url in e.urls.isEmpty ? [""] : e.urls {
                    var cells = [e.title, url, e.username, e.password ?? "", e.notes, e.totpURI ?? ""]
                    if spreadsheetSafe {
                        for index in cells.indices where SpreadsheetGuard.needsGuard(cells[index]) {
                            guarded.append(GuardedCell(title: e.title, column: header[index]))
                            cells[index] = "'" + cells[index]
                        }
                    }
                    sink.write(CSV.row(cells))
                }
            }
            return guarded
        case .bitwardenJSON:
            BitwardenJSON.write(entries, to: sink)
            return []
        case .cxf:
            CXFExport.write(entries, to: sink)
            return []
        }
    }
}
