/// Schema versions, kept in `PRAGMA user_version`. Each step takes the file
/// from one version to the next inside the caller's transaction; a vault
/// from a newer bulwark is refused rather than guessed at.
enum Migrations {
    static let steps: [Int: String] = [
        1: """
        CREATE TABLE meta (key TEXT PRIMARY KEY, value BLOB NOT NULL) WITHOUT ROWID;
        CREATE TABLE entries (
            id TEXT PRIMARY KEY,
            title BLOB NOT NULL, username BLOB NOT NULL, password BLOB NOT NULL, urls BLOB NOT NULL,
            notes BLOB NOT NULL, totp BLOB NOT NULL, tags BLOB NOT NULL, history BLOB NOT NULL, details BLOB NOT NULL
        ) WITHOUT ROWID;
        """,
        // One sealed box per entry instead of nine: a ninth of the decryptions
        // on load. Existing rows are rewritten by the vault, which holds the key.
        2: """
        DROP TABLE entries;
        CREATE TABLE entries (id TEXT PRIMARY KEY, sealed BLOB NOT NULL) WITHOUT ROWID;
        """,
        // Each row carries its version (bound into its box's associated data);
        // the narrow index lets every write list (id, version) without
        // reading the boxes. Rows are rewritten by the vault.
        3: """
        DROP TABLE entries;
        CREATE TABLE entries (id TEXT PRIMARY KEY, version INTEGER NOT NULL, sealed BLOB NOT NULL) WITHOUT ROWID;
        CREATE INDEX entries_listing ON entries(id, version);
        """,
        // The tables of 3; the boxes may hold parts an older bulwark cannot read (see `Vault.schemaVersion`).
        4: "SELECT 1;",
        // Attachments: each file's bytes sealed in chunks of a mebibyte,
        // by the content's keyed name (`Attachment.blob`) and the chunk's
        // place; what the file is (name, size, chunks) is in its entry's box.
        // A rowid table: SQLite keeps rows this large out of a WITHOUT ROWID tree badly.
        5: """
        CREATE TABLE blobs (blob TEXT NOT NULL, chunk INTEGER NOT NULL, sealed BLOB NOT NULL);
        CREATE UNIQUE INDEX blobs_chunk ON blobs(blob, chunk);
        """,
    ]

    static func apply(to database: SQLiteDatabase) throws {
        let current = Int(try database.query("PRAGMA user_version").first?.first?.integer ?? 0)
        if current > Vault.schemaVersion { throw VaultError.newerFormat(current) }
        for version in (current + 1)..<(Vault.schemaVersion + 1) {
            try database.execute(steps[version]!)
            try database.execute("PRAGMA user_version = \(version)")
        }
    }
}
