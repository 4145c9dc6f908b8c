import BulwarkCore
import Foundation

/// Settles upgrades a crash left staged: asks each entry's service which
/// credential it now accepts, and keeps that one. Runs before anything
/// else uses the services (the upgrade and signin commands, the app).
public enum Reconciler {
    public enum Outcome: Sendable, Equatable {
        case settledNewPassword(entry: String)
        case keptOldPassword(entry: String)
        case settledSignInWithApple(entry: String)
        case keptPassword(entry: String)
    }

    @discardableResult
    public static func reconcile(vault: Vault, world: ServiceWorld) throws -> [Outcome] {
        var outcomes: [Outcome] = []
        for staged in vault.entries where staged.pendingChange != nil {
            guard let pending = staged.pendingChange else { continue }
            let backend = try world.backend(for: staged)
            let now = world.clock()
            // What the service accepts decides; the change is applied to the
            // row as the file holds it now, if it is still this staged change.
            let settle: (inout Entry) -> Void
            switch pending.kind {
            case .strongPassword:
                if let password = pending.newPassword, let backend, try backend.passwordMatches(user: staged.username, password: password) {
                    settle = { $0.changePassword(to: password, reason: "upgraded to a strong password (settled after a restart)", at: now) }
                    outcomes.append(.settledNewPassword(entry: staged.title))
                } else {
                    settle = { _ in }
                    outcomes.append(.keptOldPassword(entry: staged.title))
                }
            case .signInWithApple:
                if let backend, let link = try backend.link(of: staged.username) {
                    settle = { entry in
                        entry.changePassword(to: nil, reason: "converted to Sign in with Apple (settled after a restart)", at: now)
                        entry.signInWithApple = SignInWithAppleLink(user: link.appleUser, email: link.email, isPrivateRelay: link.isPrivateRelay)
                    }
                    outcomes.append(.settledSignInWithApple(entry: staged.title))
                } else {
                    settle = { _ in }
                    outcomes.append(.keptPassword(entry: staged.title))
                }
            }
            do {
                try vault.update(staged.id) { entry in
                    guard entry.pendingChange == pending else { return }
                    settle(&entry)
                    entry.pendingChange = nil
                }
            } catch VaultError.entryNotFound {
                continue  // deleted by another process meanwhile: nothing to settle
            }
        }
        return outcomes
    }

    /// Applies the identity provider's notifications to the entries linked to them.
    public static func applyNotifications(vault: Vault, world: ServiceWorld) throws -> Int {
        var changed = 0
        for note in try world.identityProvider.takeNotifications() {
            for entry in vault.entries where entry.signInWithApple?.user == note.user {
                let state: SignInWithAppleLink.CredentialState
                switch note.kind {
                case .consentRevoked: state = .revoked
                case .accountDelete: state = .notFound
                case .emailDisabled, .emailEnabled: continue
                }
                try vault.update(entry.id) { $0.signInWithApple?.state = state }
                changed += 1
            }
        }
        return changed
    }
}

/// Signs in to an entry's mock service with what the vault holds: the
/// password, or Sign in with Apple for a converted account.
public enum SignInSimulator {
    public static func signIn(_ entry: Entry, world: ServiceWorld, appleID: AppleIDAccount = .demo) throws -> MockBackend.SignIn {
        guard let manifest = world.catalog.manifest(forHost: entry.site) else {
            return .refused("no service extension is associated with \(entry.site.isEmpty ? "this entry" : entry.site)")
        }
        let backend = try world.backend(for: manifest)
        if entry.signInWithApple != nil {
            let nonce = SecureRandom.bytes(16).hex
            let credential = try world.identityProvider.authorize(appleID: appleID.email, fullName: appleID.fullName, team: manifest.teamID,
                                                                  audience: manifest.appID, nonce: nonce, state: "signin",
                                                                  hideEmail: entry.signInWithApple?.isPrivateRelay ?? false)
            return try backend.signInWithApple(identityToken: credential.identityToken, nonce: nonce)
        }
        guard let password = entry.password else { return .refused("the entry has no password") }
        return try backend.signIn(user: entry.username, password: password)
    }
}
