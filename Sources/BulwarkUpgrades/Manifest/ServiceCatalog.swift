import BulwarkAssets
import BulwarkCore
import Foundation

/// The two upgrades an extension can offer.
public enum UpgradeKind: String, Sendable, CaseIterable {
    case strongPassword = "strong-password"
    case signInWithApple = "sign-in-with-apple"
    case passkey

    public var label: String {
        switch self {
        case .strongPassword: "upgrade to a strong password"
        case .signInWithApple: "convert to Sign in with Apple"
        case .passkey: "upgrade to a passkey"
        }
    }

    /// The first fix a recommendation offers: a passkey where the service
    /// takes one (nothing left to leak or reuse), then a strong password,
    /// then Sign in with Apple.
    public static let preference: [UpgradeKind] = [.passkey, .strongPassword, .signInWithApple]
}

/// Whether an upgrade is offered for an entry, and if not, why.
public enum Availability: Sendable, Equatable {
    case offered(ServiceManifest)
    case unavailable(String)

    public var manifest: ServiceManifest? { if case .offered(let m) = self { return m }; return nil }
    public var reason: String? { if case .unavailable(let r) = self { return r }; return nil }
}

/// Every service manifest bulwark knows: the built-in demo services, then
/// any from `--services DIR` (or the config file), which replace built-in
/// ones with the same id; and the apple-app-site-association file each
/// mock website serves. A service acts for a domain (an upgrade, a code
/// fill, the credential handed to its extension) only when both sides
/// agree: its manifest claims the domain and the site's file lists its app.
public struct ServiceCatalog: Sendable, ServiceRequirementsProvider {
    public let manifests: [ServiceManifest]
    /// The site files by domain.
    public let sites: [String: SiteAssociation]
    /// The OpenID providers services take sign-ins from.
    public let providers: [IdentityProviderManifest]
    /// Sites whose services share one credential backend (one account on
    /// them is one account, not reuse): the demo's Shiny and Shiny Store.
    public let sharedCredentialGroups: [[String]]

    /// What is one account across these services' sites, with a quirks directory's groups.
    public func sharing(_ quirks: QuirksDirectory?) -> SharedCredentials { .with(quirks, plus: sharedCredentialGroups) }
    /// Which manifest claims a domain, exactly or as `*.domain`: the
    /// analysis asks about every entry's site, and walking every manifest's
    /// domains per entry was a tenth of analysing 100k accounts.
    private let exactClaims: [String: Int]
    private let wildcardClaims: [String: Int]

    public init(manifests: [ServiceManifest], sites: [String: SiteAssociation] = [:], providers: [IdentityProviderManifest] = [],
                sharedCredentialGroups: [[String]] = []) {
        self.sharedCredentialGroups = sharedCredentialGroups
        self.manifests = manifests.sorted { $0.id < $1.id }
        self.sites = sites
        self.providers = providers.sorted { $0.id < $1.id }
        var exact: [String: Int] = [:], wildcard: [String: Int] = [:]
        for (index, manifest) in self.manifests.enumerated() {
            for domain in manifest.domains {
                let base = String(domain.dropFirst(2))
                if domain.hasPrefix("*.") { wildcard[base] = min(wildcard[base] ?? index, index) } else { exact[domain] = min(exact[domain] ?? index, index) }
            }
        }
        exactClaims = exact
        wildcardClaims = wildcard
    }

    public static func builtIn() throws -> ServiceCatalog {
        try ServiceCatalog(manifests: Assets.paths(under: "services", suffix: ".json").map { path in
            try ServiceManifest.decode(Assets.data(path) ?? Data(), file: "Assets/" + path)
        }, sites: SiteAssociation.builtIn(), providers: IdentityProviderManifest.builtIn(),
           sharedCredentialGroups: try SharedCredentials.parse(Assets.data("demo/shared-credentials.json") ?? Data("[]".utf8)))
    }

    /// The provider with this issuer.
    public func provider(issuer: String) -> IdentityProviderManifest? { providers.first { $0.issuer == issuer } }

    /// The provider whose login page is at this host (its accounts' entries are for that domain).
    /// Whether a manifest may act for an entry's site (normalised), or it is
    /// a provider's login domain: whether a service is involved with the entry.
    public func involves(site: String) -> Bool {
        guard !site.isEmpty else { return false }
        if let manifest = claim(forNormalizedHost: site), associationState(of: manifest, forHost: site) == .verified { return true }
        return providers.contains { $0.loginDomain == site }
    }

    public func provider(forHost host: String) -> IdentityProviderManifest? {
        let host = Domain.normalize(host)
        return host.isEmpty ? nil : providers.first { $0.loginDomain == host }
    }

    /// The built-in manifests plus a directory's `*.json`, each checked, and
    /// its `sites/DOMAIN.json` for websites the built-in world does not serve.
    /// Two services claiming one domain is refused, naming both.
    /// `demoServices`: the built-in mock services too (the demo's vault,
    /// and a vault `bulwark demo --setup` wrote). A person's own vault knows
    /// only the services it is given: a mock must never answer for it.
    public static func load(extraDirectory: String?, demoServices: Bool) throws -> ServiceCatalog {
        let builtIn = demoServices ? try builtIn() : ServiceCatalog(manifests: [], sites: [:], providers: [])
        var byID = Dictionary(uniqueKeysWithValues: builtIn.manifests.map { ($0.id, $0) })
        var fileOf = Dictionary(uniqueKeysWithValues: builtIn.manifests.map { ($0.id, "Assets/services/\($0.id).json") })
        var sites = builtIn.sites
        var providers = Dictionary(uniqueKeysWithValues: builtIn.providers.map { ($0.id, $0) })
        var providerFile = Dictionary(uniqueKeysWithValues: builtIn.providers.map { ($0.id, "Assets/providers/\($0.id).json") })
        if let extraDirectory {
            let url = URL(fileURLWithPath: extraDirectory)
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: url.path) else {
                throw ServiceManifest.Invalid(file: extraDirectory, reason: "no such directory")
            }
            for name in names.sorted() where name.hasSuffix(".json") {
                let file = url.appendingPathComponent(name)
                let manifest = try ServiceManifest.decode(try Data(contentsOf: file), file: file.path)
                byID[manifest.id] = manifest
                fileOf[manifest.id] = file.path
            }
            let siteDirectory = url.appendingPathComponent("sites")
            for name in ((try? FileManager.default.contentsOfDirectory(atPath: siteDirectory.path)) ?? []).sorted() where name.hasSuffix(".json") {
                let file = siteDirectory.appendingPathComponent(name)
                let domain = Domain.normalize(String(name.dropLast(".json".count)))
                guard builtIn.sites[domain] == nil else {
                    throw ServiceManifest.Invalid(file: file.path, reason: "\(domain) is a built-in website; only it serves its apple-app-site-association")
                }
                sites[domain] = try SiteAssociation.parse(try Data(contentsOf: file), file: file.path)
            }
            let providerDirectory = url.appendingPathComponent("providers")
            for name in ((try? FileManager.default.contentsOfDirectory(atPath: providerDirectory.path)) ?? []).sorted() where name.hasSuffix(".json") {
                let file = providerDirectory.appendingPathComponent(name)
                let provider = try IdentityProviderManifest.decode(try Data(contentsOf: file), file: file.path)
                providers[provider.id] = provider
                providerFile[provider.id] = file.path
            }
        }
        let catalog = ServiceCatalog(manifests: Array(byID.values), sites: sites, providers: Array(providers.values),
                                     sharedCredentialGroups: builtIn.sharedCredentialGroups)
        // "Log in with IDP" must name a provider that knows the service as a client, at that exact redirect URI.
        for manifest in catalog.manifests {
            for login in manifest.signInWith ?? [] {
                guard let provider = catalog.provider(issuer: login.issuer) else {
                    throw ServiceManifest.Invalid(file: fileOf[manifest.id] ?? manifest.id, reason: "signs in with \(login.issuer), which no provider manifest describes")
                }
                guard provider.client(login.clientID)?.redirectURIs.contains(login.redirectURI) == true else {
                    throw ServiceManifest.Invalid(file: fileOf[manifest.id] ?? manifest.id,
                                                  reason: "\(provider.name) has no client \(login.clientID) with redirect URI \(login.redirectURI)")
                }
            }
        }
        try catalog.checkProviders(fileOf: providerFile)
        if let (first, second, domain) = catalog.firstConflict() {
            // Named from the newcomer's side: the directory's file, not the built-in one.
            let (a, b) = fileOf[second.id]?.hasPrefix("Assets/") == true ? (second, first) : (first, second)
            throw ServiceManifest.Invalid(file: fileOf[b.id] ?? b.id,
                                          reason: "claims \(domain), which \(a.name) (\(fileOf[a.id] ?? a.id)) also claims; one domain belongs to one service, so neither is loaded")
        }
        return catalog
    }

    /// A provider's login page receives the stored password of the entry
    /// for its domain, so no domain is claimed twice: not a service's, not
    /// another provider's login page or issuer.
    func checkProviders(fileOf: [String: String]) throws {
        var seen: [String: IdentityProviderManifest] = [:]
        for provider in providers.sorted(by: { $0.id < $1.id }) {
            let file = fileOf[provider.id] ?? provider.id
            let login = Domain.normalize(provider.loginDomain)
            let issuerHost = URL(string: provider.issuer)?.host.map(Domain.normalize) ?? ""
            for domain in Set([login, issuerHost]) where !domain.isEmpty {
                if let service = claim(forNormalizedHost: domain) {
                    throw ServiceManifest.Invalid(file: file, reason: "its login domain \(domain) is claimed by the service \(service.name); one domain belongs to one service or provider, so neither is loaded")
                }
                if let other = seen[domain] {
                    throw ServiceManifest.Invalid(file: file, reason: "\(domain) is also \(other.name)'s (\(fileOf[other.id] ?? other.id)); one domain belongs to one provider")
                }
                seen[domain] = provider
            }
        }
    }

    /// Two manifests whose associated domains overlap (one names a domain the other covers).
    func firstConflict() -> (ServiceManifest, ServiceManifest, String)? {
        for (i, a) in manifests.enumerated() {
            for b in manifests[(i + 1)...] {
                if let domain = b.domains.first(where: { a.covers(ServiceManifest.base($0)) })
                    ?? a.domains.first(where: { b.covers(ServiceManifest.base($0)) }) {
                    return (a, b, domain)
                }
            }
        }
        return nil
    }

    public func manifest(id: String) -> ServiceManifest? { manifests.first { $0.id == id } }

    /// The manifest whose associated domains cover a host, whether or not the site agrees.
    public func claim(forHost host: String) -> ServiceManifest? {
        guard !host.isEmpty else { return nil }
        return claim(forNormalizedHost: Domain.normalize(host))
    }

    /// `claim(forHost:)` for a host already normalised (an entry's `site`).
    func claim(forNormalizedHost host: String) -> ServiceManifest? {
        guard !host.isEmpty else { return nil }
        // As `ServiceManifest.covers` reads a host: `www.` is the bare domain.
        var name = host
        if name.hasPrefix("www.") { name = String(name.dropFirst(4)) }
        // The first manifest (in the catalog's order) that claims it: the host
        // exactly, or the host or any domain above it as `*.`.
        var first = exactClaims[name]
        var suffix = Substring(name)
        while true {
            if let index = wildcardClaims[String(suffix)] { first = min(first ?? index, index) }
            guard let dot = suffix.firstIndex(of: ".") else { break }
            suffix = suffix[suffix.index(after: dot)...]
        }
        return first.map { manifests[$0] }
    }

    /// The manifest that may act for a host: it claims the host and the
    /// site's file lists its app.
    public func manifest(forHost host: String) -> ServiceManifest? {
        guard let manifest = claim(forHost: host), associationState(of: manifest, forHost: host) == .verified else { return nil }
        return manifest
    }

    /// The site file's answer for a manifest at a host: the file of the
    /// domain the manifest names (`*.northwind.example` is answered by
    /// northwind.example's file, as Apple fetches it).
    public func associationState(of manifest: ServiceManifest, forHost host: String) -> AssociationState {
        guard let domain = manifest.claimedDomain(covering: host) else { return .notListed }
        return associationState(of: manifest, domain: domain)
    }

    /// The same for one of the manifest's domains as it names it.
    public func associationState(of manifest: ServiceManifest, domain: String) -> AssociationState {
        guard let file = sites[ServiceManifest.base(domain)] else { return .noFile }
        return file.webCredentialApps.contains(manifest.appID) ? .verified : .notListed
    }

    /// Why a manifest that claims a host may not act for it; nil when it may.
    public func associationRefusal(forHost host: String) -> String? {
        guard let manifest = claim(forHost: host) else { return nil }
        let state = associationState(of: manifest, forHost: host)
        return state.refusal(appID: manifest.appID, domain: ServiceManifest.base(manifest.claimedDomain(covering: host) ?? host))
            .map { "\(manifest.name) claims \(host), but \($0)" }
    }

    /// Every domain the service may act for: its verified associated domains, `*.` dropped.
    public func verifiedDomains(of manifest: ServiceManifest) -> [String] {
        manifest.domains.filter { associationState(of: manifest, domain: $0) == .verified }.map(ServiceManifest.base)
    }

    /// The sites a domain-bound code may be filled for when signing in to
    /// `site`: the site, and every verified domain of the app that serves it
    /// (a code Shiny binds to shiny.example is Shiny's code at shinystore.example too).
    public func codeSites(for site: String) -> [String] {
        [site] + (manifest(forHost: site).map { verifiedDomains(of: $0) } ?? [])
    }

    /// An upgrade is offered only when a manifest's associated domains cover
    /// the entry's site and the manifest supports that upgrade.
    public func availability(_ kind: UpgradeKind, for entry: Entry) -> Availability {
        guard !entry.site.isEmpty else { return .unavailable("the entry has no website") }
        guard let manifest = manifest(forHost: entry.site) else {
            if let refusal = associationRefusal(forHost: entry.site) { return .unavailable(refusal) }
            return .unavailable("bulwark has no upgrade for \(entry.site)")
        }
        if entry.signInWithApple != nil { return .unavailable("this account already uses Sign in with Apple") }
        if entry.password == nil {
            let signsInWithPasskey = entry.passkeys.contains { Domain.normalize($0.rpID) == manifest.primaryDomain }
            return .unavailable(signsInWithPasskey ? "this account already signs in with a passkey" : "the entry has no password to upgrade")
        }
        if entry.pendingChange != nil { return .unavailable("an upgrade of this account is still being settled") }
        if kind == .passkey, entry.passkeys.contains(where: { Domain.normalize($0.rpID) == manifest.primaryDomain }) {
            return .unavailable("the entry already holds a passkey for \(manifest.primaryDomain)")
        }
        switch kind {
        case .strongPassword where !manifest.supportsStrongPassword:
            return .unavailable("\(manifest.name) does not support upgrading to a strong password")
        case .signInWithApple where !manifest.supportsSignInWithApple:
            return .unavailable("\(manifest.name) does not support Sign in with Apple")
        case .passkey where !manifest.acceptsPasskeys:
            return .unavailable("\(manifest.name) does not accept passkeys")
        default:
            return .offered(manifest)
        }
    }

    public func offeredUpgrades(for entry: Entry) -> [UpgradeKind] {
        UpgradeKind.preference.filter { availability($0, for: entry).manifest != nil }
    }

    // MARK: ServiceRequirementsProvider

    public func passwordRules(for host: String) -> String? { manifest(forHost: host)?.passwordRules }
    public func changePasswordURL(for host: String) -> String? { manifest(forHost: host)?.changePasswordURL }
    public func passkeyRelyingParty(for host: String) -> String? {
        manifest(forHost: host).flatMap { $0.acceptsPasskeys ? $0.primaryDomain : nil }
    }
    public func twoFactorMethod(for host: String) -> String? {
        manifest(forHost: host).flatMap { $0.twoFactor == .none ? nil : $0.twoFactor.rawValue }
    }
    public func accountService(for host: String) -> (twoFactorMethod: String?, passkeyRelyingParty: String?) {
        guard let manifest = manifest(forHost: host) else { return (nil, nil) }
        return (manifest.twoFactor == .none ? nil : manifest.twoFactor.rawValue, manifest.acceptsPasskeys ? manifest.primaryDomain : nil)
    }
}
