import BulwarkCore
import Foundation
import Testing
@testable import BulwarkUpgrades

/// After a conversion: what the person changes in their Apple ID settings
/// reaches the service as a signed event, and the vault and sign-in follow.
@Suite struct AppleIDLifecycleTests {
    /// Shiny converted, with Shiny Store as a second entry of the same account.
    static func converted(hidingTheEmail hide: Bool = true) throws -> UpgradeFixture {
        let f = try UpgradeFixture()
        try f.vault.save([Entry(id: "store", title: "Shiny Store", urls: ["https://shinystore.example"], username: "jane", password: "shiny-old-1")])
        guard case .sheet = f.start("shiny", .signInWithApple) else { throw MockBackend.Refusal(reason: "no sheet") }
        _ = f.engine.chooseEmail(hide: hide)
        guard case .completed = f.engine.continueWithApple() else { throw MockBackend.Refusal(reason: "not converted") }
        return f
    }

    func signIn(_ f: UpgradeFixture, _ id: String, again: Bool = false) throws -> MockBackend.SignIn {
        try SignInSimulator.signIn(f.entry(id), world: f.world, reauthorize: again)
    }

    @Test func consentRevokedSignsTheAccountOutUntilSignInWithAppleAgain() throws {
        let f = try Self.converted()
        let backend = try #require(try f.world.backend(for: f.entry("shiny")))
        guard case .accepted(let session) = try signIn(f, "shiny") else { Issue.record("no sign-in"); return }
        let event = try f.world.notify(.consentRevoked, entry: f.entry("shiny"))
        #expect(event.kind == .consentRevoked && event.subject == f.entry("shiny").signInWithApple?.user)
        #expect(try backend.sessionUser(session) == nil)  // the backend signed the person out
        let changes = try AppleIDLifecycle.refresh(vault: f.vault, world: f.world)
        #expect(changes.map(\.sentence) == [
            "Shiny: Sign in with Apple was stopped for Shiny in the Apple ID's settings; the account is signed out.",
            "Shiny Store: Sign in with Apple was stopped for Shiny in the Apple ID's settings; the account is signed out.",
        ])
        #expect(f.entry("shiny").signInWithApple?.state == .revoked && f.entry("store").signInWithApple?.isSignedOut == true)
        #expect(try signIn(f, "store") == .refused("Sign in with Apple was stopped for Shiny in the Apple ID's settings, so the account is signed out; sign in with Apple again to continue"))
        guard case .accepted = try signIn(f, "store", again: true) else { Issue.record("not re-authorised"); return }
        #expect(try AppleIDLifecycle.refresh(vault: f.vault, world: f.world).map(\.what) == ["Sign in with Apple is authorised again.", "Sign in with Apple is authorised again."])
        guard case .accepted = try signIn(f, "shiny") else { Issue.record("still signed out"); return }
        #expect(try AppleIDLifecycle.refresh(vault: f.vault, world: f.world).isEmpty)  // nothing twice
    }

    @Test func accountDeleteRemovesTheServiceAccount() throws {
        let f = try Self.converted()
        let backend = try #require(try f.world.backend(for: f.entry("shiny")))
        try f.world.notify(.accountDelete, entry: f.entry("shiny"))
        #expect(try !backend.hasAccount("jane"))
        try AppleIDLifecycle.refresh(vault: f.vault, world: f.world)
        #expect(f.entry("shiny").signInWithApple?.state == .notFound)
        let refusal = MockBackend.SignIn.refused("Shiny has no account for this Apple ID any more (the authorization was deleted); sign up again")
        #expect(try signIn(f, "shiny") == refusal && signIn(f, "shiny", again: true) == refusal)
    }

    @Test func theRelaysForwardingIsKeptInTheVault() throws {
        let f = try Self.converted()
        try f.world.notify(.emailDisabled, entry: f.entry("store"))
        let changes = try AppleIDLifecycle.refresh(vault: f.vault, world: f.world)
        let relay = try #require(f.entry("shiny").signInWithApple?.email)
        #expect(changes.first?.what == "mail to \(relay) is no longer forwarded.")
        #expect(f.entry("shiny").signInWithApple?.emailForwarding == false && f.entry("shiny").signInWithApple?.state == .authorized)
        // Sealed in the vault: a fresh open reads it back.
        let reopened = try Vault.open(at: f.directory.appendingPathComponent("vault.db"), masterPassword: "m")
        #expect(reopened.entries.first { $0.id == "store" }?.signInWithApple?.emailForwarding == false)
        try f.world.notify(.emailEnabled, entry: f.entry("store"))
        #expect(try AppleIDLifecycle.refresh(vault: f.vault, world: f.world).first?.what == "mail to \(relay) is forwarded again.")
        #expect(f.entry("store").signInWithApple?.emailForwarding == true)
    }

    /// Apple sends the e-mail events only for an account behind the private
    /// relay (WWDC20, "Get the most out of Sign in with Apple"): for one that
    /// shares its real address the provider sends nothing, and a backend that
    /// receives one anyway (signed, fresh) refuses it, naming why.
    @Test func theEmailEventsAreOnlyForAnAccountBehindTheRelay() throws {
        let f = try Self.converted(hidingTheEmail: false)
        let link = try #require(f.entry("shiny").signInWithApple)
        #expect(link.email == "jane.appleseed@icloud.example")
        #expect(throws: MockIdentityProvider.NotSent(kind: .emailDisabled)) { try f.world.notify(.emailDisabled, entry: f.entry("store")) }
        #expect("\(MockIdentityProvider.NotSent(kind: .emailDisabled))" == "Sign in with Apple sends email-disabled only for an account that hides its e-mail behind the private relay; this one shares its real address, so nothing was sent")
        let shiny = try #require(try f.world.backend(for: f.entry("shiny")))
        let forged = f.world.identityProvider.signEvent(.emailEnabled, user: link.user, audience: "SHINY00001.example.shiny")
        #expect(throws: MockBackend.Refusal(reason: "the notification was refused: email-enabled is only for an account that uses the private relay, and this one shares its real address")) {
            try shiny.receive(notification: forged)
        }
        #expect(try AppleIDLifecycle.refresh(vault: f.vault, world: f.world).isEmpty)
        #expect(f.entry("shiny").signInWithApple?.emailForwarding == true)
        // The other events are for every account.
        try f.world.notify(.consentRevoked, entry: f.entry("store"))
        #expect(try AppleIDLifecycle.refresh(vault: f.vault, world: f.world).count == 2)
    }

    /// The credential state is asked on unlock even when no event arrived.
    @Test func aStateChangedWithoutAnEventIsFoundOnUnlock() throws {
        let f = try Self.converted()
        let link = try #require(f.entry("shiny").signInWithApple)
        try f.world.identityProvider.notify(.consentRevoked, user: link.user, team: "SHINY00001")
        try AppleIDLifecycle.refresh(vault: f.vault, world: f.world)
        #expect(f.entry("shiny").signInWithApple?.state == .revoked)
    }

    @Test func forgedAndReplayedEventsAreRefused() throws {
        let f = try Self.converted()
        let shiny = try #require(try f.world.backend(for: f.entry("shiny")))
        let user = try #require(f.entry("shiny").signInWithApple?.user)
        let forOtherApp = f.world.identityProvider.signEvent(.accountDelete, user: user, audience: "CLOUDNOTES.example.cloudnotes")
        #expect(throws: MockBackend.Refusal(reason: "the notification was refused: the identity token is for another app")) {
            try shiny.receive(notification: forOtherApp)
        }
        let genuine = f.world.identityProvider.signEvent(.accountDelete, user: user, audience: "SHINY00001.example.shiny")
        var parts = genuine.split(separator: ".").map(String.init)
        parts[2] = String(parts[2].reversed())
        #expect(throws: MockBackend.Refusal(reason: "the notification was refused: the identity token's signature does not verify")) {
            try shiny.receive(notification: parts.joined(separator: "."))
        }
        #expect(try shiny.hasAccount("jane"))
        f.clock.advance(2 * 86_400)
        #expect(throws: MockBackend.Refusal(reason: "the notification was refused: the identity token has expired")) {
            try shiny.receive(notification: genuine)
        }
        let fresh = f.world.identityProvider.signEvent(.emailDisabled, user: user, audience: "SHINY00001.example.shiny")
        _ = try shiny.receive(notification: fresh)
        #expect(throws: MockBackend.Refusal(reason: "the notification was already delivered")) { try shiny.receive(notification: fresh) }
    }

    /// A revocation whose notification never came: the backend's daily
    /// refresh-token check finds it, on the world's clock, not before.
    @Test func theDailyRefreshTokenCheckFindsARevocationWithNoNotification() throws {
        let f = try Self.converted()
        let backend = try #require(try f.world.backend(for: f.entry("shiny")))
        let link = try #require(f.entry("shiny").signInWithApple)
        try f.world.identityProvider.notify(.consentRevoked, user: link.user, team: "SHINY00001")  // the provider only
        #expect(try backend.checkRefreshTokens() == 0 && !backend.isRevoked(appleUser: link.user))  // checked less than a day ago
        f.clock.advance(MockBackend.refreshCheckInterval)
        #expect(try backend.checkRefreshTokens() == 1 && backend.isRevoked(appleUser: link.user))
        #expect(try backend.takeEvents(appleUser: link.user) == [.consentRevoked])
        #expect(try backend.checkRefreshTokens() == 0)  // once a day
    }

    /// The service signed the person out (its daily refresh-token check)
    /// while Apple's credential state still reads authorised: the vault
    /// says signed out, as the service does (it said `authorized`).
    @Test func aSignOutByTheServiceReachesTheVaultWhateverAppleSays() throws {
        let f = try Self.converted()
        let backend = try #require(try f.world.backend(for: f.entry("shiny")))
        let link = try #require(f.entry("shiny").signInWithApple)
        try backend.signOut(appleUser: link.user, because: .consentRevoked)
        _ = try backend.takeEvents(appleUser: link.user)  // the event was taken elsewhere: only the backend's state says it
        #expect(try f.world.identityProvider.credentialState(user: link.user, team: "SHINY00001") == .authorized)
        _ = try AppleIDLifecycle.refresh(vault: f.vault, world: f.world)
        #expect(try f.entry("shiny").signInWithApple?.state == .revoked && f.entry("shiny").signInWithApple?.isSignedOut == true)
    }

    @Test func tokensAreExchangedOnceAndKeptByTheBackend() throws {
        let f = try UpgradeFixture()
        let idp = f.world.identityProvider
        let credential = try idp.authorize(appleID: "a@icloud.example", fullName: "A", team: "SHINY00001", audience: "SHINY00001.example.shiny",
                                           nonce: "n", state: "s", hideEmail: false)
        #expect(credential.realUserStatus == .likelyReal && credential.fullName == "A")
        #expect(throws: MockIdentityProvider.Refusal.wrongAudience) { try idp.exchange(code: credential.authorizationCode, audience: "CLOUDNOTES.example.cloudnotes") }
        let tokens = try idp.exchange(code: credential.authorizationCode, audience: "SHINY00001.example.shiny")
        #expect(tokens.subject == credential.user && tokens.expiresIn == 3600 && tokens.refreshToken.hasPrefix("r"))
        #expect(throws: MockIdentityProvider.Refusal.codeReused) { try idp.exchange(code: credential.authorizationCode, audience: "SHINY00001.example.shiny") }
        #expect(try idp.validate(refreshToken: tokens.refreshToken, audience: "SHINY00001.example.shiny", team: "SHINY00001"))
        #expect(try !idp.validate(refreshToken: tokens.refreshToken, audience: "CLOUDNOTES.example.cloudnotes", team: "CLOUDNOTES"))
        // The second authorization says nothing of the person, and no name.
        let again = try idp.authorize(appleID: "a@icloud.example", fullName: "A", team: "SHINY00001", audience: "SHINY00001.example.shiny",
                                      nonce: "n2", state: "s", hideEmail: false)
        #expect(again.realUserStatus == .unknown && again.fullName == nil)
    }

    /// What the app asks for is all it gets: no e-mail scope, no e-mail claim.
    @Test func scopesLimitWhatIsShared() throws {
        let f = try UpgradeFixture()
        let idp = f.world.identityProvider
        let bare = try idp.authorize(appleID: "b@icloud.example", fullName: "B", team: "SHINY00001", audience: "SHINY00001.example.shiny",
                                     nonce: "n", state: "s", hideEmail: true, scopes: [])
        #expect(bare.email.isEmpty && bare.fullName == nil && !bare.isPrivateRelay && bare.authorizedScopes.isEmpty)
        let claims = try idp.verify(token: bare.identityToken, audience: "SHINY00001.example.shiny", nonce: "n")
        #expect(claims.email.isEmpty)
        let backend = try #require(try f.world.backend(for: f.entry("shiny")))
        #expect(throws: MockBackend.Refusal(reason: "Shiny needs an e-mail address to sign up")) {
            try backend.signUpWithApple(credential: bare, nonce: "n")
        }
    }

    @Test func theBackendKeepsWhatSignInWithAppleSaidOfThePerson() throws {
        let f = try Self.converted()
        let backend = try #require(try f.world.backend(for: f.entry("shiny")))
        #expect(try backend.realUserStatus(appleUser: f.entry("shiny").signInWithApple!.user) == .likelyReal)
    }

    /// Shiny's app moves to another team: the old id reports `transferred`,
    /// the backend migrates through the transfer identifier, the vault follows.
    @Test func anAppTransferMigratesTheAccount() throws {
        let f = try Self.converted()
        let old = try #require(f.entry("shiny").signInWithApple?.user)
        let shiny = try #require(f.world.catalog.manifest(id: "shiny"))
        #expect(try f.world.identityProvider.transfer(shiny, toTeam: "NEWTEAM001") == 1)
        let world = try ServiceWorld(directory: f.world.directory, catalog: f.world.baseCatalog, clock: f.world.clock, sleep: { _ in })
        let moved = try #require(world.catalog.manifest(id: "shiny"))
        #expect(moved.appID == "NEWTEAM001.example.shiny" && world.catalog.manifest(forHost: "shiny.example")?.id == "shiny")
        #expect(try world.identityProvider.credentialState(user: old, team: "NEWTEAM001") == .transferred)
        #expect(try world.identityProvider.credentialState(user: old, team: "SHINY00001") == .transferred)
        #expect(try SignInSimulator.signIn(f.entry("shiny"), world: world)
                == .refused("Shiny moved to another developer; the account moves with it when the vault is next unlocked"))
        let changes = try AppleIDLifecycle.refresh(vault: f.vault, world: world)
        #expect(changes.map(\.title) == ["Shiny", "Shiny Store"])
        let new = try #require(f.entry("shiny").signInWithApple?.user)
        #expect(new != old && f.entry("store").signInWithApple?.user == new && f.entry("shiny").signInWithApple?.state == .authorized)
        #expect(try world.backend(for: moved).hasAccount(linkedTo: new) && !world.backend(for: moved).hasAccount(linkedTo: old))
        guard case .accepted = try SignInSimulator.signIn(f.entry("store"), world: world) else { Issue.record("no sign-in after the move"); return }
        #expect(try AppleIDLifecycle.refresh(vault: f.vault, world: world).isEmpty)
    }
}
