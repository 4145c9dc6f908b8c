/// Where a site's password rules or change-password URL came from.
public enum RequirementSource: String, Sendable, Equatable {
    case quirks, manifest, wellKnown = "well-known", none
}

/// Something that knows a service's own requirements (the service
/// manifests of the upgrades layer conform).
public protocol ServiceRequirementsProvider: Sendable {
    func passwordRules(for host: String) -> String?
    func changePasswordURL(for host: String) -> String?
    /// The two-factor method the service offers ("totp", "sms"), if any.
    func twoFactorMethod(for host: String) -> String?
    /// The relying party (RP ID) of a service that accepts passkeys, if it does.
    func passkeyRelyingParty(for host: String) -> String?
    /// Both of the above in one lookup: the analysis asks them of every account.
    func accountService(for host: String) -> (twoFactorMethod: String?, passkeyRelyingParty: String?)
}

extension ServiceRequirementsProvider {
    public func twoFactorMethod(for host: String) -> String? { nil }
    public func passkeyRelyingParty(for host: String) -> String? { nil }
    public func accountService(for host: String) -> (twoFactorMethod: String?, passkeyRelyingParty: String?) {
        (twoFactorMethod(for: host), passkeyRelyingParty(for: host))
    }
}

/// Looks up what a site asks of passwords and where to change one: the
/// quirks directory first, then the service manifests, then the standard
/// `/.well-known/change-password` (RFC 8615 well-known URI).
public struct SiteRequirements: Sendable {
    public var quirks: QuirksDirectory?
    public var services: ServiceRequirementsProvider?

    public init(quirks: QuirksDirectory? = nil, services: ServiceRequirementsProvider? = nil) {
        self.quirks = quirks
        self.services = services
    }

    public func passwordRules(for host: String) -> (rules: String, source: RequirementSource)? {
        if let entry = quirks?.rulesEntry(for: host) { return (entry.rules, .quirks) }
        if let rules = services?.passwordRules(for: Domain.normalize(host)) { return (rules, .manifest) }
        return nil
    }

    public func changePasswordURL(for host: String) -> (url: String, source: RequirementSource) {
        let host = Domain.normalize(host)
        if let url = quirks?.changePasswordURL(for: host) { return (url, .quirks) }
        if let url = services?.changePasswordURL(for: host) { return (url, .manifest) }
        return ("https://\(host)/.well-known/change-password", .wellKnown)
    }
}
