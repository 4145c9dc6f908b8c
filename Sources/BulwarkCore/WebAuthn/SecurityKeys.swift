import Foundation

/// A USB security key bulwark can ask for an assertion (the person touches it).
public protocol SecurityKeyDevice: Sendable {
    /// What the person sees: the key's product name.
    var name: String { get }
    /// Signs the request at `origin`: an `AuthenticationResponseJSON`.
    func assert(_ options: RequestOptions, origin: String) throws -> String
    /// Registers a new credential for the service on the key: a `RegistrationResponseJSON`.
    func register(_ options: CreationOptions, origin: String) throws -> String
}

extension SecurityKeyDevice {
    public func register(_ options: CreationOptions, origin: String) throws -> String {
        throw WebAuthnError("\(name) cannot register a credential")
    }
}

/// Finds the security keys plugged in now.
public protocol SecurityKeyProvider: Sendable {
    func devices() -> [SecurityKeyDevice]
}

/// For tests and places without USB: no key is ever plugged in.
public struct NoSecurityKeys: SecurityKeyProvider {
    public init() {}
    public func devices() -> [SecurityKeyDevice] { [] }
}
