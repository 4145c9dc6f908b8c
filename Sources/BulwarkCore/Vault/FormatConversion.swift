import Foundation

/// Vaults written by older bulwarks: format 1 (nine boxes per row) and
/// format 2 (one box per row, no versions) are read as they are, then
/// rewritten as format 3 in one transaction on the first open: all of it,
/// or none.
extension Vault {
    /// Format 1: nine boxes per row, one per field.
    func loadFormat1() throws {
        var loaded: [Entry] = []
        try db().each("SELECT id, \(Vault.fields.joined(separator: ", ")) FROM entries") { row in
            guard row.count == Vault.fields.count + 1, let id = row[0].text else { throw VaultError.damaged("an entry row is malformed") }
            let rowPrefix = aadPrefix + Array(id.utf8)
            var values: [ArraySlice<UInt8>] = []
            values.reserveCapacity(Vault.fields.count)
            for (index, field) in Vault.fields.enumerated() {
                guard let box = row[index + 1].blob else { throw VaultError.damaged("entry \(id) has a missing field") }
                do {
                    values.append(try aead.open(box, key: key, associatedData: rowPrefix + Array("|\(field)".utf8))[...])
                } catch { throw VaultError.damaged("entry \(id) does not decrypt (its \(field) was altered)") }
            }
            guard let entry = Vault.decode(id: id, values) else { throw VaultError.damaged("entry \(id) is malformed") }
            loaded.append(entry)
        }
        try checkUnversionedIndex(loaded)
        entries = Vault.sorted(loaded)
        rows = VaultRows(unversioned: entries)
    }

    /// Format 2: one box per row under `bulwark/v1|VAULT|ID|entry`.
    func loadFormat2() throws {
        var loaded: [Entry] = []
        let aead = AEAD()
        try db().each("SELECT id, sealed FROM entries") { row in
            guard row.count == 2, let id = row[0].text, let box = row[1].blob else { throw VaultError.damaged("an entry row is malformed") }
            guard let plain = try? aead.open(box, key: key, associatedData: aadPrefix + Array("\(id)|entry".utf8)) else {
                throw VaultError.damaged("entry \(id) does not decrypt (it was altered)")
            }
            guard let parts = FieldCoding.decode(parts: plain), Vault.isEntryShape(parts.count),
                  let entry = Vault.decode(id: id, parts) else { throw VaultError.damaged("entry \(id) is malformed") }
            loaded.append(entry)
        }
        try checkUnversionedIndex(loaded)
        entries = Vault.sorted(loaded)
        rows = VaultRows(unversioned: entries)
    }

    /// Formats 1 and 2 sealed a digest of the ids alone.
    private func checkUnversionedIndex(_ loaded: [Entry]) throws {
        let ids = loaded.map(\.id).sorted()
        let digest = Digest.sha256(Array(ids.joined(separator: "\n").utf8) + Array("|\(ids.count)".utf8))
        guard let sealedIndex = try db().query("SELECT value FROM meta WHERE key = 'index'").first?.first?.blob,
              let stored = try? aead.open(sealedIndex, key: key, associatedData: aadPrefix + Array("|index".utf8)),
              stored == digest else {
            throw VaultError.damaged("the list of entries does not match its sealed index")
        }
    }

    /// Rewrites the loaded entries as format 3, every row at version 1. A
    /// second process that converted first wins: this one then reads its work.
    /// Format 3 becomes 4 with no row rewritten: only the version and the header.
    /// Format 4 becomes 5 with its new table, no row rewritten either.
    func convert(from schema: Int, kek: [UInt8], salt: [UInt8]) throws {
        if schema >= 3 {
            try guarded {
                try db().transaction {
                    guard Int(try db().query("PRAGMA user_version").first?.first?.integer ?? 0) == schema else { return }
                    for step in (schema + 1)...Vault.schemaVersion { try db().execute(Migrations.steps[step]!) }
                    try db().execute("PRAGMA user_version = \(Vault.schemaVersion)")
                    try writeHeader(kek: kek, salt: salt)
                }
            }
            return
        }
        try guarded {
            try db().transaction {
                let current = Int(try db().query("PRAGMA user_version").first?.first?.integer ?? 0)
                guard current == schema else {
                    try load()
                    return
                }
                if schema == 1 { try db().execute(Migrations.steps[2]!) }
                for step in 3...Vault.schemaVersion { try db().execute(Migrations.steps[step]!) }
                for (entry, box) in zip(entries, seal(entries, version: 1)) { try writeRow(id: entry.id, sealed: box, version: 1) }
                try db().execute("PRAGMA user_version = \(Vault.schemaVersion)")
                try writeHeader(kek: kek, salt: salt)
                let written = try Listing.scan(db())
                try writeIndex(listing: written, counter: 1)
                listing = written
                counter = 1
                rows = VaultRows(entries.lazy.map { VaultRow(entry: $0, version: 1) })
            }
        }
    }
}
