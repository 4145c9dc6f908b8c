import Foundation

/// Attachments' chunks read straight from a vault file with its key, for
/// `check` (which chunk of which file is damaged) and `recover` (the
/// files that open, read again to be sealed under the new vault's key).
struct BlobReader {
    let database: SQLiteDatabase
    let key: [UInt8]
    let aadPrefix: [UInt8]
    private let aead = AEAD()

    init(database: SQLiteDatabase, key: [UInt8], aadPrefix: [UInt8]) {
        self.database = database
        self.key = key
        self.aadPrefix = aadPrefix
    }

    /// Chunk `index` of the attachment, opened; nil with why when it cannot be.
    func chunk(_ attachment: Attachment, _ index: Int) -> Result<[UInt8], ChunkDamage> {
        guard let sealed = (try? database.query("SELECT sealed FROM blobs WHERE blob = ? AND chunk = ?",
                                                 [.text(attachment.blob), .integer(Int64(index))]))?.first?.first?.blob else {
            return .failure(ChunkDamage(detail: "its chunk \(index + 1) of \(attachment.chunks) is missing"))
        }
        let associatedData = Vault.chunkAAD(prefix: aadPrefix, blob: attachment.blob, index: index, last: index == attachment.chunks - 1)
        guard let plain = try? aead.open(Array(sealed), key: key, associatedData: associatedData) else {
            return .failure(ChunkDamage(detail: "its chunk \(index + 1) of \(attachment.chunks) does not decrypt (altered, moved or from another file)"))
        }
        return .success(plain)
    }

    struct ChunkDamage: Error { let detail: String }

    /// What is wrong with the attachment's chunks, or nil when every one opens and the sizes add up.
    func damage(_ attachment: Attachment) -> String? {
        var size: Int64 = 0
        for index in 0..<attachment.chunks {
            switch chunk(attachment, index) {
            case .success(let plain): size += Int64(plain.count)
            case .failure(let damage): return damage.detail
            }
        }
        return size == attachment.size ? nil : "its chunks hold \(size) bytes, not the \(attachment.size) it was saved with"
    }

    /// The attachment's bytes as a source for sealing again.
    func source(_ attachment: Attachment) -> AttachmentSource { Source(reader: self, attachment: attachment) }

    private final class Source: AttachmentSource {
        let reader: BlobReader
        let attachment: Attachment
        var next = 0
        var pending: [UInt8] = []

        init(reader: BlobReader, attachment: Attachment) {
            self.reader = reader
            self.attachment = attachment
        }

        func read(upTo count: Int) throws -> [UInt8] {
            while pending.count < count, next < attachment.chunks {
                switch reader.chunk(attachment, next) {
                case .success(let plain): pending += plain
                case .failure(let damage): throw AttachmentError.damaged(file: attachment.name, entry: "", detail: damage.detail)
                }
                next += 1
            }
            let taken = Array(pending.prefix(count))
            pending.removeFirst(taken.count)
            return taken
        }

        func rewind() throws {
            next = 0
            pending = []
        }
    }
}
