import BulwarkCore
import Foundation

/// A new account that signs in with Apple from the start: the sheet's
/// credential goes to the service's backend, which creates the account with
/// no password, and the vault gains an entry for it.
public enum SignUpWithApple {
    public struct Outcome: Sendable, Equatable {
        public let entry: Entry
        public let serviceName: String
        public var summary: String {
            let email = entry.signInWithApple.map { $0.email + ($0.isPrivateRelay ? " (a hidden e-mail)" : "") } ?? ""
            return "Signed up at \(serviceName) with Apple as \(email); the entry \"\(entry.title)\" has no password to keep."
        }
    }

    /// The accounts the vault holds at the service already (by the site the
    /// catalog gives it) that do not sign in with Apple yet, by title:
    /// signing up again would make a duplicate; upgrading one of them to Sign
    /// in with Apple is how a service avoids one (WWDC20, one-tap account
    /// security upgrades). One that signs in with Apple already is the
    /// service's to refuse ("sign in with Apple instead").
    public static func existingAccounts(at manifest: ServiceManifest, in entries: some Sequence<Entry>, catalog: ServiceCatalog) -> [Entry] {
        entries.filter { $0.signInWithApple == nil && !$0.site.isEmpty && catalog.manifest(forHost: $0.site)?.id == manifest.id }
            .sorted { $0.title < $1.title }
    }

    /// "Shiny (as jane@mail.example)", for saying which account is there.
    public static func describe(_ entry: Entry) -> String {
        entry.username.isEmpty ? entry.title : "\(entry.title) (as \(entry.username))"
    }

    public static func run(manifest: ServiceManifest, vault: Vault, world: any ServiceDirectory, appleID: AppleIDAccount? = nil,
                           hideEmail: Bool) throws -> Outcome {
        guard manifest.supportsSignInWithApple else { throw ServiceRefusal(reason: "\(manifest.name) does not offer Sign in with Apple") }
        guard world.catalog.manifest(forHost: manifest.primaryDomain)?.id == manifest.id else {
            throw ServiceRefusal(reason: world.catalog.associationRefusal(forHost: manifest.primaryDomain)
                                      ?? "\(manifest.name) is not associated with \(manifest.primaryDomain)")
        }
        let nonce = SecureRandom.bytes(16).hex, state = SecureRandom.bytes(16).hex
        let appleID = appleID ?? world.appleID
        let credential = try world.appleIDProvider().authorize(appleID: appleID.email, fullName: appleID.fullName, team: manifest.teamID,
                                                              audience: manifest.appID, nonce: nonce, state: state, hideEmail: hideEmail,
                                                              scopes: manifest.requestedAppleIDScopes)
        guard credential.state == state else { throw ServiceRefusal(reason: "The Sign in with Apple response did not belong to this request") }
        let backend = try world.accountServer(for: manifest)
        try backend.signUpWithApple(credential: credential, nonce: nonce)
        let titles = Set(vault.entries.map(\.title))
        let title = titles.contains(manifest.name) ? "\(manifest.name) (Sign in with Apple)" : manifest.name
        var entry = Entry(title: title, urls: ["https://\(manifest.primaryDomain)"], username: credential.email,
                          created: world.clock(), signInWithApple: SignInWithAppleLink(user: credential.user, email: credential.email,
                                                                                    isPrivateRelay: credential.isPrivateRelay))
        entry.modified = world.clock()
        try vault.save(entry)
        return Outcome(entry: entry, serviceName: manifest.name)
    }
}
