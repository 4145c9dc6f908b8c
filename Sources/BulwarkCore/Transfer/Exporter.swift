import Foundation

/// Writes entries in a plaintext interchange format.
public enum Exporter {
    public enum Format: String, CaseIterable, Sendable { case bitwardenJSON = "bitwarden-json", appleCSV = "apple-csv" }

    public static func write(_ entries: [Entry], format: Format) -> Data {
        switch format {
        case .appleCSV:
            let rows = [["Title", "URL", "Username", "Password", "Notes", "OTPAuth"]]
                + entries.map { [$0.title, $0.urls.first ?? "", $0.username, $0.password ?? "", $0.notes, $0.totpURI ?? ""] }
            return Data(CSV.write(rows).utf8)
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
            return (try? JSONSerialization.data(withJSONObject: root, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])) ?? Data()
        }
    }
}
