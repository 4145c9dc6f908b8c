import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// An encrypted vault: one SQLite file (WAL, foreign keys on, a schema
/// version) that several processes may use at once. Each entry's fields are
/// sealed together in one AES-256-GCM box under a random 256-bit vault key,
/// with associated data naming the vault, the row and the row's version, so
/// a ciphertext moved to another row, or an older copy of the row, fails to
/// open or fails the index. The vault key is wrapped by a key derived from
/// the master password with scrypt; the parameters and salt are stored in
/// the file. A sealed index holds a vault-wide change counter and a digest
/// of every (id, version) pair, so rows that disappear, appear or go back
/// in time are damage. Formats 1 and 2 are converted on the first open.
///
/// Every write reads the file's current state inside its own transaction
/// and writes the index from what the file then holds (see
/// `Vault+Writing.swift`); this object's `entries` follow the file after
/// every read and write, other processes' changes included.
public final class Vault {
    /// 4: the same tables as 3; entry boxes may hold the parts formats 3
    /// grew without a bump (kinds and custom fields, the relay's
    /// forwarding flag, passkeys, a staged passkey), so that an older
    /// bulwark says "written by a newer bulwark" instead of "damaged".
    /// 5: the `blobs` table, attachments' chunks (an older bulwark that
    /// rewrote an entry would drop the files it holds).
    public static let schemaVersion = 5

    /// Wall seconds the last `open` spent deriving the key and reading the
    /// rest (decrypting and checking every entry), for `analyze --timings`.
    public internal(set) var openTimings: (keyDerivation: Double, load: Double) = (0, 0)

    public let path: URL
    public internal(set) var parameters: ScryptParameters
    var database: SQLiteDatabase?
    let vaultID: [UInt8]
    /// This file's line of copies, when it is not the vault's first: a sync
    /// clone is the same vault (id and key) in a file with counters of its
    /// own, so this machine remembers its counter apart (`freshnessID`).
    /// A copy or backup of a file carries its replica id with it.
    var replica: [UInt8]?
    var freshnessID: [UInt8] { vaultID + (replica ?? []) }
    /// The vault id as it appears in every box's associated data, made once.
    let aadPrefix: [UInt8]
    var key: [UInt8]
    let aead = AEAD()
    /// The header's wrapped key as this object last saw it: when it differs
    /// in the file, another process changed the master password.
    var wrappedKey: [UInt8]
    /// Decrypted entries, by title; empty once locked.
    public internal(set) var entries: [Entry] = []
    /// Each entry by id (the same storage as `entries`) with its row's
    /// version, kept with `entries` by every read and write (see `place`):
    /// finding an entry by id was a walk through every entry, several of
    /// them for each change in the app. Sharded: the app's snapshot shares
    /// it rather than keeping maps of its own.
    public internal(set) var rows = VaultRows() {
        // Any change of the rows but `place`'s own (which keeps it) drops the index of user names.
        didSet { userNames = nil }
    }
    /// The entries' ids by user name key, once asked for (`UserNameIndex`).
    var userNames: UserNameIndex?
    /// Each entry's row version, as last read from the file.
    public var versions: RowVersions { rows.versions }
    /// The index's change counter, as last read from the file.
    public internal(set) var counter: Int64 = 0
    /// The file's (id, version) listing and sealed index as last read: a
    /// scan that finds both unchanged needs nothing decrypted.
    var listing = Listing()
    var indexBlob: [UInt8] = []
    /// SQLite's data version when this object last read the file.
    var lastDataVersion: Int64?
    /// Other processes' changes that reads and writes brought in and no
    /// one has taken yet (see `takeExternalChanges`).
    var unconsumed = VaultChanges()

    /// The largest attachment, and the most all of them may hold together.
    public var attachmentLimits = AttachmentLimits.standard

    /// Backups taken before writes that change entries.
    public var backupPolicy = BackupPolicy.standard
    /// The backup the next change will want, made ahead while the app was idle.
    var readyBackup: ReadyBackup?
    /// For the app: a backup due before a change is copied in the
    /// background once the change is committed, of the file as it was
    /// before (`BackupAfterCommit`), rather than before the change.
    public var backupsAfterCommit = false
    /// That copy, while it is made and until the next change looks at it.
    var backupUnderWay: BackupAfterCommit?
    /// Why the last backup due was not taken; nil when it was (or none was due).
    public internal(set) var backupFailure: String?
    /// Where this machine remembers the highest counter it has seen.
    public let freshness: FreshnessRecord?
    /// Set when the vault opened older than this machine last saw it.
    public internal(set) var rollback: Rollback?

    /// Idle locking for a holder that keeps a vault open without keys to
    /// count (every write calls `touch()`; such a holder asks `lockIfIdle`).
    /// The app does not use it: it locks on its own count of idle keys
    /// (`AppState.lockAfter`), which also ends what is on screen.
    public var idleTimeout: TimeInterval = 300
    public private(set) var lastActivity = Date()
    public var isLocked: Bool { key.isEmpty }

    init(path: URL, database: SQLiteDatabase, vaultID: [UInt8], key: [UInt8], wrappedKey: [UInt8], parameters: ScryptParameters,
         freshness: FreshnessRecord?) {
        self.path = path
        self.database = database
        self.vaultID = vaultID
        self.aadPrefix = Array("bulwark/v1|\(vaultID.hex)|".utf8)
        self.key = key
        self.wrappedKey = wrappedKey
        self.parameters = parameters
        self.freshness = freshness
        lockInMemory()
    }

    /// Best effort: the key's bytes kept out of swap (mlock). Swift may
    /// still copy them (every AEAD call receives the array), so this
    /// protects the vault's own copy, not every copy.
    func lockInMemory() {
        key.withUnsafeBytes { bytes in if let base = bytes.baseAddress { _ = mlock(base, bytes.count) } }
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

    public var backups: VaultBackups { VaultBackups(vaultPath: path) }

    // MARK: Create and open

    public static func create(at path: URL, masterPassword: String, parameters: ScryptParameters = .standard,
                              freshness: FreshnessRecord? = nil) throws -> Vault {
        try create(at: path, masterPassword: masterPassword, parameters: parameters, freshness: freshness, identity: nil)
    }

    /// `identity`: the vault id and key of a vault this one joins (a sync
    /// clone: the same vault on another machine); else new random ones.
    static func create(at path: URL, masterPassword: String, parameters: ScryptParameters, freshness: FreshnessRecord?,
                       identity: (vaultID: [UInt8], key: [UInt8])?) throws -> Vault {
        let fm = FileManager.default
        if fm.fileExists(atPath: path.path) { throw VaultError.alreadyExists(path.path) }
        let directory = path.deletingLastPathComponent()
        if !fm.fileExists(atPath: directory.path) {
            do {
                try fm.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch { throw VaultError.storage("cannot create \(directory.path)") }
        }
        // Create the file 0600 before SQLite does, so it never exists with looser modes.
        let fd = Glibc.open(path.path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw VaultError.storage("cannot create \(path.path): \(String(cString: strerror(errno)))") }
        Glibc.close(fd)
        do {
            let database = try SQLiteDatabase(path: path.path, create: false)
            try configure(database, path: path)
            let vaultID = identity?.vaultID ?? SecureRandom.bytes(16)
            let salt = SecureRandom.bytes(16)
            var vaultKey = identity?.key ?? SecureRandom.bytes(32)
            var kek = try Scrypt.derive(password: Array(masterPassword.utf8), salt: salt, parameters: parameters)
            defer { kek.wipe() }
            let vault = Vault(path: path, database: database, vaultID: vaultID, key: vaultKey, wrappedKey: [], parameters: parameters,
                              freshness: freshness)
            vaultKey.wipe()
            try database.transaction {
                try Migrations.apply(to: database)
                try vault.writeHeader(kek: kek, salt: salt)
                if identity != nil {
                    let replica = SecureRandom.bytes(16)
                    try database.query("INSERT INTO meta(key, value) VALUES ('replica', ?)", [.blob(replica)])
                    vault.replica = replica
                }
                vault.counter = 1
                try vault.writeIndex(listing: Listing(), counter: 1)
            }
            vault.rememberCounter()
            return vault
        } catch {
            try? fm.removeItem(at: path)
            for suffix in ["-wal", "-shm"] { try? fm.removeItem(atPath: path.path + suffix) }
            if let error = error as? VaultError { throw error }
            throw VaultError.storage("\(error)")
        }
    }

    /// Opens and reads the whole vault in one read transaction (header,
    /// rows and index as one committed state). `freshness`, when given, is
    /// asked whether this machine saw the vault newer than it is now.
    public static func open(at path: URL, masterPassword: String, freshness: FreshnessRecord? = nil) throws -> Vault {
        try open(at: path, with: .masterPassword(masterPassword), freshness: freshness)
    }

    /// Opens with the master password, or with a key `bulwark agent` holds
    /// (no KDF); a held key whose vault was re-keyed since (`passwd`) is
    /// refused with `keyChanged`, as is one for a vault that needs converting.
    public static func open(at path: URL, with credential: VaultCredential, freshness: FreshnessRecord? = nil) throws -> Vault {
        let started = DispatchTime.now().uptimeNanoseconds
        var derived: UInt64 = 0
        guard FileManager.default.fileExists(atPath: path.path) else { throw VaultError.notFound(path.path) }
        try DatabaseFileLength.checkSettled(path)
        let database: SQLiteDatabase
        do {
            database = try SQLiteDatabase(path: path.path, create: false)
            try configure(database, path: path)
        } catch let failure as SQLiteDatabase.Failure {
            throw VaultError(failure, whileReading: "the database file is unreadable")
        }
        do {
            let (vault, kek, salt, schema) = try database.readTransaction { () -> (Vault, [UInt8]?, [UInt8], Int) in
                let header = try Header.read(from: database)
                var kek: [UInt8]?
                let key: [UInt8]
                switch credential {
                case .masterPassword(let masterPassword):
                    let kdfStart = DispatchTime.now().uptimeNanoseconds
                    var derivedKey = try Scrypt.derive(password: Array(masterPassword.utf8), salt: header.salt, parameters: header.parameters)
                    derived = DispatchTime.now().uptimeNanoseconds - kdfStart
                    do {
                        key = try AEAD().open(header.wrappedKey, key: derivedKey, associatedData: Header.wrapAAD(header.vaultID, header.parameters))
                    } catch {
                        derivedKey.wipe()
                        throw VaultError.wrongPassword
                    }
                    kek = derivedKey
                case .heldKey(let held):
                    guard held.vaultID == header.vaultID, held.wrappedKey == header.wrappedKey, header.schema >= schemaVersion else { throw VaultError.keyChanged }
                    key = held.key
                }
                let vault = Vault(path: path, database: database, vaultID: header.vaultID, key: key, wrappedKey: header.wrappedKey,
                                  parameters: header.parameters, freshness: freshness)
                vault.replica = try Vault.replica(in: database)
                switch header.schema {
                case 1: try vault.loadFormat1()
                case 2: try vault.loadFormat2()
                default: try vault.load()
                }
                // Read in the same transaction as the rows: the first write then knows
                // whether another connection committed since, without reading every row's version again.
                vault.lastDataVersion = try database.dataVersion()
                return (vault, kek, header.salt, header.schema)
            }
            var wrappingKey = kek ?? []
            defer { wrappingKey.wipe() }
            if schema < schemaVersion { try vault.convert(from: schema, kek: wrappingKey, salt: salt) }
            vault.checkFreshness()
            let total = DispatchTime.now().uptimeNanoseconds - started
            vault.openTimings = (Double(derived) / 1e9, Double(total - derived) / 1e9)
            return vault
        } catch let error as VaultError {
            throw error
        } catch let failure as SQLiteDatabase.Failure {
            throw VaultError(failure, whileReading: "the vault's tables are not as bulwark wrote them")
        } catch {
            throw VaultError.damaged("\(error)")
        }
    }

    static func replica(in database: SQLiteDatabase) throws -> [UInt8]? {
        try database.query("SELECT value FROM meta WHERE key = 'replica'").first?.first?.blob
    }

    static func configure(_ database: SQLiteDatabase, path: URL) throws {
        try database.execute("PRAGMA journal_mode=WAL; PRAGMA foreign_keys=ON; PRAGMA cell_size_check=ON; PRAGMA secure_delete=ON;")
        // SQLite makes -wal and -shm lazily, following the umask: keep them owner-only.
        for suffix in ["", "-wal", "-shm"] { chmod(path.path + suffix, 0o600) }
    }

    func db() throws -> SQLiteDatabase {
        guard let database, !isLocked else { throw VaultError.locked }
        return database
    }

    // MARK: Freshness

    /// An older vault than this machine last saw: restored from a copy, or
    /// rolled back (a damaged `-wal` silently drops its committed changes).
    public struct Rollback: Sendable, Equatable, CustomStringConvertible {
        public let found: Int64
        public let seen: Int64
        public var description: String {
            "this vault is older than the one this machine last saw (change \(found), last seen \(seen)): restored from a backup, or rolled back? Changes made after it may be lost; 'bulwark check' tells more."
        }
    }

    /// Compares the counter with the highest this machine recorded. A
    /// writer records only after it commits, so a record above what this
    /// open read may just be a write that landed meanwhile: the file's
    /// counter is read again before anything is called a rollback.
    func checkFreshness() {
        guard let freshness, let seen = freshness.highestSeen(vaultID: freshnessID, key: key) else {
            rememberCounter()
            return
        }
        guard seen > counter else { return rememberCounter() }
        let now = (try? db().readTransaction { try openIndex(readIndexBlob()).counter }) ?? counter
        if seen > now { rollback = Rollback(found: now, seen: seen) }
    }

    func rememberCounter(_ value: Int64? = nil) {
        freshness?.record(value ?? counter, vaultID: freshnessID, key: key)
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
        discardReadyBackup()
        key.wipe()
        entries = []
        rows = VaultRows()
        listing = Listing()
    }

    public func close() {
        backupUnderWay?.wait()
        lock()
        database?.close()
        database = nil
    }

    /// For the app's connection: its changes' log is folded into the file
    /// when the app is idle (`foldLog`), not by whichever change fills it.
    /// SQLite's automatic checkpoint copies up to a thousand pages and syncs
    /// the file inside that change's write: at 100,000 entries, one or two
    /// changes in a hundred took 90 to 230 ms between the key and the frame.
    /// The log is durable either way; closing folds what is left.
    public func foldLogWhenIdle() throws {
        try database?.execute("PRAGMA wal_autocheckpoint=0")
    }

    /// Folds the log into the file as far as no reader holds it back (a
    /// passive checkpoint: it never waits for another connection).
    public func foldLog() throws {
        try database?.execute("PRAGMA wal_checkpoint(PASSIVE)")
    }

    // MARK: Finding entries

    public func version(of id: String) -> Int64? { rows.version(of: id) }

    /// An entry by id, or by a title that matches exactly one entry (case-insensitive).
    public func find(_ name: String) throws -> Entry {
        if let byID = entry(id: name) { return byID }
        let matches = entries.filter { $0.title.caseInsensitiveCompare(name) == .orderedSame }
        if matches.count == 1 { return matches[0] }
        if matches.isEmpty { throw VaultError.entryNotFound(name) }
        throw VaultError.ambiguousEntry(name, matches.map(\.id))
    }
}
