import Foundation

/// Files an import brings: while the file is read, each attachment names
/// its bytes by a placeholder (`import:ref:KEY`: a KeePass binary's place,
/// a path inside 1Password's archive);
/// once they are known, by the content's SHA-256 (`import:HEX`, so a file
/// two entries share is sealed once), with its true size and media type.
/// A placeholder whose bytes are missing drops the attachment, named.
enum ImportFiles {
    static let prefix = "import:"

    static func pending(name: String, ref: Int, created: Date) -> Attachment { pending(name: name, key: String(ref), created: created) }

    static func pending(name: String, key: String, created: Date) -> Attachment {
        Attachment(blob: "\(prefix)ref:\(key)", name: name, size: 0, mediaType: Attachment.mediaType(forName: name),
                   created: created, modified: created, chunks: 1)
    }

    static func fill(_ read: inout ImportRead, from binaries: [Int: [UInt8]], now: Date) {
        fill(&read) { key in Int(key).flatMap { binaries[$0] } }
    }

    /// Each placeholder's bytes from `bytes` (nil: left out and named, with
    /// `why` the key's reason when it has one).
    static func fill(_ read: inout ImportRead, why: (String) -> String? = { _ in nil }, bytes: (String) -> [UInt8]?) {
        for index in read.entries.indices where !read.entries[index].attachments.isEmpty {
            var kept: [Attachment] = []
            for var attachment in read.entries[index].attachments {
                let key = String(attachment.blob.dropFirst(prefix.count + 4))
                guard attachment.blob.hasPrefix(prefix + "ref:"), let bytes = bytes(key) else {
                    read.notHeld.append("the file \(attachment.name) of \(read.entries[index].title) (\(why(key) ?? "its data is not in the file"))")
                    continue
                }
                // A name bulwark cannot write out is made one it can.
                if Attachment.problem(withName: attachment.name) != nil { attachment.name = safeName(attachment.name) }
                guard !kept.contains(where: { $0.name == attachment.name }) else {
                    read.notHeld.append("a second file named \(attachment.name) of \(read.entries[index].title)")
                    continue
                }
                let content = prefix + Digest.sha256(bytes).hex
                read.files[content] = bytes
                attachment.blob = content
                attachment.size = Int64(bytes.count)
                attachment.chunks = max(1, (bytes.count + Vault.chunkSize - 1) / Vault.chunkSize)
                kept.append(attachment)
            }
            read.entries[index].attachments = kept
        }
    }

    /// Separators and control characters replaced, kept within 255 bytes.
    static func safeName(_ name: String) -> String {
        var cleaned = String(String.UnicodeScalarView(name.unicodeScalars.map { scalar in
            scalar == "/" || scalar == "\\" || scalar.properties.generalCategory == .control || scalar.properties.generalCategory == .format ? "_" : scalar
        }))
        if cleaned.isEmpty || cleaned == "." || cleaned == ".." { cleaned = "attachment" }
        while cleaned.utf8.count > 255 { cleaned.removeLast() }
        return cleaned
    }
}
