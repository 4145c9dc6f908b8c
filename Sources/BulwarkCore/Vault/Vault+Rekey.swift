import Foundation

extension Vault {
    /// Changes the master password and the vault key with it: a new random
    /// key, every entry and note sealed again under it, the index and the
    /// header rewritten, all in one transaction. The old password works
    /// until the instant the new one does, and an old header put back
    /// afterwards opens nothing written since (it unwraps the old key).
    /// A copy of the file made before the change still opens with the old
    /// password: that no change to this file can prevent.
    public func changeMasterPassword(to newPassword: String, parameters newParameters: ScryptParameters? = nil) throws {
        try changeMasterPassword(to: newPassword, parameters: newParameters, key: nil)
    }

    /// `key`: the vault key to change to (another machine's re-key that
    /// this one follows, `SyncEngine.followRekey`); else a new random one.
    func changeMasterPassword(to newPassword: String, parameters newParameters: ScryptParameters?, key given: [UInt8]?) throws {
        touch()
        let salt = SecureRandom.bytes(16)
        let target = newParameters ?? parameters
        var kek = try Scrypt.derive(password: Array(newPassword.utf8), salt: salt, parameters: target)
        defer { kek.wipe() }
        var newKey = given ?? SecureRandom.bytes(AEAD.keySize)
        defer { newKey.wipe() }
        // The sync state is sealed under the vault key: read now, sealed again under the new one below.
        let syncState = try? SyncState.loadWhole(for: self)
        takeBackupIfDue()
        let (oldKey, oldParameters, oldWrapped) = (key, parameters, wrappedKey)
        try guarded {
            let dataVersion = try db().dataVersion()
            var written = Listing()
            var next: Int64 = 0
            do {
                try db().transaction {
                    try sync()
                    next = max(counter, rollback?.seen ?? 0) + 1
                    var rows: [SealedRow] = []
                    try db().eachRaw("SELECT id, version, sealed FROM entries") { row in
                        guard let id = row.bytes(0), let version = row.integer(1), let box = row.bytes(2) else {
                            throw VaultError.damaged("an entry row is malformed")
                        }
                        rows.append((String(decoding: id, as: UTF8.self), version, Array(box)))
                    }
                    for row in rows {
                        let associatedData = Vault.entryAAD(prefix: aadPrefix, id: row.id, version: row.version)
                        guard let plain = try? aead.open(row.box, key: oldKey, associatedData: associatedData) else {
                            throw VaultError.damaged("entry \(row.id) does not decrypt (it was altered)")
                        }
                        let sealed = aead.seal(plain, key: newKey, associatedData: associatedData)
                        try db().query("UPDATE entries SET sealed = ? WHERE id = ?", [.blob(sealed), .text(row.id)])
                    }
                    try resealBlobs(from: oldKey, to: newKey)
                    for row in try db().query("SELECT key, value FROM meta WHERE key LIKE 'note:%'") {
                        guard let name = row[0].text, let box = row[1].blob else { continue }
                        let noteName = String(name.dropFirst("note:".count))
                        // An unreadable note is as good as absent: dropped rather than carried under the new key.
                        guard let plain = try? aead.open(box, key: oldKey, associatedData: noteAAD(noteName)) else {
                            try db().query("DELETE FROM meta WHERE key = ?", [.text(name)])
                            continue
                        }
                        try db().query("UPDATE meta SET value = ? WHERE key = ?",
                                       [.blob(aead.seal(plain, key: newKey, associatedData: noteAAD(noteName))), .text(name)])
                    }
                    key = newKey
                    parameters = target
                    try writeHeader(kek: kek, salt: salt)
                    written = try Listing.scan(db())
                    try writeIndex(listing: written, counter: next)
                }
            } catch {
                key = oldKey
                parameters = oldParameters
                wrappedKey = oldWrapped
                throw error
            }
            // A linked vault keeps the old key in its sync state (sealed under the new one): the
            // repository is under it until this machine rewrites it (or, following, until it was rewritten).
            try? syncState?.rekeyed(from: oldKey, vault: self)  // best effort: the vault changed already
            var retired = oldKey
            retired.wipe()
            lockInMemory()
            listing = written
            counter = next
            rollback = nil
            lastDataVersion = dataVersion
            rememberCounter()
        }
    }
}
