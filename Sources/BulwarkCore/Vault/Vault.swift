import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An encrypted vault: one SQLite file (WAL, foreign keys on, a schema
/// version). Each entry's fields are sealed together in one AES-256-GCM box
/// under a random 256-bit vault key, with associated data naming the vault
/// and the row, so a ciphertext moved to another row fails to open. (Format
/// 1 sealed each field apart; it is converted on the first open.) The vault key is wrapped by a key derived from the master password
/// with scrypt; the parameters and salt are stored in the file. A sealed
/// index of entry ids catches rows that disappear or appear.
public final class Vault {
    public static let schemaVersion = 2
    /// Field names: format 1's column names, and the order of the parts in a box.
    static let fields = Field.allCases.map { "\($0)" }

    public let path: URL
    public private(set) var parameters: ScryptParameters
    private var database: SQLiteDatabase?
    private var vaultID: [UInt8]
    /// The vault id as it appears in every field's associated data, made once.
    private let aadPrefix: [UInt8]
    private static let fieldSuffixes: [[UInt8]] = fields.map { Array("|\($0)".utf8) }
    private var key: [UInt8]
    private let aead = AEAD()
    /// Decrypted entries, by title; empty once locked.
    public private(set) var entries: [Entry] = []

    /// Idle locking: the TUI calls `touch()` on activity and `lockIfIdle`.
    public var idleTimeout: TimeInterval = 300
    public private(set) var lastActivity = Date()
    public var isLocked: Bool { key.isEmpty }

    private init(path: URL, database: SQLiteDatabase, vaultID: [UInt8], key: [UInt8], parameters: ScryptParameters) {
        self.path = path
        self.database = database
        self.vaultID = vaultID
        self.aadPrefix = Array("bulwark/v1|\(vaultID.hex)|".utf8)
        self.key = key
        self.parameters = parameters
    }

    deinit { close() }

    // MARK: Paths

    /// `--vault`, else `$BULWARK_VAULT`, else `$XDG_DATA_HOME/bulwark/vault.db`,
    /// else `~/.local/share/bulwark/vault.db`.
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let path = environment["BULWARK_VAULT"], !path.isEmpty { return URL(fileURLWithPath: path) }
        if let data = environment["XDG_DATA_HOME"], !data.isEmpty {
            return URL(fileURLWithPath: data).appendingPathComponent("bulwark/vault.db")
        }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return URL(fileURLWithPath: home).appendingPathComponent(".local/share/bulwark/vault.db")
    }

    // MARK: Create and open

    public static func create(at path: URL, masterPassword: String, parameters: ScryptParameters = .standard) throws -> Vault {
        let fm = FileManager.default
        if fm.fileExists(atPath: path.path) { throw VaultError.alreadyExists(path.path) }
        let directory = path.deletingLastPathComponent()
        if !fm.fileExists(atPath: directory.path) {
            do {
                try fm.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch { throw VaultError.storage("cannot create \(directory.path)") }
        }
        // Create the file 0600 before SQLite does, so it never exists with looser modes.
        let fd = Glibc.open(path.path, O_CREAT | O_EXCL | O_WRONLY, 0o600)
        guard fd >= 0 else { throw VaultError.storage("cannot create \(path.path): \(String(cString: strerror(errno)))") }
        Glibc.close(fd)
        do {
            let database = try SQLiteDatabase(path: path.path, create: false)
            try configure(database, path: path)
            let vaultID = SecureRandom.bytes(16)
            let salt = SecureRandom.bytes(16)
            var vaultKey = SecureRandom.bytes(32)
            var kek = try Scrypt.derive(password: Array(masterPassword.utf8), salt: salt, parameters: parameters)
            defer { kek.wipe() }
            let vault = Vault(path: path, database: database, vaultID: vaultID, key: vaultKey, parameters: parameters)
            vaultKey.wipe()
            try database.transaction {
                try Migrations.apply(to: database)
                try vault.writeHeader(kek: kek, salt: salt)
                try vault.writeIndex()
            }
            return vault
        } catch {
            try? fm.removeItem(at: path)
            for suffix in ["-wal", "-shm"] { try? fm.removeItem(atPath: path.path + suffix) }
            if let error = error as? VaultError { throw error }
            throw VaultError.storage("\(error)")
        }
    }

    public static func open(at path: URL, masterPassword: String) throws -> Vault {
        guard FileManager.default.fileExists(atPath: path.path) else { throw VaultError.notFound(path.path) }
        try DatabaseFileLength.check(path)
        let database: SQLiteDatabase
        do {
            database = try SQLiteDatabase(path: path.path, create: false)
            try configure(database, path: path)
        } catch let failure as SQLiteDatabase.Failure {
            throw failure.isDamage ? VaultError.damaged("the database file is unreadable") : VaultError.storage(failure.message)
        }
        do {
            let header = try Header.read(from: database)
            var kek = try Scrypt.derive(password: Array(masterPassword.utf8), salt: header.salt, parameters: header.parameters)
            defer { kek.wipe() }
            let aead = AEAD()
            let key: [UInt8]
            do {
                key = try aead.open(header.wrappedKey, key: kek, associatedData: Header.wrapAAD(header.vaultID, header.parameters))
            } catch { throw VaultError.wrongPassword }
            let vault = Vault(path: path, database: database, vaultID: header.vaultID, key: key, parameters: header.parameters)
            if header.schema == 1 {
                try vault.loadFormat1()
                try vault.convertFromFormat1(kek: kek, salt: header.salt)
            } else {
                try vault.load()
            }
            return vault
        } catch let error as VaultError {
            throw error
        } catch let failure as SQLiteDatabase.Failure {
            throw VaultError.damaged(failure.isDamage ? "the database file is unreadable" : "the vault's tables are not as bulwark wrote them")
        } catch {
            throw VaultError.damaged("\(error)")
        }
    }

    static func configure(_ database: SQLiteDatabase, path: URL) throws {
        try database.execute("PRAGMA journal_mode=WAL; PRAGMA foreign_keys=ON; PRAGMA cell_size_check=ON; PRAGMA secure_delete=ON;")
        // SQLite makes -wal and -shm lazily, following the umask: keep them owner-only.
        for suffix in ["", "-wal", "-shm"] { chmod(path.path + suffix, 0o600) }
    }

    // MARK: Header and index

    struct Header {
        var vaultID: [UInt8]
        var parameters: ScryptParameters
        var salt: [UInt8]
        var wrappedKey: [UInt8]

        static func wrapAAD(_ vaultID: [UInt8], _ p: ScryptParameters) -> [UInt8] {
            Array("bulwark/v1|vault-key|\(vaultID.hex)|scrypt:\(p.logN):\(p.r):\(p.p)".utf8)
        }

        var schema = Vault.schemaVersion

        var kdfText: String { "scrypt:\(parameters.logN):\(parameters.r):\(parameters.p)" }

        /// An unkeyed checksum over the header (schema version included), so
        /// that damage to it reads as damage, not as a wrong password or a
        /// newer format.
        var checksum: [UInt8] { Digest.sha256(Array("schema:\(schema)|".utf8) + vaultID + Array(kdfText.utf8) + salt + wrappedKey) }

        static func read(from database: SQLiteDatabase) throws -> Header {
            var meta: [String: [UInt8]] = [:]
            for row in try database.query("SELECT key, value FROM meta") {
                guard row.count == 2, let k = row[0].text, let v = row[1].blob else { throw VaultError.damaged("the header is malformed") }
                meta[k] = v
            }
            let version = try database.query("PRAGMA user_version").first?.first?.integer ?? 0
            guard let id = meta["vault_id"], let kdf = meta["kdf"], let salt = meta["salt"], let wrapped = meta["wrapped_key"],
                  let checksum = meta["header_sha256"], let schemaText = meta["schema"],
                  let schema = Int(String(decoding: schemaText, as: UTF8.self)) else { throw VaultError.damaged("the header is incomplete") }
            let parts = String(decoding: kdf, as: UTF8.self).split(separator: ":")
            guard parts.count == 4, parts[0] == "scrypt", let n = Int(parts[1]), let r = Int(parts[2]), let p = Int(parts[3]) else {
                throw VaultError.damaged("the key derivation settings are unreadable")
            }
            let header = Header(vaultID: id, parameters: ScryptParameters(logN: n, r: r, p: p), salt: salt, wrappedKey: wrapped, schema: schema)
            guard header.checksum == checksum, header.parameters.isSane else {
                throw VaultError.damaged("the header does not match its checksum")
            }
            if schema > Vault.schemaVersion { throw VaultError.newerFormat(schema) }
            guard version == schema else { throw VaultError.damaged("the schema version does not match the header") }
            return header
        }
    }

    private func writeHeader(kek: [UInt8], salt: [UInt8]) throws {
        let header = Header(vaultID: vaultID, parameters: parameters, salt: salt,
                            wrappedKey: aead.seal(key, key: kek, associatedData: Header.wrapAAD(vaultID, parameters)))
        let rows: [(String, [UInt8])] = [("schema", Array(String(header.schema).utf8)), ("vault_id", vaultID), ("kdf", Array(header.kdfText.utf8)), ("salt", salt),
                                         ("wrapped_key", header.wrappedKey), ("header_sha256", header.checksum)]
        for (name, value) in rows {
            try db().query("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", [.text(name), .blob(value)])
        }
    }

    // MARK: Notes

    /// A small value kept sealed in the vault beside the entries (bulwark
    /// keeps which breaches the person has already been told about).
    /// Nil when absent or unreadable.
    public func note(_ name: String) -> String? {
        noteBytes(name).map { String(decoding: $0, as: UTF8.self) }
    }

    public func setNote(_ name: String, _ value: String) throws {
        touch()
        try setNoteBytes(name, Array(value.utf8))
    }

    /// The same for bytes (the strength memo is binary).
    public func noteBytes(_ name: String) -> [UInt8]? {
        guard let row = try? db().query("SELECT value FROM meta WHERE key = ?", [.text("note:" + name)]).first,
              let box = row[0].blob, let plain = try? aead.open(box, key: key, associatedData: aad("note", row: name)) else { return nil }
        return plain
    }

    /// Writing a note is not the person's activity: unlike `setNote`, it
    /// does not postpone the idle lock.
    public func setNoteBytes(_ name: String, _ value: [UInt8]) throws {
        let sealed = aead.seal(value, key: key, associatedData: aad("note", row: name))
        try db().query("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", [.text("note:" + name), .blob(sealed)])
    }

    private func indexDigest(_ ids: [String]) -> [UInt8] { Vault.digest(ofIDs: ids) }

    static func digest(ofIDs ids: [String]) -> [UInt8] {
        Digest.sha256(Array(ids.sorted().joined(separator: "\n").utf8) + Array("|\(ids.count)".utf8))
    }

    private func writeIndex() throws {
        let sealed = aead.seal(indexDigest(entries.map(\.id)), key: key, associatedData: aad("index", row: ""))
        try db().query("INSERT OR REPLACE INTO meta(key, value) VALUES ('index', ?)", [.blob(sealed)])
    }

    // MARK: Reading

    /// `bulwark/v1|VAULT-ID|ROW|FIELD`, as bytes.
    private func aad(_ field: String, row: String) -> [UInt8] {
        aadPrefix + Array(row.utf8) + Array("|\(field)".utf8)
    }

    private func openField(_ value: SQLiteDatabase.Value, fieldIndex: Int, rowPrefix: [UInt8], row: String) throws -> [UInt8] {
        guard let box = value.blob else { throw VaultError.damaged("entry \(row) has a missing field") }
        do { return try aead.open(box, key: key, associatedData: rowPrefix + Vault.fieldSuffixes[fieldIndex]) } catch {
            throw VaultError.damaged("entry \(row) does not decrypt (its \(Vault.fields[fieldIndex]) was altered)")
        }
    }

    /// Reads every entry: one box per row. Rows come off SQLite's cursor in
    /// chunks; each chunk is opened and decoded on every core (an AEAD
    /// context per slice), and its ciphertexts are dropped before the next
    /// chunk is read, so memory stays near one copy of the entries.
    private func load() throws {
        var loaded: [Entry] = []
        loaded.reserveCapacity(entries.count)
        var pending: [(id: String, box: [UInt8])] = []
        let key = key, prefix = aadPrefix
        func flush() throws {
            let slices = stride(from: 0, to: pending.count, by: 512).map { Array(pending[$0..<min($0 + 512, pending.count)]) }
            for opened in try Concurrently.map(slices, chunk: 1, { slice in try Vault.open(slice, key: key, aadPrefix: prefix) }) {
                loaded.append(contentsOf: opened)
            }
            pending.removeAll(keepingCapacity: true)
        }
        try db().each("SELECT id, sealed FROM entries") { row in
            guard row.count == 2, let id = row[0].text, let box = row[1].blob else { throw VaultError.damaged("an entry row is malformed") }
            pending.append((id, box))
            if pending.count == 8192 { try flush() }
        }
        try flush()
        // The index check and the title order are independent: one core each.
        let ids = loaded.map(\.id)
        let order: [Int]
        do {
            let done = loaded  // released at the end of this block, so the permutation below moves in place
            let results = try Concurrently.map([0, 1], chunk: 1) { task -> (digest: [UInt8]?, order: [Int]?) in
                task == 0 ? (Vault.digest(ofIDs: ids), nil) : (nil, Vault.titleOrder(done))
            }
            try checkIndex(digest: results[0].digest!)
            order = results[1].order!
        }
        Vault.permute(&loaded, by: order)
        entries = loaded
    }

    /// Opens and decodes rows with an AEAD context of their own.
    static func open(_ rows: [(id: String, box: [UInt8])], key: [UInt8], aadPrefix: [UInt8]) throws -> [Entry] {
        let aead = AEAD()
        var associatedData: [UInt8] = []
        return try rows.map { row in
            associatedData.removeAll(keepingCapacity: true)
            associatedData += aadPrefix
            associatedData += row.id.utf8
            associatedData += entrySuffix
            let plain: [UInt8]
            do { plain = try aead.open(row.box, key: key, associatedData: associatedData) } catch {
                throw VaultError.damaged("entry \(row.id) does not decrypt (it was altered)")
            }
            guard let parts = FieldCoding.decode(parts: plain), parts.count == fields.count,
                  let entry = decode(id: row.id, parts) else { throw VaultError.damaged("entry \(row.id) is malformed") }
            return entry
        }
    }

    /// Format 1: nine boxes per row, one per field.
    private func loadFormat1() throws {
        var loaded: [Entry] = []
        try db().each("SELECT id, \(Vault.fields.joined(separator: ", ")) FROM entries") { row in
            guard row.count == Vault.fields.count + 1, let id = row[0].text else { throw VaultError.damaged("an entry row is malformed") }
            let rowPrefix = aadPrefix + Array(id.utf8)
            var values: [ArraySlice<UInt8>] = []
            values.reserveCapacity(Vault.fields.count)
            for index in Vault.fields.indices { values.append(try openField(row[index + 1], fieldIndex: index, rowPrefix: rowPrefix, row: id)[...]) }
            guard let entry = Vault.decode(id: id, values) else { throw VaultError.damaged("entry \(id) is malformed") }
            loaded.append(entry)
        }
        try checkIndex(loaded)
        entries = Vault.sorted(loaded)
    }

    /// Rewrites a format-1 vault as format 2 in one transaction: all of it, or none.
    private func convertFromFormat1(kek: [UInt8], salt: [UInt8]) throws {
        try db().transaction {
            try db().execute(Migrations.steps[2]!)
            for entry in entries { try writeRow(entry) }
            try db().execute("PRAGMA user_version = 2")
            try writeHeader(kek: kek, salt: salt)
            try writeIndex()
        }
    }

    private func checkIndex(_ loaded: [Entry]) throws {
        try checkIndex(digest: Vault.digest(ofIDs: loaded.map(\.id)))
    }

    private func checkIndex(digest: [UInt8]) throws {
        guard let sealedIndex = try db().query("SELECT value FROM meta WHERE key = 'index'").first?.first?.blob,
              let stored = try? aead.open(sealedIndex, key: key, associatedData: aad("index", row: "")),
              stored == digest else {
            throw VaultError.damaged("the list of entries does not match its sealed index")
        }
    }

    /// By title without regard to case, then by id. The keys are made once:
    /// a locale-aware comparison per pair costs seconds for 100k entries.
    static func sorted(_ entries: [Entry]) -> [Entry] {
        var sorted = entries
        permute(&sorted, by: titleOrder(entries))
        return sorted
    }

    /// Positions in title order: small indices are sorted, not whole entries.
    static func titleOrder(_ entries: [Entry]) -> [Int] {
        let keys = entries.map { $0.title.lowercased() }
        return entries.indices.sorted { (a: Int, b: Int) -> Bool in
            keys[a] == keys[b] ? entries[a].id < entries[b].id : keys[a] < keys[b]
        }
    }

    /// Puts the entry at `order[k]` at position k, by swapping along each
    /// cycle of the permutation: entries are moved, never copied (copying
    /// 100k entries' strings was a fifth of loading them).
    static func permute(_ entries: inout [Entry], by order: [Int]) {
        var placed = [Bool](repeating: false, count: order.count)
        for start in order.indices where !placed[start] {
            var position = start
            while true {
                placed[position] = true
                let source = order[position]
                if source == start { break }
                entries.swapAt(position, source)
                position = source
            }
        }
    }

    /// Positions in `Vault.fields`, the order rows are read and written in.
    enum Field: Int, CaseIterable { case title, username, password, urls, notes, totp, tags, history, details }

    static func decode(id: String, _ v: [ArraySlice<UInt8>]) -> Entry? {
        func field(_ f: Field) -> ArraySlice<UInt8> { v[f.rawValue] }
        guard v.count == fields.count,
              let urls = FieldCoding.decode(field(.urls)), let tags = FieldCoding.decode(field(.tags)),
              let historyParts = FieldCoding.decode(field(.history)), historyParts.count % 3 == 0,
              let details = FieldCoding.decode(field(.details)), details.count == 11 || details.count == 14,
              case .some(let password) = FieldCoding.decodeOptional(field(.password)),
              case .some(let totp) = FieldCoding.decodeOptional(field(.totp)),
              let category = AccountCategory(rawValue: details[0]),
              let created = FieldCoding.date(details[2]), let modified = FieldCoding.date(details[3]),
              let changed = FieldCoding.date(details[4]) else { return nil }
        var history: [PasswordHistoryItem] = []
        for i in stride(from: 0, to: historyParts.count, by: 3) {
            guard let date = FieldCoding.date(historyParts[i + 1]) else { return nil }
            history.append(PasswordHistoryItem(password: historyParts[i], changedAt: date, reason: historyParts[i + 2]))
        }
        var entry = Entry(id: id, title: String(decoding: field(.title), as: UTF8.self), urls: urls,
                          username: String(decoding: field(.username), as: UTF8.self), password: password,
                          notes: String(decoding: field(.notes), as: UTF8.self), totpURI: totp, tags: tags, category: category,
                          created: created, history: history)
        entry.categoryIsManual = details[1] == "1"
        entry.modified = modified
        entry.passwordChanged = changed
        entry.hiddenFromRecommendations = details[5] == "1"
        entry.hiddenUntil = details[6].isEmpty ? nil : FieldCoding.date(details[6])
        if !details[7].isEmpty {
            guard let state = SignInWithAppleLink.CredentialState(rawValue: details[10]) else { return nil }
            entry.signInWithApple = SignInWithAppleLink(user: details[7], email: details[8], isPrivateRelay: details[9] == "1", state: state)
        }
        if details.count == 14, !details[11].isEmpty {
            guard let kind = PendingChange.Kind(rawValue: details[11]), let started = FieldCoding.date(details[13]) else { return nil }
            entry.pendingChange = PendingChange(kind: kind, newPassword: kind == .strongPassword ? details[12] : nil, startedAt: started)
        }
        return entry
    }

    /// The plaintext of each field, in `Vault.fields` order.
    static func encode(_ e: Entry) -> [[UInt8]] {
        let link = e.signInWithApple
        let details = [e.category.rawValue, e.categoryIsManual ? "1" : "0", FieldCoding.date(e.created), FieldCoding.date(e.modified),
                       FieldCoding.date(e.passwordChanged), e.hiddenFromRecommendations ? "1" : "0",
                       e.hiddenUntil.map(FieldCoding.date) ?? "", link?.user ?? "", link?.email ?? "",
                       link?.isPrivateRelay == true ? "1" : "0", link?.state.rawValue ?? ""]
            + (e.pendingChange.map { [$0.kind.rawValue, $0.newPassword ?? "", FieldCoding.date($0.startedAt)] } ?? [])
        return [
            Array(e.title.utf8), Array(e.username.utf8), FieldCoding.encodeOptional(e.password),
            FieldCoding.encode(e.urls), Array(e.notes.utf8), FieldCoding.encodeOptional(e.totpURI),
            FieldCoding.encode(e.tags),
            FieldCoding.encode(e.history.flatMap { [$0.password, FieldCoding.date($0.changedAt), $0.reason] }),
            FieldCoding.encode(details),
        ]
    }

    // MARK: Writing

    private func db() throws -> SQLiteDatabase {
        guard let database, !isLocked else { throw VaultError.locked }
        return database
    }

    private func writeRow(_ entry: Entry) throws {
        let sealed = aead.seal(FieldCoding.encode(parts: Vault.encode(entry)), key: key,
                               associatedData: aadPrefix + Array(entry.id.utf8) + Vault.entrySuffix)
        try db().query("INSERT OR REPLACE INTO entries(id, sealed) VALUES (?, ?)", [.text(entry.id), .blob(sealed)])
    }

    private static let entrySuffix = Array("|entry".utf8)

    /// Adds or replaces entries in one transaction (import uses this for thousands at once).
    public func save(_ changed: [Entry]) throws {
        touch()
        if changed.count <= 8, Set(changed.map(\.id)).count == changed.count,
           case let positions = changed.map({ entry in entries.firstIndex { $0.id == entry.id } }),
           positions.allSatisfy({ $0 != nil }) {
            try replaceInPlace(changed, at: positions.map { $0! })
            return
        }
        var updated = entries
        var position = Dictionary(updated.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { a, _ in a })
        for entry in changed {
            if let index = position[entry.id] { updated[index] = entry } else {
                position[entry.id] = updated.count
                updated.append(entry)
            }
        }
        try write(keeping: updated) {
            for entry in changed { try writeRow(entry) }
        }
    }

    /// An edit of entries already in the vault (the app's every save): the
    /// list of ids is the same, so the sealed index stands, and the entries
    /// change in place, re-sorted only if a title changed. At 100k entries a
    /// save took half a second of copying, sorting and hashing ids before.
    private func replaceInPlace(_ changed: [Entry], at positions: [Int]) throws {
        let retitled = zip(positions, changed).contains { entries[$0].title != $1.title }
        do {
            try db().transaction {
                for entry in changed { try writeRow(entry) }
            }
        } catch {
            if let error = error as? VaultError { throw error }
            throw VaultError.storage("\(error)")
        }
        for (entry, position) in zip(changed, positions) { entries[position] = entry }
        if retitled { Vault.permute(&entries, by: Vault.titleOrder(entries)) }
    }

    public func save(_ entry: Entry) throws { try save([entry]) }

    public func remove(id: String) throws {
        touch()
        guard entries.contains(where: { $0.id == id }) else { throw VaultError.entryNotFound(id) }
        try write(keeping: entries.filter { $0.id != id }) {
            try db().query("DELETE FROM entries WHERE id = ?", [.text(id)])
        }
    }

    /// Runs the row writes and the new index in one transaction; memory
    /// follows only when the file did.
    private func write(keeping updated: [Entry], _ rows: () throws -> Void) throws {
        let previous = entries
        do {
            try db().transaction {
                try rows()
                entries = updated
                try writeIndex()
            }
            entries = Vault.sorted(entries)
        } catch {
            entries = previous
            if let error = error as? VaultError { throw error }
            throw VaultError.storage("\(error)")
        }
    }

    /// Re-wraps the vault key under a new master password (new salt, and
    /// new parameters if given) in one transaction: the old password works
    /// until the instant the new one does.
    public func changeMasterPassword(to newPassword: String, parameters newParameters: ScryptParameters? = nil) throws {
        touch()
        let salt = SecureRandom.bytes(16)
        let target = newParameters ?? parameters
        var kek = try Scrypt.derive(password: Array(newPassword.utf8), salt: salt, parameters: target)
        defer { kek.wipe() }
        let old = parameters
        parameters = target
        do {
            try db().transaction { try writeHeader(kek: kek, salt: salt) }
        } catch {
            parameters = old
            throw VaultError.storage("\(error)")
        }
    }

    // MARK: Lock

    public func touch(now: Date = Date()) { lastActivity = now }

    /// Locks when nothing happened for `idleTimeout`; returns whether it locked.
    @discardableResult
    public func lockIfIdle(now: Date = Date()) -> Bool {
        guard !isLocked, now.timeIntervalSince(lastActivity) >= idleTimeout else { return false }
        lock()
        return true
    }

    /// Drops the key and every decrypted entry. The key bytes are
    /// overwritten; Swift strings cannot be, so they are only released.
    public func lock() {
        key.wipe()
        entries = []
    }

    public func close() {
        lock()
        database?.close()
        database = nil
    }

    // MARK: Finding entries

    /// An entry by id, or by a title that matches exactly one entry (case-insensitive).
    public func find(_ name: String) throws -> Entry {
        if let byID = entries.first(where: { $0.id == name }) { return byID }
        let matches = entries.filter { $0.title.caseInsensitiveCompare(name) == .orderedSame }
        if matches.count == 1 { return matches[0] }
        if matches.isEmpty { throw VaultError.entryNotFound(name) }
        throw VaultError.ambiguousEntry(name, matches.map(\.id))
    }
}
