import Foundation

/// An export with the entries' files, as a ZIP: Bitwarden's export with
/// attachments (`data.json` and `attachments/ITEM-ID/FILE-NAME`, as its
/// clients write it) or a CXF archive (the document as `index.json`, each
/// file credential's bytes as `documents/ID`). Each file is read from the
/// vault a chunk at a time while the archive is written, so a file of any
/// size passes through in bounded memory (a CXF document's integrity hash
/// takes one read of its own first).
public enum ArchiveExport {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Writes the archive to `path` (0600; nothing there on failure); the number of files written.
    @discardableResult
    public static func write(_ entries: [Entry], format: Exporter.Format, to path: String, now: Date = Date(),
                             chunk: @escaping (Entry, Attachment, Int) throws -> [UInt8]) throws -> Int {
        let zip: ZipWriter
        do { zip = try ZipWriter(path: path) } catch { throw Failure(description: error.description) }
        var written = 0
        do {
            switch format {
            case .bitwardenJSON:
                try zip.add("data.json", Array(Exporter.write(entries, format: .bitwardenJSON)))
                for entry in entries {
                    for attachment in entry.attachments {
                        try zip.add("attachments/\(entry.id)/\(attachment.name)", size: attachment.size, pieces: attachment.chunks) { try chunk(entry, attachment, $0) }
                        written += 1
                    }
                }
            case .cxf:
                var documents: [String: CXFExport.FileDocument] = [:]
                for entry in entries {
                    for attachment in entry.attachments where documents[attachment.blob] == nil {
                        let hash = Digest.SHA256Stream()
                        for index in 0..<attachment.chunks { hash.update(try chunk(entry, attachment, index)) }
                        // The same bytes held twice are one document: its id from the vault's name for them.
                        let id = Base64URL.encode(Array(Digest.sha256(Array(attachment.blob.utf8)).prefix(16)))
                        documents[attachment.blob] = CXFExport.FileDocument(id: id, integrityHash: Base64URL.encode(hash.finish()))
                        try zip.add("documents/\(id)", size: attachment.size, pieces: attachment.chunks) { try chunk(entry, attachment, $0) }
                        written += 1
                    }
                }
                let sink = ByteSink(descriptor: nil)
                CXFExport.write(entries, now: now, files: documents, to: sink)
                try zip.add("index.json", sink.bytes)
            case .appleCSV:
                throw Failure(description: "Apple's CSV has no archive form")
            }
            try zip.close()
        } catch let failure as ZipWriter.Failure {
            throw Failure(description: failure.description)
        }
        return written
    }
}
