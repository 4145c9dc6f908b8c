import BulwarkAssets
import BulwarkCore
import Foundation

/// An OpenID provider the mock world runs (one JSON file per provider in
/// Assets/providers/ or a `--services` directory's `providers/`): its issuer,
/// the domain of its login page, whether it asks for a second factor, and
/// the clients it knows with their exact redirect URIs. Its login accounts
/// are signed up like a service's (from the vault entry for its login domain).
public struct IdentityProviderManifest: Sendable, Equatable, Codable {
    public struct Client: Sendable, Equatable, Codable {
        public var clientID: String
        /// The app's name, as the consent page shows it.
        public var name: String
        /// Compared exactly, as registered (RFC 9700 §2.1).
        public var redirectURIs: [String]
    }
    public enum SecondFactor: String, Sendable, Codable { case none, totp }

    public var id: String
    public var name: String
    public var issuer: String
    public var loginDomain: String
    public var secondFactor: SecondFactor
    public var clients: [Client]

    public func client(_ id: String) -> Client? { clients.first { $0.clientID == id } }

    public static func decode(_ data: Data, file: String) throws -> IdentityProviderManifest {
        let manifest: IdentityProviderManifest
        do { manifest = try JSONDecoder().decode(IdentityProviderManifest.self, from: data) } catch {
            throw ServiceManifest.Invalid(file: file, reason: "not an identity provider manifest (\(error))")
        }
        // The id names the provider's state file: a path in it would write outside services/.
        guard !manifest.id.isEmpty, manifest.id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) else {
            throw ServiceManifest.Invalid(file: file, reason: "\"id\" must be letters, digits and hyphens")
        }
        guard let url = URL(string: manifest.issuer), url.scheme == "https", url.query == nil, url.fragment == nil, let host = url.host, !host.isEmpty else {
            throw ServiceManifest.Invalid(file: file, reason: "\"issuer\" must be an https URL without query or fragment")
        }
        // Both sides agree: the login page is the issuer's own (its host, or one above or below it).
        let login = Domain.normalize(manifest.loginDomain), issuerHost = Domain.normalize(host)
        guard !login.isEmpty, login == manifest.loginDomain.lowercased(),
              login == issuerHost || login.hasSuffix("." + issuerHost) || issuerHost.hasSuffix("." + login) else {
            throw ServiceManifest.Invalid(file: file, reason: "\"loginDomain\" \(manifest.loginDomain) is not the issuer's (\(host)): a provider's login page is its own")
        }
        for client in manifest.clients {
            for uri in client.redirectURIs where URL(string: uri)?.scheme != "https" {
                throw ServiceManifest.Invalid(file: file, reason: "\(client.clientID): redirect URI \(uri) is not https")
            }
        }
        return manifest
    }

    public static func builtIn() throws -> [IdentityProviderManifest] {
        try Assets.paths(under: "providers", suffix: ".json").map { try decode(Assets.data($0) ?? Data(), file: "Assets/" + $0) }
    }
}

/// "Log in with IDP" on a service: the provider's issuer, the service's
/// client id there and the redirect URI it registered.
public struct FederatedLogin: Sendable, Equatable, Codable {
    public var issuer: String
    public var clientID: String
    public var redirectURI: String
}
