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
            let rows = [header] + entries.map { e -> [String] in
                let cells = [e.title, e.urls.first ?? "", e.username, e.password ?? "", e.notes, e.totpURI ?? ""]
                guard spreadsheetSafe else { return cells }
                return zip(header, cells).map { column, cell in
                    guard let first = cell.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first) else { return cell }
                    guarded.append(GuardedCell(title: e.title, column: column))
                    return "'" + cell
                }
            }
            return (Data(CSV.write(rows).utf8), guarded)
        case .bitwardenJSON:
            let items: [[String: Any]] = entries.map { e in
                [
                    "id": e.id, "type": 1, "name": e.title, "notes": e.notes.isEmpty ? NSNull() : e.notes, "favorite": false,
                    "folderId": NSNull(),
                    "login": [
                        "username": e.username, "password": e.password.map { $0 as Any } ?? NSNull(),
                        "totp": e.totpURI.map { $0 as Any } ?? NSNull(),
                        "uris": e.urls.map { ["match": NSNull(), "uri": $0] },
                    ] as [String: Any],
                ]
            }
            let root: [String: Any] = ["encrypted": false, "folders": [] as [Any], "items": items]
            return ((try? JSONSerialization.data(withJSONObject: root, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])) ?? Data(), [])
        }
    }
}
