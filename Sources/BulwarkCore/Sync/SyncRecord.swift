import Foundation

/// One entry as the repository holds it: its value (nil for a deletion's
/// tombstone), the version vector of that value, and when the change was
/// made (the entry's modification time, or the deletion's).
public struct SyncRecord: Sendable, Equatable {
    public let id: String
    public var vector: VersionVector
    public var entry: Entry?
    public var changedAt: Date
    /// The vector of the entry's last change of content (a merge that kept one
    /// side as it was moves the vector on, not this): a delete that had seen
    /// it wins over it, so a deleted entry never comes back through a copy.
    public var edited: VersionVector

    public init(id: String, vector: VersionVector, entry: Entry?, changedAt: Date, edited: VersionVector? = nil) {
        self.id = id
        self.vector = vector
        self.entry = entry
        self.changedAt = changedAt
        self.edited = edited ?? vector
    }

    public var isTombstone: Bool { entry == nil }
}

/// Seals and opens what a sync repository holds, under keys derived from
/// the vault key (one per purpose), each box bound to the vault and to the
/// file it belongs in, so a box moved to another file does not open.
/// Its AEAD context is one thread's: another thread takes a `copy()`.
struct SyncSealer: @unchecked Sendable {
    let vaultID: [UInt8]
    private let nameKey: [UInt8]
    private let entryKey: [UInt8]
    private let manifestKey: [UInt8]
    private var aead = AEAD()

    /// The same keys with an AEAD context of its own.
    func copy() -> SyncSealer {
        var copy = self
        copy.aead = AEAD()
        return copy
    }

    init(vault: Vault) { self.init(vaultID: vault.vaultID, key: vault.key) }

    /// Under a vault key of the vault's past (a re-key's: the repository stays under it until rewritten).
    init(vaultID: [UInt8], key: [UInt8]) {
        self.vaultID = vaultID
        nameKey = Vault.subkey("sync-file-names", of: key)
        entryKey = Vault.subkey("sync-entries", of: key)
        manifestKey = Vault.subkey("sync-manifest", of: key)
    }

    /// The entry's file name: a keyed digest of its id, so the remote
    /// learns nothing from the name and an id always has the same file.
    func fileID(of entryID: String) -> String {
        String(HMAC.authenticate(Array(entryID.utf8), key: nameKey, digest: .sha256).hex.prefix(32))
    }

    private func aad(_ kind: String, _ name: String) -> [UInt8] { Array("bulwark-sync/v1|\(kind)|\(vaultID.hex)|\(name)".utf8) }

    /// A record's plaintext: length-prefixed parts (a tag, the id, the
    /// vector, the time, and the entry's box when it is not a tombstone),
    /// the vault's own coding: JSON took most of a clone's time.
    private static let tag = Array("bulwark-sync-record/1".utf8)

    func seal(_ record: SyncRecord) throws -> [UInt8] {
        var parts: [[UInt8]] = [Self.tag, Array(record.id.utf8), Array(record.vector.canonical.utf8),
                                Array(String(record.changedAt.timeIntervalSince1970).utf8),
                                Array((record.edited == record.vector ? "" : record.edited.canonical).utf8)]
        if let entry = record.entry { parts.append(Vault.box(entry)) }
        return aead.seal(FieldCoding.encode(parts: parts), key: entryKey, associatedData: aad("entry", fileID(of: record.id)))
    }

    /// The record in file `fileID`; throws `untrusted` naming the file when it does not open or is not that file's.
    func open(_ bytes: [UInt8], fileID: String) throws -> SyncRecord {
        guard let plain = try? aead.open(bytes, key: entryKey, associatedData: aad("entry", fileID)) else {
            throw SyncError.untrusted("the entry file \(fileID) does not open (altered, or moved from another file)")
        }
        guard let parts = FieldCoding.decode(parts: plain), parts.count == 5 || parts.count == 6, Array(parts[0]) == Self.tag,
              let vector = VersionVector(canonical: String(decoding: parts[2], as: UTF8.self)),
              let changedAt = Double(String(decoding: parts[3], as: UTF8.self)) else {
            throw SyncError.untrusted("the entry file \(fileID) is malformed")
        }
        let id = String(decoding: parts[1], as: UTF8.self)
        guard self.fileID(of: id) == fileID else { throw SyncError.untrusted("the entry file \(fileID) holds another entry") }
        var entry: Entry?
        let editedText = String(decoding: parts[4], as: UTF8.self)
        guard let edited = editedText.isEmpty ? vector : VersionVector(canonical: editedText) else {
            throw SyncError.untrusted("the entry file \(fileID) is malformed")
        }
        if parts.count == 6 {
            guard let fields = FieldCoding.decode(parts: Array(parts[5])), Vault.isEntryShape(fields.count),
                  let decoded = Vault.decode(id: id, fields) else {
                throw SyncError.untrusted("the entry file \(fileID) is malformed")
            }
            entry = decoded
        }
        return SyncRecord(id: id, vector: vector, entry: entry, changedAt: Date(timeIntervalSince1970: changedAt), edited: edited)
    }

    func sealManifest(_ plain: [UInt8], name: String) -> [UInt8] {
        aead.seal(plain, key: manifestKey, associatedData: aad("manifest", name))
    }

    func openManifest(_ bytes: [UInt8], name: String) throws -> [UInt8] {
        guard let plain = try? aead.open(bytes, key: manifestKey, associatedData: aad("manifest", name)) else {
            throw SyncError.untrusted(name == "root" ? "the manifest root does not open (altered, or sealed under another key)"
                                                     : "the manifest bucket \(name) does not open (altered, or moved from another bucket)")
        }
        return plain
    }
}
