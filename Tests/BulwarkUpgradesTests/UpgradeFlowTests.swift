import BulwarkCore
import Foundation
import Testing
@testable import BulwarkUpgrades

/// Every path of the upgrade engine, headless. After each, the vault and
/// the backend agree; a cancelled or failed upgrade changed neither.
@Suite struct UpgradeFlowTests {
    func completed(_ state: UpgradeState) -> UpgradeOutcome? {
        if case .completed(let outcome) = state { return outcome }
        return nil
    }

    func stepUp(_ state: UpgradeState) -> StepUpScreen? {
        if case .stepUp(let screen) = state { return screen }
        return nil
    }

    /// A failed or cancelled upgrade left the entry and the backend as they were.
    func unchanged(_ f: UpgradeFixture, _ id: String, before: Entry) throws {
        #expect(f.entry(id) == before)
        #expect(try f.agrees(id))
    }

    @Test func strongPasswordWithNoUI() throws {
        let f = try UpgradeFixture()
        let outcome = try #require(completed(f.start("shiny", .strongPassword)))
        #expect(outcome.summary == "Shiny now uses a strong password, saved in bulwark.")
        let entry = f.entry("shiny")
        #expect(entry.password != "shiny-old-1" && entry.pendingChange == nil)
        #expect(entry.history.first?.password == "shiny-old-1" && entry.history.first?.reason == "upgraded to a strong password")
        let rules = try PasswordRules.parse(f.world.catalog.manifest(id: "shiny")!.passwordRules!)
        #expect(rules.isSatisfied(by: entry.password!))
        #expect(try f.agrees("shiny"))
        #expect(try f.world.backend(for: entry)!.signIn(user: "jane", password: "shiny-old-1") == .refused("wrong password"))
    }

    @Test func totpStepUpFilledFromTheVault() throws {
        let f = try UpgradeFixture()
        let screen = try #require(stepUp(f.start("bank", .strongPassword)))
        #expect(screen.serviceName == "Northwind Bank" && screen.method == .totp && screen.attemptsLeft == 5 && screen.message == nil)
        #expect(screen.prompt == "Enter the 6-digit code from your authenticator for Northwind Bank.")
        #expect(f.entry("bank").pendingChange?.kind == .strongPassword)  // staged before the service commits
        #expect(completed(f.engine.submitCode(try f.totpCode())) != nil)
        #expect(try f.agrees("bank"))
    }

    @Test func smsStepUpFilledFromMessages() throws {
        let f = try UpgradeFixture()
        let screen = try #require(stepUp(f.start("chirp", .strongPassword)))
        #expect(screen.method == .sms && screen.prompt == "Chirp sent a code to your phone (•••• 42). Enter it to continue.")
        let messages = try f.world.inbox.messages()
        #expect(messages.count == 1 && messages[0].sender == "Chirp")
        let code = try #require(try f.world.inbox.latestCode(forSite: "chirp.example"))
        #expect(try f.world.inbox.latestCode(forSite: "shiny.example") == nil)
        #expect(messages[0].body == "Your Chirp code is \(code). Do not share it.\n\n@chirp.example #\(code)")
        #expect(completed(f.engine.submitCode(code)) != nil)
        #expect(try f.agrees("chirp"))
    }

    @Test func aWrongCodeThenTheRightOne() throws {
        let f = try UpgradeFixture()
        _ = f.start("chirp", .strongPassword)
        let code = try #require(try f.world.inbox.latestCode(forSite: "chirp.example"))
        let wrong = try #require(stepUp(f.engine.submitCode(code == "000000" ? "111111" : "000000")))
        #expect(wrong.message == "That code is not right. 4 attempts left." && wrong.attemptsLeft == 4)
        #expect(completed(f.engine.submitCode(code)) != nil)
        #expect(try f.agrees("chirp"))
    }

    @Test func fiveWrongCodesLockTheChallenge() throws {
        let f = try UpgradeFixture()
        let before = f.entry("bank")
        _ = f.start("bank", .strongPassword)
        let right = try f.totpCode()
        let wrongCode = right == "000000" ? "111111" : "000000"
        for left in (1...4).reversed() {
            #expect(stepUp(f.engine.submitCode(wrongCode))?.message == "That code is not right. \(left) \(left == 1 ? "attempt" : "attempts") left.")
        }
        #expect(f.engine.submitCode(wrongCode) == .failed(reason: "Too many wrong codes. For your security, this account takes no code for 15 minutes (until 2027-01-15T08:15:00Z)."))
        try unchanged(f, "bank", before: before)
        // The count is the account's: a new challenge does not reset it, and the right code waits out the cool-down.
        #expect(f.start("bank", .strongPassword) == .failed(reason: "Too many wrong codes. For your security, this account takes no code for 15 minutes (until 2027-01-15T08:15:00Z)."))
        f.clock.advance(15 * 60 + 1)
        _ = f.start("bank", .strongPassword)
        if case .completed = f.engine.submitCode(try f.totpCode()) {} else { Issue.record("the right code after the cool-down did not complete") }
    }

    /// The cool-down is the service's to set.
    @Test func theCoolDownIsTheManifests() throws {
        let f = try UpgradeFixture()
        var manifest = try #require(f.world.catalog.manifest(id: "northwind-bank"))
        manifest.behaviour.codeCoolDownMinutes = 2
        let backend = try MockBackend(manifest: manifest, path: f.directory.appendingPathComponent("strict.db").path, inbox: f.world.inbox,
                                      identityProvider: f.world.identityProvider, clock: { [clock = f.clock] in clock.now })
        try backend.enroll(user: "jane", password: "p", totpSecret: UpgradeFixture.totpURI)
        let challenge = try backend.challenge(user: "jane")
        let wrongCode = try f.totpCode() == "000000" ? "111111" : "000000"
        for _ in 1...4 { _ = try backend.verify(challenge: challenge.id, code: wrongCode) }
        guard case .locked(let until) = try backend.verify(challenge: challenge.id, code: wrongCode) else { Issue.record("not locked"); return }
        #expect(until == f.clock.now.addingTimeInterval(120))
        #expect(backend.lockedMessage(until).hasPrefix("Too many wrong codes. For your security, this account takes no code for 2 minutes"))
        f.clock.advance(121)
        #expect(try backend.lockedUntil("jane") == nil)
        #expect(throws: ServiceManifest.Invalid(file: "m", reason: "bad \"behaviour.codeCoolDownMinutes\" (must be a whole number of minutes from 1 to 1440)")) {
            try ServiceManifest.decode(Data(#"{"id": "x", "name": "X", "appID": "ABCDE12345.x", "associatedDomains": ["webcredentials:x.example"], "supportsStrongPassword": true, "supportsSignInWithApple": false, "twoFactor": "totp", "behaviour": {"codeCoolDownMinutes": 0}}"#.utf8), file: "m")
        }
    }

    /// Wrong codes spread over new challenges still add up (the limit was per challenge).
    @Test func wrongCodesCountAcrossChallenges() throws {
        let f = try UpgradeFixture()
        let wrongCode = try f.totpCode() == "000000" ? "111111" : "000000"
        for run in 0..<4 {
            _ = f.start("bank", .strongPassword)
            #expect(stepUp(f.engine.submitCode(wrongCode))?.message == "That code is not right. \(4 - run) \(4 - run == 1 ? "attempt" : "attempts") left.")
            _ = f.engine.cancel()
        }
        _ = f.start("bank", .strongPassword)
        if case .failed(let reason) = f.engine.submitCode(wrongCode) { #expect(reason.hasPrefix("Too many wrong codes.")) } else {
            Issue.record("the fifth wrong code across challenges did not lock the account")
        }
    }

    /// A TOTP code is good once (RFC 6238 §5.2): the same code cannot
    /// authorise a second upgrade.
    @Test func aTOTPCodeIsSingleUseAcrossUpgrades() throws {
        let f = try UpgradeFixture()
        _ = f.start("bank", .strongPassword)
        let code = try f.totpCode()
        if case .completed = f.engine.submitCode(code) {} else { Issue.record("the first use did not complete") }
        _ = f.start("bank", .strongPassword)
        #expect(stepUp(f.engine.submitCode(code))?.message == "That code was already used; wait for the next one. 4 attempts left.")
    }

    /// The backend's step-up is proven by its own single-use grant, not a flag the caller sets.
    @Test func authorisationNeedsTheBackendsGrant() throws {
        let f = try UpgradeFixture()
        let backend = try f.world.backend(for: try #require(f.world.catalog.manifest(forHost: f.entry("bank").site)))
        let user = f.entry("bank").username, password = try #require(f.entry("bank").password)
        #expect(try backend.authorize(user: user, password: password, sessionToken: nil, stepUpGrant: nil) == .stepUpRequired)
        #expect(try backend.authorize(user: user, password: password, sessionToken: nil, stepUpGrant: "g-made-up") == .stepUpRequired)
        let challenge = try backend.challenge(user: user)
        guard case .passed(let grant) = try backend.verify(challenge: challenge.id, code: try f.totpCode()) else {
            Issue.record("the right code did not pass")
            return
        }
        #expect(try backend.authorize(user: user, password: password, sessionToken: nil, stepUpGrant: grant) == .authorized)
        #expect(try backend.authorize(user: user, password: password, sessionToken: nil, stepUpGrant: grant) == .stepUpRequired)
    }

    @Test func anExpiredCodeAsksForANewOne() throws {
        let f = try UpgradeFixture()
        _ = f.start("chirp", .strongPassword)
        let first = try #require(try f.world.inbox.latestCode(forSite: "chirp.example"))
        f.clock.advance(MockBackend.challengeLifetime + 1)
        #expect(stepUp(f.engine.submitCode(first))?.message == "That code has expired. Ask for a new one.")
        let resent = try #require(stepUp(f.engine.resendCode()))
        #expect(resent.message == "A new code is on its way." && resent.attemptsLeft == 5)
        #expect(try f.world.inbox.messages().count == 2)
        let second = try #require(try f.world.inbox.latestCode(forSite: "chirp.example"))
        #expect(completed(f.engine.submitCode(second)) != nil)
        #expect(try f.agrees("chirp"))
    }

    @Test func failureWithAReason() throws {
        let f = try UpgradeFixture()
        let before = f.entry("grocer")
        #expect(f.start("grocer", .strongPassword) == .failed(reason: "Password changes are paused for maintenance until 6 pm."))
        try unchanged(f, "grocer", before: before)
    }

    @Test func failureWithoutAReasonShowsTheDefault() throws {
        let f = try UpgradeFixture()
        let before = f.entry("oldgame")
        #expect(f.start("oldgame", .strongPassword) == .failed(reason: "The upgrade could not be completed. Try again later."))
        try unchanged(f, "oldgame", before: before)
    }

    @Test func cancelAtTheStepUpScreen() throws {
        let f = try UpgradeFixture()
        let before = f.entry("bank")
        _ = f.start("bank", .strongPassword)
        #expect(f.engine.cancel() == .cancelled)
        try unchanged(f, "bank", before: before)
    }

    @Test func cancelAtTheSheet() throws {
        let f = try UpgradeFixture()
        let before = f.entry("shiny")
        guard case .sheet(let sheet) = f.start("shiny", .signInWithApple) else { Issue.record("no sheet"); return }
        #expect(sheet == SignInWithAppleSheet(serviceName: "Shiny", fullName: "Jane Appleseed", sharedEmail: "jane.appleseed@icloud.example", hideEmail: false))
        #expect(f.engine.cancel() == .cancelled)
        try unchanged(f, "shiny", before: before)
        #expect(try f.world.backend(for: before)!.link(of: "jane") == nil)
    }

    @Test func networkLossAtTheSheet() throws {
        let f = try UpgradeFixture()
        let before = f.entry("notes")
        guard case .sheet = f.start("notes", .signInWithApple) else { Issue.record("no sheet"); return }
        #expect(f.engine.continueWithApple() == .failed(reason: "Sign in with Apple could not finish because the network connection was lost."))
        try unchanged(f, "notes", before: before)
    }

    @Test func aServiceThatSetsItsOwnPassword() throws {
        let f = try UpgradeFixture()
        let outcome = try #require(completed(f.start("scooters", .strongPassword)))
        #expect(outcome.substituted)
        #expect(outcome.summary == "Scooter Share set a strong password of its own; bulwark saved it.")
        #expect(f.entry("scooters").password?.count == 16)  // its rules: exactly 16, not Apple's format
        #expect(try f.agrees("scooters"))
    }

    @Test(arguments: [false, true])
    func signInWithApple(hideEmail: Bool) throws {
        let f = try UpgradeFixture()
        let id = hideEmail ? "health" : "shiny"
        guard case .sheet = f.start(id, .signInWithApple) else { Issue.record("no sheet"); return }
        _ = f.engine.chooseEmail(hide: hideEmail)
        let outcome = try #require(completed(f.engine.continueWithApple()))
        let entry = f.entry(id)
        // One fewer password: none left in the entry's history either.
        #expect(entry.password == nil && entry.history.isEmpty)
        let link = try #require(entry.signInWithApple)
        #expect(link.isPrivateRelay == hideEmail && outcome.isPrivateRelay == hideEmail && link.state == .authorized)
        if hideEmail {
            #expect(link.email.hasSuffix("@privaterelay.appleid.example"))
            #expect(outcome.summary == "City Health Portal now uses Sign in with Apple with a hidden e-mail. Its password was removed.")
        } else {
            #expect(link.email == "jane.appleseed@icloud.example")
        }
        #expect(try f.agrees(id))  // signs in with Apple
        let backend = try #require(try f.world.backend(for: entry))
        #expect(try backend.signIn(user: "jane", password: id == "health" ? "health-old-1" : "shiny-old-1") ==
                .refused("this account signs in with Apple; its password no longer works"))
        #expect(try f.world.identityProvider.credentialState(user: link.user, team: backend.manifest.teamID) == .authorized)
    }

    /// A manifest's scopes (Sign in with Apple): Scooter Share asks for the
    /// e-mail only, so the sheet carries no name, the token no name and the
    /// backend the e-mail alone; a manifest naming another scope is refused.
    @Test func theSheetAndTheServiceGetOnlyTheScopesAskedFor() throws {
        let f = try UpgradeFixture()
        guard case .sheet(let sheet) = f.start("scooters", .signInWithApple) else { Issue.record("no sheet"); return }
        #expect(sheet.scopes == [.email] && sheet.asksForEmail)
        _ = try #require(completed(f.engine.continueWithApple()))
        let entry = f.entry("scooters")
        let link = try #require(entry.signInWithApple)
        #expect(link.email == "jane.appleseed@icloud.example" && entry.password == nil)
        let backend = try #require(try f.world.backend(for: entry))
        #expect(try backend.link(of: "jane")?.email == "jane.appleseed@icloud.example")
        #expect(try f.agrees("scooters"))

        func manifest(_ scopes: String) throws -> ServiceManifest {
            try ServiceManifest.decode(Data(#"{"id": "x", "name": "X", "appID": "ABCDE12345.x", "associatedDomains": ["webcredentials:x.example"], "supportsStrongPassword": true, "supportsSignInWithApple": true, "signInWithAppleScopes": \#(scopes), "twoFactor": "none", "behaviour": {}}"#.utf8), file: "x.json")
        }
        #expect(try manifest("[]").requestedAppleIDScopes == [] && manifest(#"["email", "name"]"#).requestedAppleIDScopes == [.fullName, .email])
        #expect(throws: ServiceManifest.Invalid(file: "x.json", reason: "bad \"signInWithAppleScopes.0\"")) { try manifest(#"["phone"]"#) }
    }

    @Test func theRelayIsStablePerUserAndTeam() throws {
        let f = try UpgradeFixture()
        let shiny = try f.world.catalog.manifest(id: "shiny")!, health = try f.world.catalog.manifest(id: "city-health")!
        func relay(_ m: ServiceManifest) throws -> AppleIDCredential {
            try f.world.identityProvider.authorize(appleID: "a@icloud.example", fullName: "A", team: m.teamID, audience: m.appID,
                                                   nonce: "n", state: "s", hideEmail: true)
        }
        let first = try relay(shiny), again = try relay(shiny), other = try relay(health)
        #expect(first.email == again.email && first.user == again.user)
        #expect(first.fullName == "A" && again.fullName == nil)  // the name comes with the first authorization only
        #expect(other.email != first.email && other.user != first.user)
    }

    @Test func anInAppRequestUsesTheSessionNotThePassword() throws {
        let f = try UpgradeFixture()
        guard case .accepted(let token) = try SignInSimulator.signIn(f.entry("health"), world: f.world) else { Issue.record("no session"); return }
        let outcome = try #require(completed(f.start("health", .strongPassword, origin: .inApp, userInfo: ["session": token])))
        #expect(outcome.kind == .strongPassword)
        #expect(f.entry("health").history.first?.reason == "upgraded to a strong password in City Health Portal")
        #expect(try f.agrees("health"))
        #expect(f.start("shiny", .strongPassword, origin: .inApp, userInfo: ["session": "s-forged"]) ==
                .failed(reason: "Your session has expired. Sign in again."))
    }

    @Test func unsupportedUpgradesAreRefusedWithTheReason() throws {
        let f = try UpgradeFixture()
        #expect(f.world.catalog.availability(.strongPassword, for: f.entry("forum")) == .unavailable("Forum does not support upgrading to a strong password"))
        #expect(f.world.catalog.availability(.signInWithApple, for: f.entry("bank")) == .unavailable("Northwind Bank does not support Sign in with Apple"))
        #expect(f.world.catalog.availability(.strongPassword, for: f.entry("tax")) == .unavailable("bulwark has no upgrade for tax.gov.example"))
        #expect(f.start("forum", .strongPassword) == .failed(reason: "Forum does not support upgrading to a strong password."))
        #expect(f.world.catalog.offeredUpgrades(for: f.entry("shiny")) == [.passkey, .strongPassword, .signInWithApple])
        #expect(f.world.catalog.offeredUpgrades(for: f.entry("forum")) == [])
    }

    @Test func theServiceRefusesItsCurrentPasswordAndRuleBreakers() throws {
        let f = try UpgradeFixture()
        let backend = try f.world.backend(for: f.entry("shiny"))!
        #expect(try backend.commitPassword(user: "jane", newPassword: "Shiny-Current-12") == "Shiny-Current-12")
        #expect(throws: MockBackend.Refusal(reason: "The new password must be different from the current one.")) {
            try backend.commitPassword(user: "jane", newPassword: "Shiny-Current-12")
        }
        #expect(throws: MockBackend.Refusal(reason: "The new password does not meet Shiny's rules: is 11 characters long; minlength is 12.")) {
            try backend.commitPassword(user: "jane", newPassword: "Short-One-1")
        }
    }
}
