import BulwarkCore
import Foundation

/// A service's manifest: what an extension's Info.plist and its app's
/// apple-app-site-association file say, plus how the mock backend behaves.
/// One JSON file per service in Assets/services/ or a `--services` directory.
public struct ServiceManifest: Sendable, Equatable, Codable {
    /// The second factor its step-up asks for: a code, or a security key
    /// (satisfied by a passkey for the service, from the vault or a USB key).
    public enum TwoFactor: String, Sendable, Codable { case none, totp, sms, securityKey = "security-key" }

    /// How the mock backend behaves, for demos and tests.
    public struct Behaviour: Sendable, Equatable, Codable {
        public enum StepUp: String, Sendable, Codable { case never, always }
        /// A failure the backend reports instead of authorising; `reason`
        /// nil is a failure without a localized reason.
        public struct Failure: Sendable, Equatable, Codable { public var reason: String? }

        public var latencyMs: Int = 0
        public var stepUp: StepUp = .never
        public var failure: Failure? = nil
        /// The Sign in with Apple sheet returns no credential (the network dropped).
        public var networkLossAtSheet: Bool = false
        /// The backend sets a password of its own instead of the proposed one.
        public var substitutesPassword: Bool = false
        /// How long an account takes no code after five wrong ones.
        public var codeCoolDownMinutes: Int = 15

        public init() {}
    }

    public var id: String
    public var name: String
    /// `TEAMID.bundle.id`: the team scopes Sign in with Apple's user ids and relay addresses.
    public var appID: String
    /// `webcredentials:DOMAIN` or `webcredentials:*.DOMAIN` (the app's
    /// passwords), and `applinks:DOMAIN` (the site's links it opens).
    public var associatedDomains: [String]
    public var supportsStrongPassword: Bool
    public var supportsSignInWithApple: Bool
    /// What the app asks Sign in with Apple for: `name`, `email`, both or
    /// neither (absent: both). The sheet shows only these, and the token
    /// and the backend get only what was asked for and shared.
    public var signInWithAppleScopes: [AppleIDScope]?
    public var requestedAppleIDScopes: [AppleIDScope] { signInWithAppleScopes.map { AppleIDScope.allCases.filter($0.contains) } ?? AppleIDScope.allCases }
    /// The service is a WebAuthn relying party (absent: false).
    public var supportsPasskeys: Bool?
    public var acceptsPasskeys: Bool { supportsPasskeys == true }
    /// "Log in with IDP": the identity providers the service takes sign-ins from.
    public var signInWith: [FederatedLogin]?
    public var passwordRules: String?
    public var changePasswordURL: String?
    public var twoFactor: TwoFactor
    public var behaviour: Behaviour

    /// Whether the service offers an upgrade of this kind.
    public func supports(_ kind: UpgradeKind) -> Bool {
        switch kind {
        case .strongPassword: supportsStrongPassword
        case .signInWithApple: supportsSignInWithApple
        case .passkey: acceptsPasskeys
        }
    }

    public var teamID: String { String(appID.split(separator: ".").first ?? "") }
    /// The domains the manifest's app is associated with, `*.` kept.
    public var domains: [String] {
        associatedDomains.compactMap { $0.hasPrefix("webcredentials:") ? String($0.dropFirst("webcredentials:".count)).lowercased() : nil }
    }
    /// The domains whose universal links the app claims (`applinks:`), `*.` kept.
    public var appLinkDomains: [String] {
        associatedDomains.compactMap { $0.hasPrefix("applinks:") ? String($0.dropFirst("applinks:".count)).lowercased() : nil }
    }

    /// Whether the app claims a host's universal links: `applinks:HOST`, or
    /// `applinks:*.DOMAIN` for its subdomains. `www.` is a host of its own here, as it is to Apple.
    public func claimsAppLinks(_ host: String) -> Bool {
        let host = host.lowercased()
        return appLinkDomains.contains { domain in
            domain.hasPrefix("*.") ? host.hasSuffix(String(domain.dropFirst(1))) : host == domain
        }
    }

    /// The first associated domain: where the service lives.
    public var primaryDomain: String { domains.first.map { $0.hasPrefix("*.") ? String($0.dropFirst(2)) : $0 } ?? id }

    /// Whether the app's associated domains cover a host: an exact domain,
    /// or `*.domain` for the domain and every subdomain. `www.` is the bare domain.
    public func covers(_ host: String) -> Bool { claimedDomain(covering: host) != nil }

    /// The associated domain (as the manifest names it) that covers a host.
    public func claimedDomain(covering host: String) -> String? {
        var host = Domain.normalize(host)
        if host.hasPrefix("www.") { host = String(host.dropFirst(4)) }
        return domains.first { domain in
            if domain.hasPrefix("*.") {
                let base = String(domain.dropFirst(2))
                return host == base || host.hasSuffix("." + base)
            }
            return host == domain
        }
    }

    /// A domain as named in `webcredentials:`, without its `*.`.
    public static func base(_ domain: String) -> String { domain.hasPrefix("*.") ? String(domain.dropFirst(2)) : domain }

    public struct Invalid: Error, CustomStringConvertible, Equatable {
        public let file: String
        public let reason: String
        public var description: String { "\(file): \(reason)" }
    }

    /// A member's place as the file writes it: `signInWithAppleScopes.0`, not Swift's "Index 0".
    static func dotted(_ path: [CodingKey]) -> String { path.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".") }

    /// Decodes and checks one manifest.
    public static func decode(_ data: Data, file: String) throws -> ServiceManifest {
        let manifest: ServiceManifest
        do { manifest = try JSONDecoder().decode(ServiceManifest.self, from: data) } catch let DecodingError.keyNotFound(key, _) {
            throw Invalid(file: file, reason: "missing \"\(key.stringValue)\"")
        } catch let DecodingError.dataCorrupted(context) {
            let rule = context.debugDescription.hasPrefix("must be") ? " (\(context.debugDescription))" : ""
            throw Invalid(file: file, reason: context.codingPath.isEmpty ? "not valid JSON" : "bad \"\(Self.dotted(context.codingPath))\"" + rule)
        } catch let DecodingError.typeMismatch(_, context) {
            throw Invalid(file: file, reason: "\"\(Self.dotted(context.codingPath))\" has the wrong type")
        } catch {
            throw Invalid(file: file, reason: "not a service manifest")
        }
        guard !manifest.id.isEmpty, manifest.id.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }) else {
            throw Invalid(file: file, reason: "\"id\" must be letters, digits and hyphens")
        }
        guard manifest.appID.contains("."), !manifest.teamID.isEmpty else {
            throw Invalid(file: file, reason: "\"appID\" must be TEAMID.bundle.id")
        }
        guard !manifest.domains.isEmpty, manifest.domains.count + manifest.appLinkDomains.count == manifest.associatedDomains.count else {
            throw Invalid(file: file, reason: "\"associatedDomains\" must be webcredentials:DOMAIN entries (and applinks:DOMAIN for links)")
        }
        if manifest.twoFactor == .securityKey && !manifest.acceptsPasskeys {
            throw Invalid(file: file, reason: "\"twoFactor\": \"security-key\" needs \"supportsPasskeys\": true (the key answers the service's relying party)")
        }
        if let rules = manifest.passwordRules {
            do { _ = try PasswordRules.parse(rules) } catch {
                throw Invalid(file: file, reason: "\"passwordRules\": \(error)")
            }
        }
        return manifest
    }
}

extension ServiceManifest.Behaviour {
    /// A mock service answers within a minute at most: a demo never waits longer.
    public static let maximumLatencyMs = 60_000

    enum CodingKeys: String, CodingKey { case latencyMs, stepUp, failure, networkLossAtSheet, substitutesPassword, codeCoolDownMinutes }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        latencyMs = try c.decodeIfPresent(Int.self, forKey: .latencyMs) ?? 0
        guard (0...Self.maximumLatencyMs).contains(latencyMs) else {
            throw DecodingError.dataCorruptedError(forKey: .latencyMs, in: c, debugDescription: "must be a whole number of milliseconds from 0 to \(Self.maximumLatencyMs)")
        }
        stepUp = try c.decodeIfPresent(StepUp.self, forKey: .stepUp) ?? .never
        failure = try c.decodeIfPresent(Failure.self, forKey: .failure)
        networkLossAtSheet = try c.decodeIfPresent(Bool.self, forKey: .networkLossAtSheet) ?? false
        substitutesPassword = try c.decodeIfPresent(Bool.self, forKey: .substitutesPassword) ?? false
        codeCoolDownMinutes = try c.decodeIfPresent(Int.self, forKey: .codeCoolDownMinutes) ?? 15
        guard (1...1440).contains(codeCoolDownMinutes) else {
            throw DecodingError.dataCorruptedError(forKey: .codeCoolDownMinutes, in: c, debugDescription: "must be a whole number of minutes from 1 to 1440")
        }
    }
}
