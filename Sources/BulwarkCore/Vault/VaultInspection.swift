import Foundation

/// Reads a vault the way `Vault.open` does, but keeps going past damage:
/// every problem is listed (the file, the header, each row that does not
/// decrypt or is newer than the index, the index, a rollback), and every
/// entry that still decrypts is kept, for `bulwark check` and
/// `bulwark recover`. Nothing is written.
public struct VaultInspection: Sendable {
    public enum Problem: Sendable, Equatable, CustomStringConvertible {
        case file(String)
        case header(String)
        case rowUnreadable(id: String)
        case rowMalformed(id: String)
        case rowNewerThanIndex(id: String, version: Int64, counter: Int64)
        case index(String)
        case rollback(Vault.Rollback)
        case attachment(file: String, entry: String, detail: String)

        public var description: String {
            switch self {
            case .file(let detail): "file: \(detail)"
            case .header(let detail): "header: \(detail)"
            case .rowUnreadable(let id): "entry \(id): does not decrypt (altered, or moved from another row or version)"
            case .rowMalformed(let id): "entry \(id): decrypts but its fields are malformed"
            case .rowNewerThanIndex(let id, let version, let counter): "entry \(id): change \(version) is newer than the index (change \(counter))"
            case .index(let detail): "index: \(detail)"
            case .rollback(let rollback): "freshness: \(rollback)"
            case .attachment(let file, let entry, let detail): "file \(TerminalText.visible(file)) of \(TerminalText.visible(entry)): \(detail)"
            }
        }
    }

    public var problems: [Problem] = []
    /// Every entry that decrypts, by title.
    public var entries: [Entry] = []
    /// The ids of the rows that do not.
    public var unreadable: [String] = []
    public var rowCount = 0
    public var counter: Int64?
    public var parameters = ScryptParameters.standard
    public var schema = Vault.schemaVersion
    /// Each attachment whose chunks all open, by blob, and the means to read them again (`recover`).
    var readableBlobs: Set<String> = []

    /// Throws only when nothing can be read at all: no file, a wrong master
    /// password, or a header that no longer yields the vault key.
    public static func inspect(at path: URL, masterPassword: String, freshness: FreshnessRecord? = nil) throws -> VaultInspection {
        guard FileManager.default.fileExists(atPath: path.path) else { throw VaultError.notFound(path.path) }
        var report = VaultInspection()
        do { try DatabaseFileLength.checkSettled(path) } catch { report.problems.append(.file("\(error)")) }
        let database: SQLiteDatabase
        do { database = try SQLiteDatabase(path: path.path, create: false) } catch {
            throw VaultError.damaged("SQLite cannot open the file (\(error))")
        }
        defer { database.close() }
        if let messages = try? database.query("PRAGMA quick_check").compactMap({ $0.first?.text }), messages != ["ok"] {
            report.problems += messages.prefix(20).map { .file("SQLite: \($0)") }
        }
        let (header, key) = try unwrap(database, masterPassword: masterPassword, into: &report)
        report.parameters = header.parameters
        report.schema = header.schema
        guard header.schema >= 3 else {
            // Formats 1 and 2 have no versions to inspect: opening converts them, or says what is wrong.
            do { try Vault.open(at: path, masterPassword: masterPassword).close() } catch { report.problems.append(.file("\(error)")) }
            return report
        }
        let prefix = Array("bulwark/v1|\(header.vaultID.hex)|".utf8)
        var listing = Listing()
        var rows: [Vault.SealedRow] = []
        do {
            try database.eachRaw("SELECT id, version, sealed FROM entries ORDER BY id") { row in
                guard let id = row.bytes(0), let version = row.integer(1), let box = row.bytes(2) else {
                    report.problems.append(.file("an entry row is malformed"))
                    return
                }
                listing.append(id: id, version: version)
                rows.append((String(decoding: id, as: UTF8.self), version, Array(box)))
            }
        } catch { report.problems.append(.file("the entries cannot all be read (\(error))")) }
        report.rowCount = rows.count
        for row in rows {
            do { report.entries += try Vault.open([row], key: key, aadPrefix: prefix) } catch let error as VaultError {
                report.unreadable.append(row.id)
                report.problems.append(error.description.contains("malformed") ? .rowMalformed(id: row.id) : .rowUnreadable(id: row.id))
            }
        }
        report.entries = Vault.sorted(report.entries)
        if header.schema >= 5 {
            let reader = BlobReader(database: database, key: key, aadPrefix: prefix)
            for entry in report.entries {
                for attachment in entry.attachments where !report.readableBlobs.contains(attachment.blob) {
                    if let detail = reader.damage(attachment) {
                        report.problems.append(.attachment(file: attachment.name, entry: entry.title, detail: detail))
                    } else {
                        report.readableBlobs.insert(attachment.blob)
                    }
                }
            }
        }
        if let index = SealedIndex.read(from: database, key: key, aadPrefix: prefix) {
            report.counter = index.counter
            for row in rows where row.version > index.counter {
                report.problems.append(.rowNewerThanIndex(id: row.id, version: row.version, counter: index.counter))
            }
            if let mismatch = index.mismatch(listing), listing.newest <= index.counter { report.problems.append(.index(mismatch)) }
            // Read again after the record, as `Vault.checkFreshness` does: a write may have landed meanwhile.
            if let seen = freshness?.highestSeen(vaultID: header.vaultID + ((try? Vault.replica(in: database)) ?? nil ?? []), key: key), seen > index.counter,
               let now = SealedIndex.read(from: database, key: key, aadPrefix: prefix), seen > now.counter {
                report.problems.append(.rollback(Vault.Rollback(found: now.counter, seen: seen)))
            }
        } else {
            report.problems.append(.index("the sealed index is missing or does not open"))
        }
        return report
    }

    /// The header and the vault key, tolerating a header whose checksum
    /// fails when its fields still unwrap the key.
    private static func unwrap(_ database: SQLiteDatabase, masterPassword: String,
                               into report: inout VaultInspection) throws -> (Vault.Header, [UInt8]) {
        var header: Vault.Header
        do { header = try Vault.Header.read(from: database) } catch VaultError.damaged(let detail) where detail.contains("checksum") {
            guard let fields = try? Vault.Header.readUnchecked(from: database).header else { throw VaultError.damaged("the header is unreadable") }
            header = fields
            report.problems.append(.header(detail))
        }
        guard header.parameters.isSane,
              var kek = try? Scrypt.derive(password: Array(masterPassword.utf8), salt: header.salt, parameters: header.parameters) else {
            throw VaultError.damaged("the header's key derivation settings are unusable, so the vault key cannot be unwrapped")
        }
        defer { kek.wipe() }
        guard let key = try? AEAD().open(header.wrappedKey, key: kek, associatedData: Vault.Header.wrapAAD(header.vaultID, header.parameters)) else {
            if report.problems.isEmpty { throw VaultError.wrongPassword }
            throw VaultError.damaged("the header is damaged and the vault key cannot be unwrapped")
        }
        return (header, key)
    }

    /// A new vault at `destination`, with the same master password and key
    /// derivation settings, holding every entry that decrypts.
    /// Files whose chunks all open are carried over (sealed again under the
    /// new vault's key); the others are left out and named in `lostFiles`.
    public func recover(to destination: URL, masterPassword: String, from source: URL) throws -> (vault: Vault, lostFiles: [String]) {
        let vault = try Vault.create(at: destination, masterPassword: masterPassword, parameters: parameters)
        var lost: [String] = []
        try vault.save(entries.map { entry in
            var bare = entry
            bare.attachments = []
            return bare
        })
        let withFiles = entries.filter { !$0.attachments.isEmpty }
        guard !withFiles.isEmpty else { return (vault, []) }
        let database = try SQLiteDatabase(path: source.path, create: false)
        defer { database.close() }
        let (_, key) = try Self.unwrapQuietly(database, masterPassword: masterPassword)
        let prefix = Array("bulwark/v1|\(try Vault.Header.readUnchecked(from: database).header.vaultID.hex)|".utf8)
        let reader = BlobReader(database: database, key: key, aadPrefix: prefix)
        for entry in withFiles {
            for attachment in entry.attachments {
                guard readableBlobs.contains(attachment.blob) else {
                    lost.append("\(TerminalText.visible(attachment.name)) of \(TerminalText.visible(entry.title))")
                    continue
                }
                try vault.transaction { change in
                    try change.attach(reader.source(attachment), to: entry.id, name: attachment.name, mediaType: attachment.mediaType, now: attachment.created)
                }
            }
        }
        return (vault, lost)
    }

    private static func unwrapQuietly(_ database: SQLiteDatabase, masterPassword: String) throws -> (Vault.Header, [UInt8]) {
        var ignored = VaultInspection()
        return try unwrap(database, masterPassword: masterPassword, into: &ignored)
    }
}
