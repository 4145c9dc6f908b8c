import BulwarkCore
import Foundation

/// The mock services' side of the world, in a directory beside the vault
/// (`services/` next to `vault.db`): one SQLite file per service backend,
/// the identity provider's, and the Messages inbox's. Nothing here is in
/// the vault, as a real service's data would not be.
public final class ServiceWorld {
    public let directory: URL
    /// The services as they are now (after app transfers)…
    public let catalog: ServiceCatalog
    /// …and as the manifests and sites files describe them.
    public let baseCatalog: ServiceCatalog
    public let identityProvider: MockIdentityProvider
    public let inbox: MessagesInbox
    public let clock: @Sendable () -> Date
    /// The Apple ID "signed in on this machine": the demo's person.
    public let appleID: AppleIDAccount
    /// Waits a manifest's latency (tests pass one that does not wait).
    public let sleep: @Sendable (Int) -> Void
    private var backends: [String: MockBackend] = [:]
    /// What its services draw at random (a seed for a recorded demo).
    public var draws = MockDraws.system
    private var relyingParties: [String: MockRelyingParty] = [:]
    private var authorizationServers: [String: MockAuthorizationServer] = [:]

    /// Whether the directory is a private temporary one, removed with the world.
    public let isTemporary: Bool

    public static func directory(besideVault vault: URL) -> URL {
        vault.deletingLastPathComponent().appendingPathComponent("services")
    }

    /// A world for a vault: beside it once a service is involved (its
    /// `services/` exists, or a manifest covers one of its entries); else in
    /// a private temporary directory, removed with the world, so a vault no
    /// service covers gains no `services/` folder from merely being opened.
    public static func forVault(_ vault: URL, entries: [Entry], catalog: ServiceCatalog, appleID: AppleIDAccount = DemoSetup.appleID,
                                clock: @escaping @Sendable () -> Date = { Date() },
                                sleep: @escaping @Sendable (Int) -> Void = { ms in if ms > 0 { usleep(UInt32(ms) * 1000) } }) throws -> ServiceWorld {
        let beside = directory(besideVault: vault)
        let involved = FileManager.default.fileExists(atPath: beside.path) || involves(entries, catalog)
        if involved { return try ServiceWorld(directory: beside, catalog: catalog, appleID: appleID, clock: clock, sleep: sleep) }
        let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("bulwark-services-\(getpid())-\(UUID().uuidString.prefix(8))")
        return try ServiceWorld(directory: temporary, catalog: catalog, appleID: appleID, clock: clock, sleep: sleep, temporary: true)
    }

    /// Whether a service is involved with any entry: the two halves of a
    /// large vault on two cores (it runs before a large vault's first frame).
    static func involves(_ entries: [Entry], _ catalog: ServiceCatalog) -> Bool {
        guard entries.count > 4096 else { return entries.contains { catalog.involves(site: $0.site) } }
        let found = Flag()
        DispatchQueue.concurrentPerform(iterations: 2) { half in
            let range = half == 0 ? 0..<(entries.count / 2) : (entries.count / 2)..<entries.count
            for index in range where !found.isSet {
                if catalog.involves(site: entries[index].site) { found.set() }
            }
        }
        return found.isSet
    }

    private final class Flag: @unchecked Sendable {  // guarded by lock
        private let lock = NSLock()
        private var value = false
        var isSet: Bool { lock.withLock { value } }
        func set() { lock.withLock { value = true } }
    }

    deinit {
        if isTemporary { try? FileManager.default.removeItem(at: directory) }
    }

    public init(directory: URL, catalog: ServiceCatalog, appleID: AppleIDAccount = DemoSetup.appleID, clock: @escaping @Sendable () -> Date = { Date() },
                sleep: @escaping @Sendable (Int) -> Void = { ms in if ms > 0 { usleep(UInt32(ms) * 1000) } }, temporary: Bool = false) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        self.directory = directory
        isTemporary = temporary
        self.clock = clock
        self.sleep = sleep
        self.appleID = appleID
        identityProvider = try MockIdentityProvider(path: directory.appendingPathComponent("identity-provider.db").path, clock: clock)
        // Services whose apps moved to another team are known by their new app id from then on.
        baseCatalog = catalog
        self.catalog = catalog.applying(try identityProvider.appTransfers())
        inbox = try MessagesInbox(path: directory.appendingPathComponent("messages.db").path, clock: clock)
        restrictModes()
    }

    public func backend(for manifest: ServiceManifest) throws -> MockBackend {
        if let existing = backends[manifest.id] { return existing }
        let backend = try MockBackend(manifest: manifest, path: directory.appendingPathComponent("\(manifest.id).db").path,
                                      inbox: inbox, identityProvider: identityProvider, clock: clock)
        backend.draws = draws
        backends[manifest.id] = backend
        restrictModes()
        return backend
    }

    /// The service's WebAuthn relying party, when it accepts passkeys: its
    /// RP ID the service's primary domain, its origins its associated domains'.
    public func relyingParty(for manifest: ServiceManifest) throws -> MockRelyingParty? {
        guard manifest.acceptsPasskeys else { return nil }
        if let existing = relyingParties[manifest.id] { return existing }
        // Each associated domain's own origin (a `*.` domain's base: its subdomains are not enumerable).
        var origins: [String] = []
        for domain in manifest.domains.map({ "https://" + ServiceManifest.base($0) }) where !origins.contains(domain) { origins.append(domain) }
        let rp = try MockRelyingParty(rpID: manifest.primaryDomain, rpName: manifest.name, origins: origins,
                                      path: directory.appendingPathComponent("\(manifest.id)-webauthn.db").path, clock: clock)
        relyingParties[manifest.id] = rp
        restrictModes()
        return rp
    }

    /// The authorization server of the provider with this issuer, its state in `PROVIDER-ID-oauth.db`.
    public func authorizationServer(issuer: String) throws -> MockAuthorizationServer? {
        guard let manifest = catalog.provider(issuer: issuer) else { return nil }
        if let existing = authorizationServers[manifest.id] { return existing }
        let server = try MockAuthorizationServer(manifest: manifest, path: directory.appendingPathComponent("\(manifest.id)-oauth.db").path, clock: clock)
        authorizationServers[manifest.id] = server
        restrictModes()
        return server
    }

    /// The browser's cookie jar: shared (a file of the world) or ephemeral (memory only).
    public func cookieJar(ephemeral: Bool) throws -> CookieJar {
        defer { restrictModes() }
        return try CookieJar(path: ephemeral ? nil : directory.appendingPathComponent("browser-cookies.db").path, clock: clock)
    }

    /// A web authentication session for "Log in with IDP" at the entry's
    /// service, through `issuer` (else the first provider the service takes).
    public func webAuthenticationSession(for entry: Entry, issuer: String? = nil, ephemeral: Bool) throws -> WebAuthenticationSession? {
        guard let manifest = catalog.manifest(forHost: entry.site),
              let login = manifest.signInWith?.first(where: { issuer == nil || $0.issuer == issuer }),
              let server = try authorizationServer(issuer: login.issuer) else { return nil }
        return WebAuthenticationSession(service: manifest, login: login, provider: server, backend: try backend(for: manifest),
                                        jar: try cookieJar(ephemeral: ephemeral))
    }

    /// A fresh extension for one request.
    public func makeExtension(for manifest: ServiceManifest) throws -> MockServiceExtension {
        MockServiceExtension(manifest: manifest, backend: try backend(for: manifest), relyingParty: try relyingParty(for: manifest), sleep: sleep)
    }

    /// The entry's service, when a manifest covers its site.
    public func backend(for entry: Entry) throws -> MockBackend? {
        try catalog.manifest(forHost: entry.site).map(backend(for:))
    }

    /// Where `enroll` signed an account up: a service, or an identity
    /// provider's login (its name either way).
    public enum Enrolled: Sendable, Equatable {
        case service(ServiceManifest)
        case provider(IdentityProviderManifest)

        public var name: String {
            switch self {
            case .service(let manifest): manifest.name
            case .provider(let provider): provider.name
            }
        }
    }

    /// Signs the entry's account up at its service with its current
    /// credential (and its TOTP secret, when it holds one); nil when no
    /// service or provider is the entry's, or it has no password.
    @discardableResult
    public func enroll(_ entry: Entry, phone: String? = "+1 555 0100 42") throws -> Enrolled? {
        // The login account at an identity provider (its login page's domain).
        if let provider = catalog.provider(forHost: entry.site), let password = entry.password,
           let server = try authorizationServer(issuer: provider.issuer) {
            if try !server.hasAccount(entry.username) { try server.enroll(email: entry.username, password: password, totpSecret: entry.totpURI) }
            return .provider(provider)
        }
        guard let manifest = catalog.manifest(forHost: entry.site), let password = entry.password else { return nil }
        try backend(for: manifest).enroll(user: entry.username, password: password, totpSecret: entry.totpURI,
                                          phone: manifest.twoFactor == .sms ? phone : nil)
        return .service(manifest)
    }

    private func restrictModes() {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for name in files { chmod(directory.appendingPathComponent(name).path, 0o600) }
    }
}
