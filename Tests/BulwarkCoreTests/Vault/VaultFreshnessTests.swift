import Foundation
import Testing
@testable import BulwarkCore

/// Older data never passes for current: a rolled-back row, an old index
/// with a row removed, a whole file put back, a damaged `-wal`, an old
/// header after a password change.
@Suite struct VaultFreshnessTests {
    let dir = TemporaryDirectory()
    var path: URL { dir.file("vault.db") }
    var record: FreshnessRecord { FreshnessRecord(directory: dir.file("state")) }

    func makeVault() throws -> Vault {
        let vault = try Vault.create(at: path, masterPassword: "m", parameters: testParameters, freshness: record)
        vault.backupPolicy = .none
        try vault.save([Entry(title: "Alpha", password: "a-1"), Entry(title: "Beta", password: "b-1")])
        return vault
    }

    func row(_ id: String, in database: SQLiteDatabase) throws -> [SQLiteDatabase.Value] {
        try #require(try database.query("SELECT version, sealed FROM entries WHERE id = ?", [.text(id)]).first)
    }

    @Test func oneRowRolledBackIsDamage() throws {
        let vault = try makeVault()
        let id = try vault.find("Alpha").id
        let database = try SQLiteDatabase(path: path.path, create: false)
        let old = try row(id, in: database)
        try vault.update(id) { $0.changePassword(to: "a-2", reason: "edited") }
        vault.close()
        // The older copy of the row, as a sync tool or a restored backup might put it back.
        try database.query("UPDATE entries SET version = ?, sealed = ? WHERE id = ?", [old[0], old[1], .text(id)])
        #expect(throws: VaultError.damaged("the entries do not match their sealed index: an entry was rolled back or replaced")) {
            try Vault.open(at: path, masterPassword: "m")
        }
        // The version alone put back, the new box kept: the box does not open under that version.
    }

    @Test func anOldIndexWithARowRemovedIsDamage() throws {
        let vault = try makeVault()
        let database = try SQLiteDatabase(path: path.path, create: false)
        let oldIndex = try #require(try database.query("SELECT value FROM meta WHERE key = 'index'").first?.first)
        let added = Entry(title: "Gamma", password: "g")
        try vault.save(added)
        try vault.update(try vault.find("Alpha").id) { $0.notes = "after the old index" }
        vault.close()
        try database.query("UPDATE meta SET value = ? WHERE key = 'index'", [oldIndex])
        try database.query("DELETE FROM entries WHERE id = ?", [.text(added.id)])
        #expect(throws: VaultError.damaged("an entry is newer than the vault's index (change 4 > 2)")) {
            try Vault.open(at: path, masterPassword: "m")
        }
    }

    @Test func aWholeFileRolledBackIsNoticedAndAWriteMovesPastIt() throws {
        let vault = try makeVault()
        vault.close()
        try FileManager.default.copyItem(at: path, to: dir.file("copy.db"))
        let later = try Vault.open(at: path, masterPassword: "m", freshness: record)
        #expect(later.rollback == nil)
        try later.save(Entry(title: "Gamma"))
        try later.save(Entry(title: "Delta"))
        later.close()
        try FileManager.default.removeItem(at: path)
        try FileManager.default.copyItem(at: dir.file("copy.db"), to: path)

        let rolledBack = try Vault.open(at: path, masterPassword: "m", freshness: record)
        #expect(rolledBack.rollback == Vault.Rollback(found: 2, seen: 4))
        #expect(rolledBack.entries.map(\.title) == ["Alpha", "Beta"])
        #expect(try Vault.open(at: path, masterPassword: "m", freshness: record).rollback != nil)  // said until something changes
        try rolledBack.save(Entry(title: "Epsilon"))
        #expect(rolledBack.counter == 5)  // past what was seen: counters never repeat here
        #expect(try Vault.open(at: path, masterPassword: "m", freshness: record).rollback == nil)
        // Without the record, nothing can be known.
        #expect(try Vault.open(at: path, masterPassword: "m").rollback == nil)
    }

    /// SQLite ignores a `-wal` frame whose checksum fails and every frame
    /// after it: committed changes vanish without an error. The vault now
    /// opens intact, or as a rollback, or as damage; never older in silence.
    @Test func aDamagedWriteAheadLogIsNeverSilentlyOlder() throws {
        let vault = try makeVault()
        try vault.save(Entry(title: "Gamma", password: "g"))
        // A crash now: the file and its log as they are while the writer holds them.
        let data = try Data(contentsOf: path), wal = try Data(contentsOf: URL(fileURLWithPath: path.path + "-wal"))
        let expected = vault.entries
        vault.close()
        #expect(wal.count > 4096)
        var intact = 0, rolledBack = 0, damaged = 0
        let copy = dir.file("crashed.db")
        for position in stride(from: 32, to: wal.count, by: 97) {
            try? FileManager.default.removeItem(at: copy)
            for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: copy.path + suffix) }
            try data.write(to: copy)
            var flipped = wal
            flipped[position] ^= 0x10
            try flipped.write(to: URL(fileURLWithPath: copy.path + "-wal"))
            do {
                let opened = try Vault.open(at: copy, masterPassword: "m", freshness: record)
                if opened.rollback != nil { rolledBack += 1 } else {
                    #expect(opened.entries == expected, "byte \(position) of the log: older data without a word")
                    intact += 1
                }
                opened.close()
            } catch VaultError.damaged {
                damaged += 1
            }
        }
        #expect(rolledBack > 0)
        #expect(intact + rolledBack + damaged == (wal.count - 32 + 96) / 97)
    }

    @Test func passwdReKeysSoAnOldHeaderOpensNothingWrittenAfter() throws {
        let vault = try makeVault()
        let database = try SQLiteDatabase(path: path.path, create: false)
        let headerKeys = ["schema", "vault_id", "kdf", "salt", "wrapped_key", "header_sha256"]
        let oldHeader = try headerKeys.map { key in try #require(try database.query("SELECT value FROM meta WHERE key = ?", [.text(key)]).first?.first) }
        try vault.setNote("seen-breaches", "kept across the change")
        try vault.changeMasterPassword(to: "new")
        try vault.save(Entry(title: "After the change", password: "secret"))
        vault.close()

        let reopened = try Vault.open(at: path, masterPassword: "new")
        #expect(reopened.entries.map(\.title) == ["After the change", "Alpha", "Beta"])
        #expect(reopened.note("seen-breaches") == "kept across the change")
        reopened.close()
        #expect(throws: VaultError.wrongPassword) { try Vault.open(at: path, masterPassword: "m") }

        for (key, value) in zip(headerKeys, oldHeader) {
            try database.query("UPDATE meta SET value = ? WHERE key = ?", [value, .text(key)])
        }
        do {
            _ = try Vault.open(at: path, masterPassword: "m")
            Issue.record("the old header opened the vault")
        } catch VaultError.damaged(let detail) {
            #expect(detail.hasSuffix("does not decrypt (it was altered, or moved from another row or version)"))
        }
        // The old header unwraps the old key, and the old key opens no entry at all.
        let inspected = try VaultInspection.inspect(at: path, masterPassword: "m")
        #expect(inspected.entries.isEmpty && inspected.unreadable.count == 3)
    }
}
