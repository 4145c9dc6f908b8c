import Foundation

/// The most a vault keeps in files: set in the config (`attachment-limit-mib`,
/// `attachments-limit-mib`), refused with the limit named when passed.
public struct AttachmentLimits: Sendable, Equatable {
    public var perFile: Int64
    public var perVault: Int64

    public init(perFile: Int64, perVault: Int64) {
        self.perFile = perFile
        self.perVault = perVault
    }

    /// Far above a recovery-code PDF or a key file: 2 GiB a file, 20 GiB in all.
    public static let standard = AttachmentLimits(perFile: 2 << 30, perVault: 20 << 30)
}

/// Bytes read front to back, twice if need be (once to name them, once to
/// seal them): a file on disk, or bytes already in memory (an import's).
public protocol AttachmentSource {
    /// Up to `count` bytes; empty at the end.
    func read(upTo count: Int) throws -> [UInt8]
    /// Back to the first byte.
    func rewind() throws
}

/// Attachments' bytes: sealed a mebibyte at a time (AES-256-GCM under the
/// vault key), each chunk's associated data naming the vault, the content
/// and the chunk's place and whether it is the last, so a chunk swapped
/// between files, moved, dropped or cut off fails to open. A file streams
/// in and out one chunk at a time, whatever its size.
extension Vault {
    public static let chunkSize = 1 << 20

    /// The content's name in the vault: its SHA-256 under a key of the vault's own.
    func blobName(digest: [UInt8]) -> String { HMAC.authenticate(digest, key: subkey("attachment-blob"), digest: .sha256).hex }

    func chunkAAD(blob: String, index: Int, last: Bool) -> [UInt8] { Vault.chunkAAD(prefix: aadPrefix, blob: blob, index: index, last: last) }

    static func chunkAAD(prefix: [UInt8], blob: String, index: Int, last: Bool) -> [UInt8] {
        prefix + Array("chunk|\(blob)|\(index)|\(last ? "last" : "more")".utf8)
    }

    /// Seals `source`'s bytes into the blobs table (inside the caller's
    /// write transaction) unless the same content is there already, and
    /// returns what an entry keeps of it. Read once to name it and check
    /// the limits, then again to seal it; bytes that change between the
    /// two are refused.
    func storeBlob(_ source: AttachmentSource, name: String, mediaType: String?, now: Date,
                   alreadyHeld: Int64) throws -> Attachment {
        if let problem = Attachment.problem(withName: name) { throw AttachmentError.badName(problem) }
        let first = Digest.SHA256Stream()
        var size: Int64 = 0
        while true {
            let piece = try source.read(upTo: Vault.chunkSize)
            if piece.isEmpty { break }
            size += Int64(piece.count)
            if size > attachmentLimits.perFile { throw AttachmentError.tooLarge(name: name, limit: attachmentLimits.perFile) }
            first.update(piece)
        }
        let digest = first.finish()
        let blob = blobName(digest: digest)
        let chunks = max(1, Int((size + Int64(Vault.chunkSize) - 1) / Int64(Vault.chunkSize)))
        let attachment = Attachment(blob: blob, name: name, size: size, mediaType: mediaType ?? Attachment.mediaType(forName: name),
                                    created: now, modified: now, chunks: chunks)
        if try db().query("SELECT 1 FROM blobs WHERE blob = ? AND chunk = 0", [.text(blob)]).isEmpty {
            if alreadyHeld + size > attachmentLimits.perVault {
                throw AttachmentError.vaultFull(name: name, limit: attachmentLimits.perVault, held: alreadyHeld)
            }
            try source.rewind()
            let second = Digest.SHA256Stream()
            for index in 0..<chunks {
                let piece = try source.read(upTo: Vault.chunkSize)
                second.update(piece)
                let sealed = aead.seal(piece, key: key, associatedData: chunkAAD(blob: blob, index: index, last: index == chunks - 1))
                try db().query("INSERT INTO blobs (blob, chunk, sealed) VALUES (?, ?, ?)", [.text(blob), .integer(Int64(index)), .blob(sealed)])
                KillPoint.reach("attach-chunk")
            }
            guard try source.read(upTo: 1).isEmpty, second.finish() == digest else { throw AttachmentError.changedWhileRead(name) }
        }
        return attachment
    }

    /// The attachment's bytes, a chunk at a time, to `sink`, each chunk
    /// opened and checked before it is handed over; a chunk missing,
    /// altered, moved or cut off stops it with the file named.
    public func readAttachment(_ attachment: Attachment, of entry: Entry, into sink: ([UInt8]) throws -> Void) throws {
        guard !isLocked else { throw VaultError.locked }
        var size: Int64 = 0
        try guarded {
            // One snapshot of the file: a writer that drops the blob meanwhile is not seen half-way.
            try db().readTransaction {
                for index in 0..<attachment.chunks {
                    let plain = try openChunk(attachment, of: entry, index)
                    size += Int64(plain.count)
                    try sink(plain)
                }
            }
        }
        // The chunks' associated data already binds each to its file and
        // place (the name is the content's keyed hash only under the key it
        // was attached under: a re-key keeps names); the size is checked too.
        guard size == attachment.size else {
            throw AttachmentError.damaged(file: attachment.name, entry: entry.title, detail: "its bytes are not the ones it was saved with")
        }
    }

    /// Chunk `index` of the attachment, opened and checked, for a reader
    /// that pulls (a ZIP archive written a member at a time); the last
    /// chunk also checks the size.
    public func attachmentChunk(_ attachment: Attachment, of entry: Entry, _ index: Int) throws -> [UInt8] {
        guard !isLocked else { throw VaultError.locked }
        let plain = try guarded { try openChunk(attachment, of: entry, index) }
        let expected = index == attachment.chunks - 1 ? attachment.size - Int64(index) * Int64(Vault.chunkSize) : Int64(Vault.chunkSize)
        guard Int64(plain.count) == expected else {
            throw AttachmentError.damaged(file: attachment.name, entry: entry.title, detail: "its bytes are not the ones it was saved with")
        }
        return plain
    }

    private func openChunk(_ attachment: Attachment, of entry: Entry, _ index: Int) throws -> [UInt8] {
        guard let sealed = try db().query("SELECT sealed FROM blobs WHERE blob = ? AND chunk = ?",
                                          [.text(attachment.blob), .integer(Int64(index))]).first?.first?.blob else {
            throw AttachmentError.damaged(file: attachment.name, entry: entry.title, detail: "its chunk \(index + 1) of \(attachment.chunks) is missing")
        }
        let last = index == attachment.chunks - 1
        guard let plain = try? aead.open(Array(sealed), key: key, associatedData: chunkAAD(blob: attachment.blob, index: index, last: last)) else {
            throw AttachmentError.damaged(file: attachment.name, entry: entry.title,
                                          detail: "its chunk \(index + 1) of \(attachment.chunks) does not decrypt (altered, moved or from another file)")
        }
        return plain
    }

    /// The chunks no entry holds any more, once `put` and `delete` are
    /// written: dropped in the same transaction. Only blobs the change
    /// took away from an entry are looked for.
    func dropUnheldBlobs(put: [Entry], delete: [String]) throws {
        // A file without files has none to drop: one probe, not a look up of every entry written.
        guard try db().query("SELECT EXISTS(SELECT 1 FROM blobs)").first?.first?.integer == 1 else { return }
        var candidates = Set<String>()
        for id in delete { for attachment in entry(id: id)?.attachments ?? [] { candidates.insert(attachment.blob) } }
        for new in put {
            guard let old = entry(id: new.id), !old.attachments.isEmpty else { continue }
            let kept = Set(new.attachments.map(\.blob))
            for attachment in old.attachments where !kept.contains(attachment.blob) { candidates.insert(attachment.blob) }
        }
        guard !candidates.isEmpty else { return }
        let changed = Set(put.map(\.id)).union(delete)
        for entry in entries where !changed.contains(entry.id) {
            for attachment in entry.attachments { candidates.remove(attachment.blob) }
        }
        for entry in put { for attachment in entry.attachments { candidates.remove(attachment.blob) } }
        for blob in candidates { try db().query("DELETE FROM blobs WHERE blob = ?", [.text(blob)]) }
    }

    /// Every chunk sealed again under `newKey` (a change of master password), one at a time.
    func resealBlobs(from oldKey: [UInt8], to newKey: [UInt8]) throws {
        var lastChunk: [String: Int64] = [:]
        for row in try db().query("SELECT blob, max(chunk) FROM blobs GROUP BY blob") {
            if let blob = row[0].text, let last = row[1].integer { lastChunk[blob] = last }
        }
        let rowIDs = try db().query("SELECT rowid FROM blobs").compactMap { $0.first?.integer }
        for rowID in rowIDs {
            guard let row = try db().query("SELECT blob, chunk, sealed FROM blobs WHERE rowid = ?", [.integer(rowID)]).first,
                  let blob = row[0].text, let chunk = row[1].integer, let sealed = row[2].blob else { continue }
            let associatedData = chunkAAD(blob: blob, index: Int(chunk), last: chunk == lastChunk[blob])
            guard let plain = try? aead.open(Array(sealed), key: oldKey, associatedData: associatedData) else {
                throw VaultError.damaged("a chunk of an attached file does not decrypt (chunk \(chunk + 1) of \(blob.prefix(12))…); 'bulwark check' names its file")
            }
            try db().query("UPDATE blobs SET sealed = ? WHERE rowid = ?", [.blob(aead.seal(plain, key: newKey, associatedData: associatedData)), .integer(rowID)])
        }
    }
}

/// What can go wrong with an attachment, each naming the file.
public enum AttachmentError: Error, Equatable, CustomStringConvertible {
    case badName(String)
    case tooLarge(name: String, limit: Int64)
    case vaultFull(name: String, limit: Int64, held: Int64)
    case changedWhileRead(String)
    case damaged(file: String, entry: String, detail: String)
    case notFound(name: String, entry: String)
    case duplicate(name: String, entry: String)

    public var description: String {
        switch self {
        case .badName(let problem): "\(problem); give another with --name"
        case .tooLarge(let name, let limit):
            "\(TerminalText.visible(name)) is larger than the \(ByteSize.text(limit)) an attachment may be (attachment-limit-mib in the config)"
        case .vaultFull(let name, let limit, let held):
            "\(TerminalText.visible(name)) would take the vault's files past \(ByteSize.text(limit)) (they hold \(ByteSize.text(held)) now; attachments-limit-mib in the config)"
        case .changedWhileRead(let name): "\(TerminalText.visible(name)) changed while it was read; try again once nothing is writing it"
        case .damaged(let file, let entry, let detail):
            "the file \(TerminalText.visible(file)) of \(TerminalText.visible(entry)) is damaged: \(detail)"
        case .notFound(let name, let entry): "\(TerminalText.visible(entry)) holds no file named \(TerminalText.visible(name))"
        case .duplicate(let name, let entry): "\(TerminalText.visible(entry)) already holds a file named \(TerminalText.visible(name)); give another with --name"
        }
    }
}

/// Sizes as people read them: bytes, KiB, MiB, GiB (powers of two, one decimal).
public enum ByteSize {
    public static func text(_ bytes: Int64) -> String {
        if bytes < 1024 { return "\(bytes) bytes" }
        let units = ["KiB", "MiB", "GiB", "TiB"]
        var value = Double(bytes) / 1024
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? "\(Int(rounded)) \(units[unit])" : String(format: "%.1f %@", rounded, units[unit])
    }
}

/// Attachments' chunks as they are sealed, for the sync repository, which
/// keeps them byte for byte (the vault's key and id are the same on every
/// machine that syncs it).
extension Vault {
    /// Whether the vault holds a file's bytes (a blob dropped with the last entry that held it does not).
    public func hasBlob(_ blob: String) throws -> Bool {
        try !db().query("SELECT 1 FROM blobs WHERE blob = ? AND chunk = 0", [.text(blob)]).isEmpty
    }

    /// Whether the vault holds chunk `index` of the file.
    func hasSealedChunk(_ attachment: Attachment, _ index: Int) throws -> Bool {
        try !db().query("SELECT 1 FROM blobs WHERE blob = ? AND chunk = ?", [.text(attachment.blob), .integer(Int64(index))]).isEmpty
    }

    /// Chunk `index` of the file as sealed; nil when the vault lacks it.
    func sealedChunk(_ attachment: Attachment, _ index: Int) throws -> [UInt8]? {
        try db().query("SELECT sealed FROM blobs WHERE blob = ? AND chunk = ?", [.text(attachment.blob), .integer(Int64(index))])
            .first?.first?.blob.map(Array.init)
    }

    /// A chunk from elsewhere (the sync repository), inserted inside the
    /// caller's write transaction only when it opens as the file's chunk there.
    func insertSealedChunk(_ attachment: Attachment, _ index: Int, _ sealed: [UInt8]) throws -> Bool {
        let associatedData = chunkAAD(blob: attachment.blob, index: index, last: index == attachment.chunks - 1)
        guard (try? aead.open(sealed, key: key, associatedData: associatedData)) != nil else { return false }
        try db().query("INSERT OR IGNORE INTO blobs (blob, chunk, sealed) VALUES (?, ?, ?)",
                       [.text(attachment.blob), .integer(Int64(index)), .blob(sealed)])
        return true
    }
}
