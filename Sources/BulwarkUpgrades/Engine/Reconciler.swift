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
        case settledPasskey(entry: String)
        /// The relying party kept the passkey but the service still takes the password: both stay.
        case keptPasskeyBesidePassword(entry: String)
    }

    @discardableResult
    public static func reconcile(vault: Vault, world: any ServiceDirectory, sharing: SharedCredentials? = nil) throws -> [Outcome] {
        let sharing = sharing ?? world.catalog.sharing(nil)
        var outcomes: [Outcome] = []
        for staged in vault.entries where staged.pendingChange != nil {
            guard let pending = staged.pendingChange else { continue }
            let backend = try world.accountServer(for: staged)
            let now = world.clock()
            // What the service accepts decides; the change is applied to the
            // row as the file holds it now, if it is still this staged change.
            let settle: (inout Entry) -> Void
            var settled = false
            switch pending.kind {
            case .strongPassword:
                if let password = pending.newPassword, let backend, try backend.passwordMatches(user: staged.username, password: password) {
                    settle = { $0.changePassword(to: password, reason: "upgraded to a strong password (settled after a restart)", at: now) }
                    settled = true
                    outcomes.append(.settledNewPassword(entry: staged.title))
                } else {
                    settle = { _ in }
                    outcomes.append(.keptOldPassword(entry: staged.title))
                }
            case .signInWithApple:
                // The credential Apple gave before the crash, if the service never got it: given now, once.
                if let backend, try backend.link(of: staged.username) == nil, let kept = pending.appleCredential.flatMap(KeptAppleCredential.init(text:)) {
                    try? backend.linkSignInWithApple(user: staged.username, credential: kept.credential, nonce: kept.nonce)
                }
                if let backend, let link = try backend.link(of: staged.username) {
                    settle = { entry in
                        entry.removePasswordAndHistory(at: now)
                        entry.signInWithApple = SignInWithAppleLink(user: link.appleUser, email: link.email, isPrivateRelay: link.isPrivateRelay)
                    }
                    settled = true
                    outcomes.append(.settledSignInWithApple(entry: staged.title))
                } else {
                    settle = { _ in }
                    outcomes.append(.keptPassword(entry: staged.title))
                }
            case .passkey:
                // The relying party decides whether the passkey stays; the
                // service whether the password still works.
                let rp = try world.catalog.manifest(forHost: staged.site).flatMap { try world.passkeyRelyingParty(for: $0) }
                let registered = try pending.passkeyID.map { try rp?.isRegistered($0) == true } ?? false
                let passkeyOnly = try backend?.isPasskeyOnly(staged.username) == true
                if registered && passkeyOnly {
                    settle = { $0.retirePassword(reason: "upgraded to a passkey (settled after a restart)", at: now) }
                    settled = true
                    outcomes.append(.settledPasskey(entry: staged.title))
                } else if registered {
                    settle = { _ in }
                    outcomes.append(.keptPasskeyBesidePassword(entry: staged.title))
                } else {
                    let id = pending.passkeyID
                    settle = { entry in entry.passkeys.removeAll { $0.id == id } }
                    outcomes.append(.keptPassword(entry: staged.title))
                }
            }
            // The account's other entries change with it, in the same write.
            let others = settled ? world.catalog.manifest(forHost: staged.site).map {
                AccountEntries.others(of: staged, in: vault.entries, manifest: $0, sharing: sharing).map(\.id)
            } ?? [] : []
            let written = try vault.updateEach([staged.id] + others) { entry in
                if entry.id == staged.id {
                    guard entry.pendingChange == pending else { return }
                    settle(&entry)
                    entry.pendingChange = nil
                } else if entry.pendingChange == nil {
                    settle(&entry)
                }
            }
            // Deleted by another process meanwhile: nothing to settle.
            if !written.contains(where: { $0.id == staged.id }) { continue }
        }
        return outcomes
    }
}

/// Signs in to an entry's service with what the vault holds: the
/// password, or Sign in with Apple for a converted account.
public enum SignInSimulator {
    /// `reauthorize`: the person chose Sign in with Apple again after the
    /// account was signed out (a revoked authorization); otherwise a
    /// signed-out link is refused with the way back.
    public static func signIn(_ entry: Entry, world: any ServiceDirectory, appleID: AppleIDAccount? = nil, reauthorize: Bool = false) throws -> ServiceSignIn {
        guard let manifest = world.catalog.manifest(forHost: entry.site) else {
            if let refusal = world.catalog.associationRefusal(forHost: entry.site) { return .refused(refusal) }
            return .refused("bulwark has no sign-in for \(entry.site.isEmpty ? "this entry" : entry.site); nothing was contacted")
        }
        let backend = try world.accountServer(for: manifest)
        if let link = entry.signInWithApple {
            // The app asks the identity provider first, as Apple's apps must on every launch.
            let state = try world.appleIDProvider().credentialState(user: link.user, team: manifest.teamID)
            if state == .transferred {
                return .refused("\(manifest.name) moved to another developer; the account moves with it when the vault is next unlocked")
            }
            let revoked = try state == .revoked || backend.isRevoked(appleUser: link.user)
            if try state == .notFound || !backend.hasAccount(linkedTo: link.user) {
                return .refused("\(manifest.name) has no account for this Apple ID any more (the authorization was deleted); sign up again")
            }
            if revoked && !reauthorize {
                return .refused("Sign in with Apple was stopped for \(manifest.name) in the Apple ID's settings, so the account is signed out; sign in with Apple again to continue")
            }
            let nonce = SecureRandom.bytes(16).hex
            let appleID = appleID ?? world.appleID
            let credential = try world.appleIDProvider().authorize(appleID: appleID.email, fullName: appleID.fullName, team: manifest.teamID,
                                                                  audience: manifest.appID, nonce: nonce, state: "signin",
                                                                  hideEmail: link.isPrivateRelay, scopes: manifest.requestedAppleIDScopes)
            let result = try backend.signInWithApple(identityToken: credential.identityToken, nonce: nonce)
            if case .accepted = result { try backend.clearRevoked(appleUser: link.user) }
            return result
        }
        guard let password = entry.password else {
            if entry.passkeys.contains(where: { $0.rpID == manifest.primaryDomain }) { return try signInWithPasskey(entry, world: world) }
            return .refused("the entry has no password")
        }
        return try backend.signIn(user: entry.username, password: password)
    }

    /// Signs in with the entry's passkey for the service, through the
    /// WebAuthn ceremony a browser would run at the service's own origin.
    public static func signInWithPasskey(_ entry: Entry, world: any ServiceDirectory) throws -> ServiceSignIn {
        guard let manifest = world.catalog.manifest(forHost: entry.site) else {
            return .refused("bulwark has no sign-in for \(entry.site.isEmpty ? "this entry" : entry.site); nothing was contacted")
        }
        guard let rp = try world.passkeyRelyingParty(for: manifest) else { return .refused("\(manifest.name) does not accept passkeys") }
        let origin = "https://\(rp.rpID)"
        let options = try RequestOptions.parse(try rp.authenticationOptions(user: entry.username, secondFactor: false))
        guard let found = try? PasskeyAuthenticator.candidates(options, origin: origin, among: entry.passkeys), let passkey = found.passkeys.first else {
            return .refused("the entry holds no passkey that \(manifest.name) knows")
        }
        do {
            let user = try rp.finishAuthentication(try PasskeyAuthenticator.assert(options, origin: found.origin, with: passkey).response)
            return .accepted(sessionToken: try world.accountServer(for: manifest).issueSession(user: user))
        } catch let refusal as RelyingPartyRefusal {
            return .refused(refusal.reason)
        }
    }
}
