import BulwarkCore
import Foundation
import Testing
@testable import BulwarkUpgrades

/// "Log in with Nimbus ID" at Shiny through a web authentication session:
/// every path a person can take, shared and ephemeral sessions, and the transcript.
@Suite struct OAuthFlowTests {
    /// From the alert to the consent page, through the login page and the second factor.
    static func toConsent(_ f: UpgradeFixture, _ session: WebAuthenticationSession) throws {
        #expect(session.start() == .alert(app: "Shiny", domain: "id.nimbus.example"))
        #expect(session.continueAlert() == .loginPage(provider: "Nimbus ID", domain: "id.nimbus.example", message: nil))
        #expect(session.submitLogin(email: "jane@mail.example", password: UpgradeFixture.nimbusPassword) == .secondFactor(provider: "Nimbus ID", message: nil))
        #expect(session.submitCode(try f.nimbusCode()) == .consent(provider: "Nimbus ID", app: "Shiny"))
    }

    @Test func firstSignInThenASharedSessionSkipsTheLoginPage() throws {
        let f = try UpgradeFixture()
        _ = try f.withNimbus()
        let first = try f.webSession()
        try Self.toConsent(f, first)
        let signedIn = WebAuthenticationSession.SignedIn(service: "Shiny", provider: "Nimbus ID", user: "jane@mail.example", linkedNow: true)
        #expect(first.consent(allow: true) == .signedIn(signedIn))
        let backend = try f.world.backend(for: f.world.catalog.manifest(id: "shiny")!)
        #expect(try backend.federatedIssuers(of: "jane@mail.example") == ["https://id.nimbus.example"])
        // The same browser a minute later: its cookie signs it in, the consent is remembered.
        f.clock.advance(60)
        let second = try f.webSession()
        second.start()
        #expect(second.continueAlert() == .signedIn(.init(service: "Shiny", provider: "Nimbus ID", user: "jane@mail.example", linkedNow: false)))
        #expect(second.transcriptLines.first?.contains(#""cookie":"session""#) == true)
        // An ephemeral session keeps nothing: the login page again (and leaves the shared jar alone).
        let ephemeral = try f.webSession(ephemeral: true)
        ephemeral.start()
        #expect(ephemeral.continueAlert() == .loginPage(provider: "Nimbus ID", domain: "id.nimbus.example", message: nil))
        f.clock.advance(30)
        #expect(ephemeral.submitLogin(email: "jane@mail.example", password: UpgradeFixture.nimbusPassword) == .secondFactor(provider: "Nimbus ID", message: nil))
        #expect(ephemeral.submitCode(try f.nimbusCode()) == .signedIn(.init(service: "Shiny", provider: "Nimbus ID", user: "jane@mail.example", linkedNow: false)))
        let third = try f.webSession(ephemeral: true)
        third.start()
        #expect(third.continueAlert() == .loginPage(provider: "Nimbus ID", domain: "id.nimbus.example", message: nil))
    }

    @Test(arguments: ["alert", "login", "second-factor", "consent"])
    func cancelAnywhereChangesNothing(at point: String) throws {
        let f = try UpgradeFixture()
        _ = try f.withNimbus()
        let session = try f.webSession()
        session.start()
        if point != "alert" { session.continueAlert() }
        if point == "second-factor" || point == "consent" { session.submitLogin(email: "jane@mail.example", password: UpgradeFixture.nimbusPassword) }
        if point == "consent" { session.submitCode(try f.nimbusCode()) }
        #expect(session.cancel() == .cancelled)
        let backend = try f.world.backend(for: f.world.catalog.manifest(id: "shiny")!)
        #expect(try backend.federatedIssuers(of: "jane@mail.example").isEmpty)
        // Declining at the consent page is the person's cancel too.
        if point == "consent" {
            f.clock.advance(30)  // a code is taken once: the next one
            let again = try f.webSession(ephemeral: true)
            try Self.toConsent(f, again)
            #expect(again.consent(allow: false) == .cancelled)
        }
    }

    @Test func aWrongPasswordAndAWrongCodeAreSaid() throws {
        let f = try UpgradeFixture()
        _ = try f.withNimbus()
        let session = try f.webSession()
        session.start()
        session.continueAlert()
        #expect(session.submitLogin(email: "jane@mail.example", password: "nope") == .loginPage(provider: "Nimbus ID", domain: "id.nimbus.example",
                                                                                                 message: "That e-mail or password is not right. 4 attempts left."))
        session.submitLogin(email: "jane@mail.example", password: UpgradeFixture.nimbusPassword)
        #expect(session.submitCode("000000") == .secondFactor(provider: "Nimbus ID", message: "That code is not right. 4 attempts left."))
        #expect(session.submitCode(try f.nimbusCode()) == .consent(provider: "Nimbus ID", app: "Shiny"))
    }

    /// The transcript a browser's network log would give: PKCE holds, no secret shows.
    @Test func theTranscriptShowsPKCEAndNoSecret() throws {
        let f = try UpgradeFixture()
        _ = try f.withNimbus()
        let session = try f.webSession()
        try Self.toConsent(f, session)
        session.consent(allow: true)
        let lines = session.transcriptLines
        let objects = lines.map { try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        #expect(objects.map { $0["step"] as! String } == ["authorization-request", "login-form", "second-factor-form", "consent-form", "redirect",
                                                           "token-request", "token-response"])
        let authorize = WebAuthenticationSession.query(of: objects[0]["url"] as! String)
        let token = objects[5]["form"] as! [String: String]
        let verifier = try #require(token["code_verifier"])
        #expect((43...128).contains(verifier.count) && verifier.allSatisfy { $0.isLetter || $0.isNumber || "-._~".contains($0) })
        #expect(authorize["code_challenge"] == Base64URL.encode(Digest.sha256(Array(verifier.utf8))) && authorize["code_challenge_method"] == "S256")
        let redirect = WebAuthenticationSession.query(of: objects[4]["url"] as! String)
        #expect(redirect["iss"] == "https://id.nimbus.example" && redirect["state"] == authorize["state"] && redirect["code"] == token["code"])
        #expect((objects[1]["form"] as! [String: Any])["password_length"] as? Int == UpgradeFixture.nimbusPassword.count)
        let body = objects[6]["body"] as! [String: Any]
        #expect(body["id_token"] == nil && (body["id_token_length"] as? Int ?? 0) > 100 && body["access_token"] == nil)
        #expect(!lines.joined().contains(UpgradeFixture.nimbusPassword))
    }
}
