import Foundation

/// A WebAuthn credential bulwark holds for an account: a discoverable
/// ("resident") ES256 key for one relying party. The private key is sealed
/// in the entry's box like every other field and leaves the vault only in
/// an export.
public struct Passkey: Sendable, Equatable {
    /// 16 random bytes from the CSPRNG (the spec asks for at least 16).
    public var credentialID: [UInt8]
    public var rpID: String
    public var userHandle: [UInt8]
    public var userName: String
    public var userDisplayName: String
    /// PKCS#8 DER of the P-256 private key.
    public var privateKey: [UInt8]
    public var created: Date
    /// Always 0: the credential lives in a vault file that backups, restores
    /// and copies can wind back, so a counter could not only go up; 0 tells
    /// the relying party not to check it, as synced passkeys do.
    public var signCount: UInt32
    /// Backup eligible and backed up: the vault file is copied (backups/,
    /// restores, the person's own copies), so the credential is not bound to one device.
    public var backupEligible: Bool
    public var backupState: Bool

    public init(credentialID: [UInt8], rpID: String, userHandle: [UInt8], userName: String, userDisplayName: String,
                privateKey: [UInt8], created: Date, signCount: UInt32 = 0, backupEligible: Bool = true, backupState: Bool = true) {
        self.credentialID = credentialID
        self.rpID = rpID
        self.userHandle = userHandle
        self.userName = userName
        self.userDisplayName = userDisplayName
        self.privateKey = privateKey
        self.created = created
        self.signCount = signCount
        self.backupEligible = backupEligible
        self.backupState = backupState
    }

    /// The id as the JSON forms and the CLI write it.
    public var id: String { Base64URL.encode(credentialID) }
}
