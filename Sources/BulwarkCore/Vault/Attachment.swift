import Foundation

/// A file an entry holds: what the entry's box says of it. Its bytes are
/// kept apart, sealed in chunks under the vault key in the `blobs` table
/// by `blob`, which names the content (a keyed hash of it: two entries
/// holding the same file share one copy, and the name tells nothing of
/// the bytes to one without the key).
public struct Attachment: Sendable, Equatable, Hashable {
    public var blob: String
    public var name: String
    public var size: Int64
    public var mediaType: String
    public var created: Date
    public var modified: Date
    /// How many chunks the bytes are sealed in: one short of it, or a last
    /// chunk not marked last, is a file cut short.
    public var chunks: Int

    public init(blob: String, name: String, size: Int64, mediaType: String, created: Date, modified: Date, chunks: Int) {
        self.blob = blob
        self.name = name
        self.size = size
        self.mediaType = mediaType
        self.created = created
        self.modified = modified
        self.chunks = chunks
    }

    /// As one line of JSON (a named extra of the entry's box holds it).
    var json: String {
        let list: [Any] = [blob, name, String(size), mediaType, ISODate.string(created, milliseconds: true),
                           ISODate.string(modified, milliseconds: true), chunks]
        guard let data = try? JSONSerialization.data(withJSONObject: list) else { return "" }
        return String(decoding: data, as: UTF8.self)
    }

    init?(json: String) {
        guard let list = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [Any], list.count == 7,
              let blob = list[0] as? String, let name = list[1] as? String, let size = (list[2] as? String).flatMap(Int64.init),
              let mediaType = list[3] as? String, let created = (list[4] as? String).flatMap(ISODate.parse),
              let modified = (list[5] as? String).flatMap(ISODate.parse), let chunks = list[6] as? Int, chunks >= 1 else { return nil }
        self.init(blob: blob, name: name, size: size, mediaType: mediaType, created: created, modified: modified, chunks: chunks)
    }

    /// Why `name` cannot name an attachment, or nil: it is written as a
    /// file's name on the way out, so no separators, no control
    /// characters, not "." or "..", not empty, at most 255 bytes.
    public static func problem(withName name: String) -> String? {
        if name.isEmpty { return "an attachment's name cannot be empty" }
        if name == "." || name == ".." { return "an attachment cannot be named \(name)" }
        if name.contains("/") || name.contains("\\") { return "an attachment's name cannot hold a path separator (/ or \\)" }
        if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0.properties.generalCategory == .format }) {
            return "an attachment's name cannot hold control characters"
        }
        if name.utf8.count > 255 { return "an attachment's name is longer than 255 bytes" }
        return nil
    }

    /// A media type from the name's extension, as a desktop's opener would guess it.
    public static func mediaType(forName name: String) -> String {
        let ext = (name as NSString).pathExtension.lowercased()
        return mediaTypes[ext] ?? "application/octet-stream"
    }

    static let mediaTypes: [String: String] = [
        "pdf": "application/pdf", "txt": "text/plain", "md": "text/markdown", "csv": "text/csv", "json": "application/json",
        "xml": "application/xml", "html": "text/html", "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg",
        "gif": "image/gif", "webp": "image/webp", "svg": "image/svg+xml", "zip": "application/zip", "gz": "application/gzip",
        "key": "application/octet-stream", "pem": "application/x-pem-file", "asc": "application/pgp-keys", "kdbx": "application/x-keepass2",
        "doc": "application/msword", "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    ]
}
