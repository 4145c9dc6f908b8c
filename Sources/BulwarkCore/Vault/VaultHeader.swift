import Foundation

extension Vault {
    /// The file's header, kept in the `meta` table: the schema, the vault
    /// id, the KDF and its salt, and the vault key wrapped by the key the
    /// master password derives.
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

        /// The header's fields as stored, checked against nothing.
        static func readUnchecked(from database: SQLiteDatabase) throws -> (header: Header, checksum: [UInt8]) {
            var meta: [String: [UInt8]] = [:]
            for row in try database.query("SELECT key, value FROM meta WHERE key NOT LIKE 'note:%'") {
                guard row.count == 2, let k = row[0].text, let v = row[1].blob else { throw VaultError.damaged("the header is malformed") }
                meta[k] = v
            }
            guard let id = meta["vault_id"], let kdf = meta["kdf"], let salt = meta["salt"], let wrapped = meta["wrapped_key"],
                  let checksum = meta["header_sha256"], let schemaText = meta["schema"],
                  let schema = Int(String(decoding: schemaText, as: UTF8.self)) else { throw VaultError.damaged("the header is incomplete") }
            let parts = String(decoding: kdf, as: UTF8.self).split(separator: ":")
            guard parts.count == 4, parts[0] == "scrypt", let n = Int(parts[1]), let r = Int(parts[2]), let p = Int(parts[3]) else {
                throw VaultError.damaged("the key derivation settings are unreadable")
            }
            return (Header(vaultID: id, parameters: ScryptParameters(logN: n, r: r, p: p), salt: salt, wrappedKey: wrapped, schema: schema), checksum)
        }

        static func read(from database: SQLiteDatabase) throws -> Header {
            let (header, checksum) = try readUnchecked(from: database)
            guard header.checksum == checksum else { throw VaultError.damaged("the header does not match its checksum") }
            let p = header.parameters
            guard p.isSane else {
                throw VaultError.damaged("the header asks for scrypt N=2^\(p.logN), r=\(p.r), p=\(p.p), beyond bulwark's limits (1 GiB, the work of N=2^20, r=8); refused before deriving anything")
            }
            let version = try database.query("PRAGMA user_version").first?.first?.integer ?? 0
            if header.schema > Vault.schemaVersion { throw VaultError.newerFormat(header.schema) }
            guard version == header.schema else { throw VaultError.damaged("the schema version does not match the header") }
            return header
        }
    }

    /// Wraps this vault's key under `kek`; the caller's transaction holds the write.
    func writeHeader(kek: [UInt8], salt: [UInt8]) throws {
        let header = Header(vaultID: vaultID, parameters: parameters, salt: salt,
                            wrappedKey: aead.seal(key, key: kek, associatedData: Header.wrapAAD(vaultID, parameters)))
        let rows: [(String, [UInt8])] = [("schema", Array(String(header.schema).utf8)), ("vault_id", vaultID), ("kdf", Array(header.kdfText.utf8)),
                                         ("salt", salt), ("wrapped_key", header.wrappedKey), ("header_sha256", header.checksum)]
        for (name, value) in rows {
            try db().query("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", [.text(name), .blob(value)])
        }
        wrappedKey = header.wrappedKey
    }

    /// The wrapped key the file holds now (inside the caller's transaction).
    func currentWrappedKey() throws -> [UInt8]? {
        try db().query("SELECT value FROM meta WHERE key = 'wrapped_key'").first?.first?.blob
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
              let box = row[0].blob, let plain = try? aead.open(box, key: key, associatedData: noteAAD(name)) else { return nil }
        return plain
    }

    /// Writing a note is not the person's activity: unlike `setNote`, it
    /// does not postpone the idle lock. A note sealed under a key another
    /// process has since replaced would be unreadable: refused instead.
    public func setNoteBytes(_ name: String, _ value: [UInt8]) throws {
        let sealed = aead.seal(value, key: key, associatedData: noteAAD(name))
        try guarded {
            try db().transaction {
                guard try currentWrappedKey() == wrappedKey else { throw VaultError.keyChanged }
                try db().query("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", [.text("note:" + name), .blob(sealed)])
            }
        }
    }

    func noteAAD(_ name: String) -> [UInt8] { aadPrefix + Array(name.utf8) + Array("|note".utf8) }
}
