import BulwarkCore
import Foundation
import Testing
@testable import BulwarkUpgrades

/// What the backend and the extension refuse: a token with the wrong
/// nonce, a reused authorization code, a state mismatch, an expired token,
/// and password sign-in after conversion.
@Suite struct SignInWithAppleSecurityTests {
    func credential(_ f: UpgradeFixture, nonce: String, state: String = "s") throws -> (AppleIDCredential, MockBackend) {
        let manifest = f.world.catalog.manifest(id: "shiny")!
        let credential = try f.world.identityProvider.authorize(appleID: "jane.appleseed@icloud.example", fullName: "Jane", team: manifest.teamID,
                                                                audience: manifest.appID, nonce: nonce, state: state, hideEmail: false)
        return (credential, try f.world.backend(for: manifest))
    }

    @Test func aTokenWithTheWrongNonceIsRefused() throws {
        let f = try UpgradeFixture()
        let (credential, backend) = try credential(f, nonce: "nonce-a")
        #expect(throws: MockBackend.Refusal(reason: "Sign in with Apple was refused: the identity token's nonce does not match the request.")) {
            try backend.linkSignInWithApple(user: "jane", credential: credential, nonce: "nonce-b")
        }
        #expect(try backend.link(of: "jane") == nil)
    }

    @Test func aReplayedCredentialIsRefused() throws {
        let f = try UpgradeFixture()
        let (credential, backend) = try credential(f, nonce: "n1")
        try backend.linkSignInWithApple(user: "jane", credential: credential, nonce: "n1")
        try backend.enroll(user: "bob", password: "bob-password-1")
        #expect(throws: MockBackend.Refusal(reason: "Sign in with Apple was refused: the identity token was already used.")) {
            try backend.linkSignInWithApple(user: "bob", credential: credential, nonce: "n1")
        }
        // A fresh token does not make the old authorization code good again.
        let (fresh, _) = try self.credential(f, nonce: "n2")
        let reused = AppleIDCredential(user: fresh.user, email: fresh.email, isPrivateRelay: fresh.isPrivateRelay, fullName: nil,
                                       state: fresh.state, identityToken: fresh.identityToken, authorizationCode: credential.authorizationCode)
        #expect(throws: MockBackend.Refusal(reason: "Sign in with Apple was refused: the authorization code was already used.")) {
            try backend.linkSignInWithApple(user: "bob", credential: reused, nonce: "n2")
        }
    }

    /// A replayed identity token is refused at sign-in too, not only until it expires.
    @Test func anIdentityTokenSignsInOnce() throws {
        let f = try UpgradeFixture()
        let (credential, backend) = try credential(f, nonce: "n1")
        try backend.linkSignInWithApple(user: "jane", credential: credential, nonce: "n1")
        let (next, _) = try self.credential(f, nonce: "n3")
        #expect(try backend.signInWithApple(identityToken: next.identityToken, nonce: "n3") != .refused("this identity token was already used"))
        #expect(try backend.signInWithApple(identityToken: next.identityToken, nonce: "n3") == .refused("this identity token was already used"))
    }

    /// Enrolling again never replaces an account (it would drop its link and turn its password back on).
    @Test func enrolmentNeverOverwritesAnAccount() throws {
        let f = try UpgradeFixture()
        let (credential, backend) = try credential(f, nonce: "n1")
        try backend.linkSignInWithApple(user: "jane", credential: credential, nonce: "n1")
        #expect(throws: MockBackend.Refusal(reason: "Shiny already has an account named jane; nothing was changed.")) {
            try backend.enroll(user: "jane", password: "new-password-1")
        }
        #expect(try backend.link(of: "jane") != nil)
        #expect(try backend.signIn(user: "jane", password: "new-password-1") == .refused("this account signs in with Apple; its password no longer works"))
    }

    @Test func anExpiredTokenIsRefused() throws {
        let f = try UpgradeFixture()
        let (credential, backend) = try credential(f, nonce: "n")
        f.clock.advance(601)
        #expect(throws: MockBackend.Refusal(reason: "Sign in with Apple was refused: the identity token has expired.")) {
            try backend.linkSignInWithApple(user: "jane", credential: credential, nonce: "n")
        }
    }

    @Test func aForgedTokenIsRefused() throws {
        let f = try UpgradeFixture()
        let (credential, backend) = try credential(f, nonce: "n")
        let parts = credential.identityToken.split(separator: ".")
        let forged = AppleIDCredential(user: credential.user, email: credential.email, isPrivateRelay: false, fullName: nil, state: "s",
                                       identityToken: "\(parts[0]).\(parts[1]).AAAA", authorizationCode: credential.authorizationCode)
        #expect(throws: MockBackend.Refusal(reason: "Sign in with Apple was refused: the identity token's signature does not verify.")) {
            try backend.linkSignInWithApple(user: "jane", credential: forged, nonce: "n")
        }
        // A token for another app is refused too.
        #expect(try backend.signInWithApple(identityToken: credential.identityToken, nonce: "other") ==
                .refused("the identity token's nonce does not match the request"))
    }

    @Test func aStateMismatchIsRefusedByTheExtension() throws {
        let f = try UpgradeFixture()
        let manifest = f.world.catalog.manifest(id: "shiny")!
        let ext = try f.world.makeExtension(for: manifest)
        let context = ModificationContext()
        ext.convertToSignInWithAppleWithoutUserInteraction(for: ExistingCredential(user: "jane", password: "shiny-old-1"),
                                                           service: ServiceIdentifier(domain: "shiny.example"), userInfo: nil, context: context)
        guard case .signInWithAppleRequested(_, let nonce)? = context.reply else { Issue.record("no request"); return }
        let (credential, backend) = try credential(f, nonce: nonce, state: "not-the-state")
        context.reset()
        ext.signInWithAppleFinished(.success(credential), context: context)
        #expect(context.reply == .cancelled(.failed(reason: "The Sign in with Apple response did not belong to this request.")))
        #expect(try backend.link(of: "jane") == nil)
    }

    @Test func passwordSignInAfterConversionIsRefused() throws {
        let f = try UpgradeFixture()
        let (credential, backend) = try credential(f, nonce: "n")
        try backend.linkSignInWithApple(user: "jane", credential: credential, nonce: "n")
        #expect(try backend.signIn(user: "jane", password: "shiny-old-1") == .refused("this account signs in with Apple; its password no longer works"))
        #expect(try backend.authorize(user: "jane", password: "shiny-old-1", sessionToken: nil, stepUpGrant: nil) ==
                .refused("This account already signs in with Apple."))
    }
}
