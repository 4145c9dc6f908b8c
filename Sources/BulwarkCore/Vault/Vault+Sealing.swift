import Foundation

extension Vault {
    /// A short name for this vault (its id's first 16 hex digits), for
    /// files kept about it elsewhere, such as a cache.
    public var shortID: String { String(vaultID.hex.prefix(16)) }

    /// Bytes sealed (AES-256-GCM) under a key of their own for `purpose`,
    /// derived from the vault key with HMAC-SHA-256, and bound to this
    /// vault: for files bulwark keeps outside the vault (a cache), which
    /// only this vault's key opens.
    public func sealed(_ plain: [UInt8], purpose: String) -> [UInt8] {
        aead.seal(plain, key: subkey(purpose), associatedData: Self.sealingAAD(purpose, vaultID))
    }

    /// The bytes `sealed` sealed for the same purpose; nil when they were
    /// altered, or sealed by another vault or for another purpose.
    public func unsealed(_ box: [UInt8], purpose: String) -> [UInt8]? {
        try? aead.open(box, key: subkey(purpose), associatedData: Self.sealingAAD(purpose, vaultID))
    }

    func subkey(_ purpose: String) -> [UInt8] { Self.subkey(purpose, of: key) }

    static func subkey(_ purpose: String, of key: [UInt8]) -> [UInt8] {
        HMAC.authenticate(Array("bulwark/v1|subkey|\(purpose)".utf8), key: key, digest: .sha256)
    }

    private static func sealingAAD(_ purpose: String, _ vaultID: [UInt8]) -> [UInt8] {
        Array("bulwark/v1|sealed|\(purpose)|\(vaultID.hex)".utf8)
    }
}
