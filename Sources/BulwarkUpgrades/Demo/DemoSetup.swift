import BulwarkAssets
import BulwarkCore
import Foundation

/// The embedded demo: about 40 accounts across every category that produce
/// every kind of recommendation, each signed up at its mock service so
/// every upgrade path can be shown (Assets/demo/vault.json).
public enum DemoSetup {
    public struct Seed: Decodable, Sendable {
        public struct Account: Decodable, Sendable {
            public let id, title, url, username, password: String
            public let changedDaysAgo: Int
            public let category: String?
            public let totp: String?
            public let tags: [String]?
            public let notes: String?
            /// The identity provider's issuer the account also signs in through.
            public let signsInWith: String?
        }
        public struct AppleID: Decodable, Sendable { public let email, fullName: String }
        public let masterPassword: String
        public let appleID: AppleID
        public let entries: [Account]
    }

    public static func seed() throws -> Seed {
        guard let data = Assets.data("demo/vault.json") else { throw VaultError.notFound("Assets/demo/vault.json") }
        return try JSONDecoder().decode(Seed.self, from: data)
    }

    /// The demo's person, signed in to the mock platform's Apple ID.
    public static let appleID: AppleIDAccount = (try? seed()).map { AppleIDAccount(email: $0.appleID.email, fullName: $0.appleID.fullName) }
        ?? AppleIDAccount(email: "jane.appleseed@icloud.example", fullName: "Jane Appleseed")

    /// The demo's entries, dated relative to `now`.
    public static func entries(now: Date) throws -> [Entry] {
        try seed().entries.map { account in
            let changed = now.addingTimeInterval(-Double(account.changedDaysAgo) * 86_400)
            let entry = Entry(id: account.id, title: account.title, urls: account.url.isEmpty ? [] : [account.url], username: account.username,
                              password: account.password, notes: account.notes ?? "", totpURI: account.totp, tags: account.tags ?? [],
                              category: account.category.flatMap(AccountCategory.init(rawValue:)), created: changed)
            var federated = entry
            federated.signsInWith = account.signsInWith
            return federated
        }
    }

    /// The file beside a vault (`vault.db.demo`) that says the vault was
    /// written by `bulwark demo` and speaks to the built-in mock services.
    /// Only the demo writes it; any other vault knows only the services it
    /// is given (`--services`, the config's `services`).
    public static func demoServicesMarker(besideVault vault: URL) -> URL {
        vault.deletingLastPathComponent().appendingPathComponent(vault.lastPathComponent + ".demo")
    }

    public static func usesDemoServices(vault: URL) -> Bool {
        FileManager.default.fileExists(atPath: demoServicesMarker(besideVault: vault).path)
    }

    /// Marks a vault as the demo's (see `demoServicesMarker`).
    public static func markAsDemo(vault: URL) throws {
        try Data("This vault was written by `bulwark demo`: it speaks to bulwark's built-in mock services.\n".utf8)
            .write(to: demoServicesMarker(besideVault: vault))
    }

    /// Writes the demo vault (`DIR/vault.db`, master password from the
    /// seed) and its services' state (`DIR/services/`) into a directory.
    @discardableResult
    public static func write(to directory: URL, catalog: ServiceCatalog, now: Date = Date(),
                             parameters: ScryptParameters = ScryptParameters(logN: 14)) throws -> URL {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let path = directory.appendingPathComponent("vault.db")
        let vault = try Vault.create(at: path, masterPassword: try seed().masterPassword, parameters: parameters)
        defer { vault.close() }
        let entries = try entries(now: now)
        try vault.save(entries)
        try markAsDemo(vault: path)
        let world = try ServiceWorld(directory: ServiceWorld.directory(besideVault: path), catalog: catalog, clock: { now })
        // Two entries can be one account (Shiny and Shiny Store share a backend): it is signed up once.
        for entry in entries where try world.backend(for: entry)?.hasAccount(entry.username) == false { _ = try world.enroll(entry) }
        // The person's accounts at identity providers (Nimbus ID's login).
        for entry in entries where catalog.provider(forHost: entry.site) != nil { _ = try world.enroll(entry) }
        // A service whose step-up asks for a security key: the account
        // registered one earlier, a passkey the entry keeps.
        for entry in entries {
            guard let manifest = world.catalog.manifest(forHost: entry.site), manifest.twoFactor == .securityKey,
                  let rp = try world.relyingParty(for: manifest) else { continue }
            let options = try CreationOptions.parse(try rp.registrationOptions(user: entry.username, userHandle: rp.userHandle(of: entry.username)))
            let created = try PasskeyAuthenticator.create(options, origin: "https://\(rp.rpID)", existing: [], now: now)
            try rp.finishRegistration(created.response)
            _ = try vault.update(entry.id) { $0.passkeys.append(created.passkey) }
        }
        return path
    }
}
