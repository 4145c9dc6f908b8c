import Foundation

/// What can be learnt of a vault file without its master password, for
/// `bulwark doctor`: SQLite's own integrity check, the header as stored
/// (its checksum and KDF settings) and the number of entry rows. Opened
/// read-only; nothing is written.
public struct VaultFileCheck: Sendable, Equatable {
    /// SQLite's quick_check: "ok", or what it found.
    public var integrity: [String] = []
    /// What is wrong with the header; nil when it reads and matches its checksum.
    public var headerProblem: String?
    public var parameters: ScryptParameters?
    public var rows = 0

    /// The key derivation settings the header asks for, read without the
    /// password (for an estimate of the unlock's time).
    public static func parameters(at path: URL) throws -> ScryptParameters {
        let database = try SQLiteDatabase(path: path.path, create: false, readOnly: true)
        defer { database.close() }
        return try Vault.Header.read(from: database).parameters
    }

    public static func examine(at path: URL) throws -> VaultFileCheck {
        var check = VaultFileCheck()
        let database = try SQLiteDatabase(path: path.path, create: false, readOnly: true)
        defer { database.close() }
        check.integrity = try database.query("PRAGMA quick_check").compactMap { $0.first?.text }
        do {
            let header = try Vault.Header.read(from: database)
            check.parameters = header.parameters
        } catch {
            check.headerProblem = "\(error)"
        }
        check.rows = Int(try database.query("SELECT count(*) FROM entries").first?.first?.integer ?? 0)
        return check
    }
}
