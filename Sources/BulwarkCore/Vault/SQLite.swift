import CSQLite
import Foundation

/// A thin wrapper over sqlite3 (public for the mock service backends, which
/// keep their own files and may not import sqlite themselves): statements with positional binds, rows as
/// values, and every failure as an error (never a crash on a damaged file).
public final class SQLiteDatabase {
    public struct Failure: Error, CustomStringConvertible {
        public let code: Int32
        public let message: String
        public var description: String { message }
        /// Whether the file itself is at fault. Only failures of the
        /// surroundings (permissions, locks, I/O, a full disk) are not; a
        /// corrupt page, "not a database" or an unsupported format are.
        /// Another connection held the lock for longer than the busy timeout.
        public var isBusy: Bool { [SQLITE_BUSY, SQLITE_LOCKED].contains(code & 0xFF) }

        var isDamage: Bool {
            let environmental = [SQLITE_CANTOPEN, SQLITE_PERM, SQLITE_READONLY, SQLITE_BUSY, SQLITE_LOCKED,
                                 SQLITE_IOERR, SQLITE_FULL, SQLITE_NOMEM, SQLITE_AUTH]
            return !environmental.contains(code & 0xFF)
        }
    }

    public enum Value: Equatable, Sendable {
        case null, integer(Int64), real(Double), text(String), blob([UInt8])
    }

    private var handle: OpaquePointer?
    /// Prepared statements by their SQL, reset after each use: preparing
    /// one per row was most of the cost of writing thousands of rows.
    private var prepared: [String: OpaquePointer] = [:]
    private var inUse: Set<String> = []

    /// `SQLITE_TRANSIENT` does not import: it is the destructor value -1.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    /// How long a statement waits for another connection's lock before it
    /// fails as busy: long enough that a person never notices a wait behind
    /// another bulwark's write, short enough to say so rather than hang.
    public static let busyTimeoutMilliseconds: Int32 = 5_000

    public init(path: String, create: Bool, readOnly: Bool = false) throws {
        let flags = (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE) | (create ? SQLITE_OPEN_CREATE : 0) | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &handle, flags, nil)
        guard code == SQLITE_OK else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close_v2(handle)
            handle = nil
            throw Failure(code: code, message: message)
        }
        sqlite3_extended_result_codes(handle, 1)
        // SQLite's own handler sleeps and retries until the timeout.
        sqlite3_busy_timeout(handle, Self.busyTimeoutMilliseconds)
        // Defensive mode: SQL cannot corrupt the file on purpose (writable_schema and friends).
        _ = bw_sqlite_set_defensive(handle)
        // Up to 16 MiB of page cache (SQLite's default is 2 MiB): writing
        // thousands of rows into a vault of 100,000 otherwise rereads pages.
        sqlite3_exec(handle, "PRAGMA cache_size = -16384", nil, nil, nil)
    }

    deinit { close() }

    /// Gives back the page cache's memory (its pages are read again from the
    /// system's cache when next needed): after reading every row, the cache
    /// holds 16 MiB of pages that the next small write mostly does not need.
    public func releaseCache() {
        guard let handle else { return }
        sqlite3_db_release_memory(handle)
    }

    public func close() {
        guard let handle else { return }
        for statement in prepared.values { sqlite3_finalize(statement) }
        prepared = [:]
        sqlite3_close_v2(handle)
        self.handle = nil
    }

    public func execute(_ sql: String) throws {
        var error: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &error)
        if code != SQLITE_OK {
            let message = error.map { String(cString: $0) } ?? "error \(code)"
            sqlite3_free(error)
            throw Failure(code: code, message: message)
        }
    }

    /// Runs a statement, returning every row.
    @discardableResult
    public func query(_ sql: String, _ bindings: [Value] = []) throws -> [[Value]] {
        var rows: [[Value]] = []
        try each(sql, bindings) { rows.append($0) }
        return rows
    }

    /// Runs a statement, handing each row to `body` without collecting them.
    func each(_ sql: String, _ bindings: [Value] = [], _ body: ([Value]) throws -> Void) throws {
        try step(sql, bindings) { statement in
            let columns = sqlite3_column_count(statement)
            var row: [Value] = []
            row.reserveCapacity(Int(columns))
            for column in 0..<columns {
                switch sqlite3_column_type(statement, column) {
                case SQLITE_INTEGER: row.append(.integer(sqlite3_column_int64(statement, column)))
                case SQLITE_FLOAT: row.append(.real(sqlite3_column_double(statement, column)))
                case SQLITE_TEXT: row.append(.text(String(cString: sqlite3_column_text(statement, column))))
                case SQLITE_BLOB:
                    let count = Int(sqlite3_column_bytes(statement, column))
                    if count == 0 { row.append(.blob([])) } else {
                        let pointer = sqlite3_column_blob(statement, column)!.assumingMemoryBound(to: UInt8.self)
                        row.append(.blob(Array(UnsafeBufferPointer(start: pointer, count: count))))
                    }
                default: row.append(.null)
                }
            }
            try body(row)
        }
    }

    /// Runs a statement over raw columns: `body` gets each row's column as
    /// bytes (text or blob) or as an integer, without building values, for
    /// scans of every row that must stay cheap at 100k rows.
    func eachRaw(_ sql: String, _ body: (RawRow) throws -> Void) throws {
        try step(sql, []) { try body(RawRow(statement: $0)) }
    }

    struct RawRow {
        let statement: OpaquePointer
        func integer(_ column: Int32) -> Int64? {
            sqlite3_column_type(statement, column) == SQLITE_INTEGER ? sqlite3_column_int64(statement, column) : nil
        }
        /// Valid only inside the row's callback.
        func bytes(_ column: Int32) -> UnsafeRawBufferPointer? {
            let type = sqlite3_column_type(statement, column)
            guard type == SQLITE_TEXT || type == SQLITE_BLOB else { return nil }
            let pointer = type == SQLITE_TEXT ? UnsafeRawPointer(sqlite3_column_text(statement, column)) : sqlite3_column_blob(statement, column)
            let count = Int(sqlite3_column_bytes(statement, column))
            return UnsafeRawBufferPointer(start: count == 0 ? nil : pointer, count: count)
        }
    }

    /// Prepares, binds and steps a statement, handing each row's statement to `row`.
    private func step(_ sql: String, _ bindings: [Value], _ row: (OpaquePointer) throws -> Void) throws {
        var code = SQLITE_OK
        let statement: OpaquePointer
        // A statement already stepping (a query run from inside another's
        // rows) gets a fresh one of its own, finalized after.
        let reuse = !inUse.contains(sql)
        if reuse, let cached = prepared[sql] {
            statement = cached
        } else {
            var fresh: OpaquePointer?
            code = sqlite3_prepare_v2(handle, sql, -1, &fresh, nil)
            guard code == SQLITE_OK, let fresh else { throw failure(code) }
            statement = fresh
            if reuse { prepared[sql] = fresh }
        }
        if reuse { inUse.insert(sql) }
        defer {
            if reuse {
                sqlite3_reset(statement)
                sqlite3_clear_bindings(statement)
                inUse.remove(sql)
            } else {
                sqlite3_finalize(statement)
            }
        }
        for (index, value) in bindings.enumerated() {
            let position = Int32(index + 1)
            switch value {
            case .null: code = sqlite3_bind_null(statement, position)
            case .integer(let v): code = sqlite3_bind_int64(statement, position, v)
            case .real(let v): code = sqlite3_bind_double(statement, position, v)
            case .text(let v): code = sqlite3_bind_text(statement, position, v, -1, Self.transient)
            case .blob(let v): code = v.withUnsafeBytes { sqlite3_bind_blob(statement, position, $0.baseAddress, Int32(v.count), Self.transient) }
            }
            guard code == SQLITE_OK else { throw failure(code) }
        }
        while true {
            code = sqlite3_step(statement)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else { throw failure(code) }
            try row(statement)
        }
    }

    /// Runs one statement many times (a bulk write's rows): prepared once,
    /// each row's text and blob bound in place rather than copied, and no
    /// lookup of the statement by its text per row. At 100,000 rows that
    /// per-row bookkeeping was a third of an import's writing.
    func repeatedly(_ sql: String, _ body: (RowWriter) throws -> Void) throws {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard code == SQLITE_OK, let statement else { throw failure(code) }
        defer { sqlite3_finalize(statement) }
        try body(RowWriter(database: self, statement: statement))
    }

    struct RowWriter {
        let database: SQLiteDatabase
        let statement: OpaquePointer

        /// Binds text, an integer and a blob (the vault's row shape) and
        /// steps once. The text and blob are bound without a copy (a nil
        /// destructor is SQLITE_STATIC) and read by the step inside the
        /// closures that lend their bytes.
        /// `text`: UTF-8 bytes, lent for the call.
        func run(text: UnsafeBufferPointer<UInt8>, integer: Int64, blob: [UInt8]) throws {
            precondition(!text.isEmpty && !blob.isEmpty, "a vault row has an id and a sealed box")
            defer { sqlite3_reset(statement) }
            let code: Int32 = blob.withUnsafeBytes { box in
                var code = sqlite3_bind_int64(statement, 2, integer)
                if code == SQLITE_OK {
                    code = text.withMemoryRebound(to: CChar.self) { sqlite3_bind_text(statement, 1, $0.baseAddress, Int32($0.count), nil) }
                }
                if code == SQLITE_OK { code = sqlite3_bind_blob(statement, 3, box.baseAddress, Int32(box.count), nil) }
                if code == SQLITE_OK { code = sqlite3_step(statement) }
                // Nothing may keep pointers to the lent bytes after this closure.
                sqlite3_clear_bindings(statement)
                return code
            }
            guard code == SQLITE_DONE else { throw database.failure(code) }
        }
    }

    /// Runs `body` in one write transaction: all of it lands, or none of
    /// it. `BEGIN IMMEDIATE` takes the write lock first (waiting up to the
    /// busy timeout), so the reads inside see the state the write replaces.
    public func transaction<T>(_ body: () throws -> T) throws -> T { try within("BEGIN IMMEDIATE", body) }

    /// Runs `body` in one read transaction: every statement in it sees the
    /// same committed state, whatever other connections write meanwhile.
    public func readTransaction<T>(_ body: () throws -> T) throws -> T { try within("BEGIN DEFERRED", body) }

    private func within<T>(_ begin: String, _ body: () throws -> T) throws -> T {
        try execute(begin)
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// Changes whenever another connection commits to the file (SQLite's
    /// `PRAGMA data_version`); this connection's own commits leave it as is.
    public func dataVersion() throws -> Int64 {
        try query("PRAGMA data_version").first?.first?.integer ?? 0
    }

    /// The rows this connection has inserted, changed or deleted since it opened.
    public var totalChanges: Int64 { sqlite3_total_changes64(handle) }

    /// A consistent copy of the whole database into a new file, through
    /// SQLite's online backup API (other connections may keep writing).
    public func backup(to destination: String) throws {
        let target = try SQLiteDatabase(path: destination, create: true)
        defer { target.close() }
        try Self.copyPages(from: self, to: target)
    }

    /// Replaces this database's content with another file's, through the
    /// backup API, so connections that other processes hold see a commit.
    public func restore(from source: String) throws {
        let origin = try SQLiteDatabase(path: source, create: false, readOnly: true)
        defer { origin.close() }
        try Self.copyPages(from: origin, to: self)
    }

    private static func copyPages(from source: SQLiteDatabase, to target: SQLiteDatabase) throws {
        guard let backup = sqlite3_backup_init(target.handle, "main", source.handle, "main") else {
            throw target.failure(sqlite3_errcode(target.handle))
        }
        var code: Int32
        var waited: Int32 = 0
        repeat {
            code = sqlite3_backup_step(backup, -1)
            guard code == SQLITE_BUSY || code == SQLITE_LOCKED else { continue }
            // The step waits for no lock by itself: wait here, as long as any statement would.
            if waited >= busyTimeoutMilliseconds { break }
            sqlite3_sleep(20)
            waited += 20
        } while code == SQLITE_OK || code == SQLITE_BUSY || code == SQLITE_LOCKED
        let finished = sqlite3_backup_finish(backup)
        guard code == SQLITE_DONE, finished == SQLITE_OK else { throw target.failure(finished == SQLITE_OK ? code : finished) }
    }

    fileprivate func failure(_ code: Int32) -> Failure {
        Failure(code: code, message: handle.map { String(cString: sqlite3_errmsg($0)) } ?? "error \(code)")
    }
}

extension SQLiteDatabase.Value {
    public var blob: [UInt8]? { if case .blob(let b) = self { return b }; return nil }
    public var text: String? { if case .text(let t) = self { return t }; return nil }
    public var integer: Int64? { if case .integer(let i) = self { return i }; return nil }
}
