import Foundation

/// The one plaintext file of a sync repository (`bulwark-sync.json`): the
/// vault's random id and its key wrapped under the master password's KDF,
/// exactly as the vault's own header holds them, so a new machine needs
/// only the master password. Nothing else in it names anything.
public struct SyncHeader: Codable, Sendable, Equatable {
    public static let fileName = "bulwark-sync.json"
    public static let currentFormat = 1

    public var format: Int
    /// The vault id, hex.
    public var vault: String
    public var kdf: ScryptParameters
    /// Base64 of the salt and of the wrapped vault key.
    public var salt: String
    public var wrappedKey: String

    var vaultID: [UInt8]? { [UInt8](hex: vault) }

    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(self) + Data("\n".utf8)
    }

    /// The header in a repository's commit, nil when there is none; a file that is not one is an error.
    static func read(from files: GitSnapshot) throws -> SyncHeader? {
        try read(try files.bytes(fileName).map { Data($0) })
    }

    /// The header from its file's bytes (nil: no file).
    static func read(_ data: Data?) throws -> SyncHeader? {
        guard let data else { return nil }
        guard data.count < 4096, let header = try? JSONDecoder().decode(SyncHeader.self, from: data),
              header.vaultID?.count == 16, Data(base64Encoded: header.salt) != nil, Data(base64Encoded: header.wrappedKey) != nil else {
            throw SyncError.notARepository("its \(fileName) is not a bulwark sync header")
        }
        guard header.format <= currentFormat else {
            throw SyncError.notARepository("it was written by a newer bulwark (sync format \(header.format)); update bulwark on this machine")
        }
        guard header.kdf.isSane else { throw SyncError.untrusted("its header asks for key derivation settings beyond bulwark's limits") }
        return header
    }
}

extension Vault {
    /// This vault's header as a sync repository carries it.
    public func syncHeader() throws -> SyncHeader {
        let header = try guarded { try db().readTransaction { try Header.read(from: db()) } }
        return SyncHeader(format: SyncHeader.currentFormat, vault: header.vaultID.hex, kdf: header.parameters,
                          salt: Data(header.salt).base64EncodedString(), wrappedKey: Data(header.wrappedKey).base64EncodedString())
    }

    /// A new vault at `path` that is the repository's vault on this machine:
    /// the same id and key, unwrapped with the master password (a wrong one
    /// is `VaultError.wrongPassword`, and nothing is made).
    public static func join(_ header: SyncHeader, at path: URL, masterPassword: String, freshness: FreshnessRecord? = nil) throws -> Vault {
        var (vaultID, key) = try header.unwrap(masterPassword: masterPassword)
        defer { key.wipe() }
        return try create(at: path, masterPassword: masterPassword, parameters: header.kdf, freshness: freshness, identity: (vaultID, key))
    }
}

extension SyncHeader {
    /// The vault id and the key this header wraps, unwrapped with the master
    /// password; a wrong one is `VaultError.wrongPassword`. The caller wipes the key.
    func unwrap(masterPassword: String) throws -> (vaultID: [UInt8], key: [UInt8]) {
        guard let vaultID, let salt = Data(base64Encoded: salt), let wrapped = Data(base64Encoded: wrappedKey) else {
            throw SyncError.notARepository("its header is malformed")
        }
        var kek = try Scrypt.derive(password: Array(masterPassword.utf8), salt: Array(salt), parameters: kdf)
        defer { kek.wipe() }
        do { return (vaultID, try AEAD().open(Array(wrapped), key: kek, associatedData: Vault.Header.wrapAAD(vaultID, kdf))) } catch {
            throw VaultError.wrongPassword
        }
    }

    /// sha256 of the header file in a repository's commit, nil when there is none.
    static func digest(from files: GitSnapshot) -> String? {
        (try? files.bytes(fileName))?.map { Digest.sha256($0).hex }
    }
}
