import Foundation

/// One entry as the repository holds it: its value (nil for a deletion's
/// tombstone), the version vector of that value, and when the change was
/// made (the entry's modification time, or the deletion's).
public struct SyncRecord: Sendable, Equatable {
    public let id: String
    public var vector: VersionVector
    public var entry: Entry?
    public var changedAt: Date

    public init(id: String, vector: VersionVector, entry: Entry?, changedAt: Date) {
        self.id = id
        self.vector = vector
        self.entry = entry
        self.changedAt = changedAt
    }

    public var isTombstone: Bool { entry == nil }
}

/// Seals and opens what a sync repository holds, under keys derived from
/// the vault key (one per purpose), each box bound to the vault and to the
/// file it belongs in, so a box moved to another file does not open.
struct SyncSealer {
    let vaultID: [UInt8]
    private let nameKey: [UInt8]
    private let entryKey: [UInt8]
    private let manifestKey: [UInt8]
    private let aead = AEAD()

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

    private struct Plain: Codable {
        var id: String
        var vector: [String: Int64]
        var changedAt: Double
        /// The entry's box as the vault seals it (base64); absent for a tombstone.
        var box: String?
    }

    func seal(_ record: SyncRecord) throws -> [UInt8] {
        let plain = Plain(id: record.id, vector: record.vector.counters, changedAt: record.changedAt.timeIntervalSince1970,
                          box: record.entry.map { Data(Vault.box($0)).base64EncodedString() })
        return aead.seal(Array(try JSONEncoder().encode(plain)), key: entryKey, associatedData: aad("entry", fileID(of: record.id)))
    }

    /// The record in file `fileID`; throws `untrusted` naming the file when it does not open or is not that file's.
    func open(_ bytes: [UInt8], fileID: String) throws -> SyncRecord {
        guard let plain = try? aead.open(bytes, key: entryKey, associatedData: aad("entry", fileID)),
              let decoded = try? JSONDecoder().decode(Plain.self, from: Data(plain)) else {
            throw SyncError.untrusted("the entry file \(fileID) does not open (altered, or moved from another file)")
        }
        guard self.fileID(of: decoded.id) == fileID else { throw SyncError.untrusted("the entry file \(fileID) holds another entry") }
        var entry: Entry?
        if let box = decoded.box {
            guard let bytes = Data(base64Encoded: box), let parts = FieldCoding.decode(parts: Array(bytes)), Vault.isEntryShape(parts.count),
                  let decodedEntry = Vault.decode(id: decoded.id, parts) else {
                throw SyncError.untrusted("the entry file \(fileID) is malformed")
            }
            entry = decodedEntry
        }
        return SyncRecord(id: decoded.id, vector: VersionVector(decoded.vector), entry: entry,
                          changedAt: Date(timeIntervalSince1970: decoded.changedAt))
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
