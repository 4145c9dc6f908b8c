import BulwarkCore
import Foundation

/// What happens to a Sign in with Apple account after its conversion: the
/// credential state the identity provider reports (asked on unlock and
/// before every sign-in with Apple) and the notifications the service's
/// backend received, reflected in every entry of the account.
public enum AppleIDLifecycle {
    public struct Change: Sendable, Equatable {
        public let title: String
        public let what: String
        public var sentence: String { "\(title): \(what)" }
    }

    /// Brings every linked entry up to date with its service and the identity provider.
    @discardableResult
    public static func refresh(vault: Vault, world: any ServiceDirectory) throws -> [Change] {
        // Entries of one account share one link: its events are taken once and applied to all.
        var groups: [String: [Entry]] = [:]
        var order: [String] = []
        for entry in vault.entries {
            guard let link = entry.signInWithApple, let manifest = world.catalog.manifest(forHost: entry.site) else { continue }
            let key = manifest.id + "|" + link.user
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(entry)
        }
        var changes: [Change] = []
        var updates: [String: SignInWithAppleLink] = [:]
        // Each backend checks its refresh tokens (at most daily) before its events are taken.
        var checked = Set<String>()
        for key in order {
            guard let manifest = groups[key]?.first.flatMap({ world.catalog.manifest(forHost: $0.site) }), checked.insert(manifest.id).inserted else { continue }
            try world.accountServer(for: manifest).checkRefreshTokens()
        }
        for key in order {
            guard let entries = groups[key], let first = entries.first, var link = first.signInWithApple,
                  let manifest = world.catalog.manifest(forHost: first.site) else { continue }
            let before = link
            let backend = try world.accountServer(for: manifest)
            var reported = try world.appleIDProvider().credentialState(user: link.user, team: manifest.teamID)
            // An app moved to another team: the account moves to the id the new team knows.
            if reported == .transferred, let migrated = try backend.migrate(appleUser: link.user) {
                link.user = migrated
                changes += entries.map { Change(title: $0.title, what: "\(manifest.name) moved to another developer; the account was migrated to the id Sign in with Apple gives it there.") }
                reported = try world.appleIDProvider().credentialState(user: migrated, team: manifest.teamID)
            }
            for event in try backend.takeEvents(appleUser: link.user) {
                switch event {
                case .consentRevoked: link.state = .revoked
                case .accountDelete: link.state = .notFound
                case .emailDisabled: link.emailForwarding = false
                case .emailEnabled: link.emailForwarding = true
                }
            }
            link.state = SignInWithAppleLink.CredentialState(rawValue: reported.rawValue) ?? .notFound
            // The service's own word counts as much as Apple's: a refresh token that stopped
            // validating signed the person out there, whatever the credential state still says.
            if link.state == .authorized, try backend.isRevoked(appleUser: link.user) { link.state = .revoked }
            guard link != before else { continue }
            let migratedOnly = link.user != before.user && link.state == before.state && link.emailForwarding == before.emailForwarding
            for entry in entries {
                updates[entry.id] = link
                if !migratedOnly { changes.append(Change(title: entry.title, what: describe(from: before, to: link, service: manifest.name))) }
            }
        }
        if !updates.isEmpty {
            try vault.updateEach(Array(updates.keys).sorted()) { entry in
                if let link = updates[entry.id], entry.signInWithApple != nil { entry.signInWithApple = link }
            }
        }
        return changes
    }

    static func describe(from before: SignInWithAppleLink, to after: SignInWithAppleLink, service: String) -> String {
        var parts: [String] = []
        if before.state != after.state {
            let said: String = switch after.state {
            case .authorized: "Sign in with Apple is authorised again"
            case .revoked: "Sign in with Apple was stopped for \(service) in the Apple ID's settings; the account is signed out"
            case .notFound: "the Apple ID no longer knows \(service) (the person deleted it); the account is signed out"
            case .transferred: "\(service) moved to another developer; the account must be migrated"
            }
            parts.append(said)
        }
        if before.emailForwarding != after.emailForwarding {
            parts.append(after.emailForwarding ? "mail to \(after.email) is forwarded again" : "mail to \(after.email) is no longer forwarded")
        }
        return parts.joined(separator: "; ") + "."
    }
}
