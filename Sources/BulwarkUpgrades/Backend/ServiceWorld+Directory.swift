import BulwarkCore
import Foundation

// The mock world speaks the engine's protocols, as a test backend speaks a
// real one's: the engine never learns that its services are mocks.
extension ServiceWorld: ServiceDirectory {
    public func appleIDProvider() throws -> any AppleIDProvider { identityProvider }
    public func accountServer(for manifest: ServiceManifest) throws -> any AccountServer { try backend(for: manifest) }
    public func passkeyRelyingParty(for manifest: ServiceManifest) throws -> (any RelyingParty)? { try relyingParty(for: manifest) }
    public func modificationExtension(for manifest: ServiceManifest) throws -> any AccountModificationExtension { try makeExtension(for: manifest) }
    public func latestReceivedCode(forSites sites: [String]) throws -> String? { try inbox.latestCode(forSites: sites) }
}

extension MockBackend: AccountServer {}
extension MockIdentityProvider: AppleIDProvider {}
extension MockRelyingParty: RelyingParty {}
