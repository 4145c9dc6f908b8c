import Foundation

/// What opens a vault: its master password, or the key `bulwark agent`
/// holds for it since an unlock.
public enum VaultCredential: Sendable {
    case masterPassword(String)
    case heldKey(HeldVaultKey)
}

/// An unlocked vault's key as an agent keeps it, with what it was
/// unwrapped from: a vault whose header no longer holds the same wrapped
/// key (a `passwd` here or on another machine) refuses it.
public struct HeldVaultKey: Sendable, Equatable {
    public let vaultID: [UInt8]
    public let wrappedKey: [UInt8]
    public let key: [UInt8]

    public init(vaultID: [UInt8], wrappedKey: [UInt8], key: [UInt8]) {
        self.vaultID = vaultID
        self.wrappedKey = wrappedKey
        self.key = key
    }
}

extension Vault {
    /// The key to hand to `bulwark agent` (after an unlock with the master password).
    public var heldKey: HeldVaultKey { HeldVaultKey(vaultID: vaultID, wrappedKey: wrappedKey, key: key) }
}
