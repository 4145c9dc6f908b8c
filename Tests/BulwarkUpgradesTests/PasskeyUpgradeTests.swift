import BulwarkCore
import Foundation
import Testing
@testable import BulwarkUpgrades

/// Upgrading to a passkey through the modification engine, settling it
/// after a crash, and a security-key step-up answered by the vault's passkey.
@Suite struct PasskeyUpgradeTests {
    @Test func aPasskeyReplacesThePasswordAtTheServiceAndInTheVault() throws {
        let f = try UpgradeFixture()
        guard case .passkeySheet(let sheet) = f.start("shiny", .passkey) else { Issue.record("no sheet: \(String(describing: f.engine.state))"); return }
        #expect(sheet == PasskeySheet(serviceName: "Shiny", rpID: "shiny.example", userName: "jane", userDisplayName: "jane"))
        #expect(f.entry("shiny").pendingChange?.kind == .passkey && f.entry("shiny").passkeys.isEmpty)
        guard case .completed(let outcome) = f.engine.savePasskey() else { Issue.record("not completed: \(String(describing: f.engine.state))"); return }
        #expect(outcome.kind == .passkey && outcome.headline == "Shiny now signs in with a passkey, saved in bulwark. Its password no longer works (kept in history).")
        let entry = f.entry("shiny")
        #expect(entry.password == nil && entry.pendingChange == nil)
        #expect(entry.history.first?.password == "shiny-old-1" && entry.history.first?.reason == "upgraded to a passkey")
        #expect(entry.passkeys.map(\.rpID) == ["shiny.example"] && entry.passkeys.first?.userName == "jane")
        let backend = try f.world.backend(for: f.world.catalog.manifest(id: "shiny")!)
        #expect(try backend.signIn(user: "jane", password: "shiny-old-1") == .refused("this account signs in with a passkey; its password no longer works"))
        #expect(try f.agrees("shiny"))  // with the passkey
        #expect(f.world.catalog.availability(.passkey, for: entry).reason == "this account already signs in with a passkey")
    }

    @Test func cancelAtTheSheetChangesNothing() throws {
        let f = try UpgradeFixture()
        guard case .passkeySheet = f.start("shiny", .passkey) else { Issue.record("no sheet"); return }
        #expect(f.engine.cancel() == .cancelled)
        let entry = f.entry("shiny")
        #expect(entry.password == "shiny-old-1" && entry.passkeys.isEmpty && entry.pendingChange == nil)
        #expect(try f.agrees("shiny"))
    }

    @Test func aServiceWithoutPasskeysIsRefusedWithTheReason() throws {
        let f = try UpgradeFixture()
        #expect(f.world.catalog.availability(.passkey, for: f.entry("chirp")).reason == "Chirp does not accept passkeys")
        #expect(f.start("chirp", .passkey) == .failed(reason: "Chirp does not accept passkeys."))
        #expect(f.world.catalog.offeredUpgrades(for: f.entry("shiny")) == [.passkey, .strongPassword, .signInWithApple])
    }

    /// Killed after the passkey was staged: the relying party decides.
    @Test(arguments: [(true, true), (true, false), (false, false)])
    func aStagedPasskeyIsSettledByWhatTheServiceKept(registered: Bool, passwordOff: Bool) throws {
        let f = try UpgradeFixture()
        let manifest = f.world.catalog.manifest(id: "shiny")!
        let rp = try #require(try f.world.relyingParty(for: manifest))
        let options = try CreationOptions.parse(try rp.registrationOptions(user: "jane", userHandle: rp.userHandle(of: "jane")))
        let created = try PasskeyAuthenticator.create(options, origin: "https://shiny.example", existing: [], now: f.clock.now)
        if registered { try rp.finishRegistration(created.response) }
        if passwordOff { try f.world.backend(for: manifest).turnOffPasswordSignIn(user: "jane") }
        _ = try f.vault.update("shiny") { entry in
            entry.passkeys.append(created.passkey)
            entry.pendingChange = PendingChange(kind: .passkey, newPassword: nil, passkeyID: created.passkey.id, startedAt: f.clock.now)
        }
        // The box keeps the staged id across a reopen.
        #expect(f.entry("shiny").pendingChange?.passkeyID == created.passkey.id)
        let outcomes = try Reconciler.reconcile(vault: f.vault, world: f.world)
        let entry = f.entry("shiny")
        #expect(entry.pendingChange == nil)
        switch (registered, passwordOff) {
        case (true, true):
            #expect(outcomes == [.settledPasskey(entry: "Shiny")] && entry.password == nil && entry.passkeys.count == 1)
        case (true, false):
            #expect(outcomes == [.keptPasskeyBesidePassword(entry: "Shiny")] && entry.password == "shiny-old-1" && entry.passkeys.count == 1)
        default:
            #expect(outcomes == [.keptPassword(entry: "Shiny")] && entry.password == "shiny-old-1" && entry.passkeys.isEmpty)
        }
        #expect(try f.agrees("shiny"))
    }
}

/// A service whose step-up asks for a security key (Harbor Credit Union):
/// satisfied by the passkey the vault keeps for it, and by nothing else.
@Suite struct SecurityKeyStepUpTests {
    /// The Harbor account, with a passkey registered at its relying party when `registered`.
    /// `inVault` false: the credential lives on a USB key instead; returned either way.
    @discardableResult
    static func harbor(_ f: UpgradeFixture, registered: Bool = true, inVault: Bool = true) throws -> Passkey {
        let entry = Entry(id: "harbor", title: "Harbor Credit Union", urls: ["https://harbor.example"], username: "jane", password: "harbor-old-1")
        try f.vault.save(entry)
        _ = try f.world.enroll(entry)
        let rp = try #require(try f.world.relyingParty(for: f.world.catalog.manifest(id: "harbor")!))
        let options = try CreationOptions.parse(try rp.registrationOptions(user: "jane", userHandle: rp.userHandle(of: "jane")))
        let created = try PasskeyAuthenticator.create(options, origin: "https://harbor.example", existing: [], now: f.clock.now)
        if registered { try rp.finishRegistration(created.response) }
        if inVault { _ = try f.vault.update("harbor") { $0.passkeys.append(created.passkey) } }
        return created.passkey
    }

    @Test func thePasskeyInTheVaultPassesTheStepUp() throws {
        let f = try UpgradeFixture()
        try Self.harbor(f)
        guard case .stepUp(let screen) = f.start("harbor", .strongPassword) else { Issue.record("no step-up: \(String(describing: f.engine.state))"); return }
        #expect(screen.method == .securityKey && screen.canResend == false && screen.attemptsLeft == 5)
        #expect(screen.prompt == "Harbor Credit Union asks for your security key: the passkey bulwark keeps for harbor.example, or a USB key.")
        let options = try RequestOptions.parse(Data(try #require(screen.securityKeyOptions).utf8))
        #expect(options.rpID == "harbor.example" && options.userVerification == "discouraged" && options.allowCredentials.count == 1)
        #expect(f.engine.vaultPasskeyAnswers(screen))
        guard case .completed(let outcome) = f.engine.useVaultPasskey() else { Issue.record("not completed: \(String(describing: f.engine.state))"); return }
        #expect(outcome.kind == .strongPassword && f.entry("harbor").password != "harbor-old-1")
        #expect(try f.agrees("harbor"))
    }

    @Test func aKeyTheServiceDoesNotKnowIsRefusedAndCounted() throws {
        let f = try UpgradeFixture()
        try Self.harbor(f, registered: false)
        guard case .stepUp(let screen) = f.start("harbor", .strongPassword) else { Issue.record("no step-up"); return }
        // The service lists no credential for the account (discoverable), so the vault's unregistered one answers…
        #expect(f.engine.vaultPasskeyAnswers(screen))
        // …and the relying party refuses it, which counts like a wrong code.
        guard case .stepUp(let refused) = f.engine.useVaultPasskey() else { Issue.record("not refused: \(String(describing: f.engine.state))"); return }
        #expect(refused.message == "The security key was refused: that credential is not registered here. 4 attempts left.")
        #expect(refused.attemptsLeft == 4 && refused.securityKeyOptions != screen.securityKeyOptions)  // a fresh ceremony for the next try
        // An answer to a spent challenge is refused too.
        let passkey = f.entry("harbor").passkeys[0]
        let stale = try PasskeyAuthenticator.assert(try RequestOptions.parse(Data(screen.securityKeyOptions!.utf8)), origin: "https://harbor.example", with: passkey)
        guard case .stepUp(let replayed) = f.engine.submitAssertion(stale.response) else { Issue.record("not refused"); return }
        #expect(replayed.message == "The security key was refused: the challenge is not one this service issued, or it was already used. 3 attempts left.")
        #expect(f.engine.cancel() == .cancelled && f.entry("harbor").password == "harbor-old-1")
    }

    @Test func anEntryWithoutAPasskeyIsToldSo() throws {
        let f = try UpgradeFixture()
        try Self.harbor(f)
        _ = try f.vault.update("harbor") { $0.passkeys = [] }
        guard case .stepUp(let screen) = f.start("harbor", .strongPassword) else { Issue.record("no step-up"); return }
        #expect(!f.engine.vaultPasskeyAnswers(screen))
        guard case .stepUp(let said) = f.engine.useVaultPasskey() else { Issue.record("not the step-up"); return }
        #expect(said.message == "Harbor Credit Union holds no passkey for harbor.example that Harbor Credit Union asked for." && said.attemptsLeft == 5)
    }

    @Test func aSecurityKeyStepUpNeedsAPasskeyService() throws {
        let text = #"{"id": "x", "name": "X", "appID": "T.x", "associatedDomains": ["webcredentials:x.example"], "supportsStrongPassword": true, "supportsSignInWithApple": false, "twoFactor": "security-key", "behaviour": {}}"#
        #expect(throws: ServiceManifest.Invalid(file: "x.json", reason: "\"twoFactor\": \"security-key\" needs \"supportsPasskeys\": true (the key answers the service's relying party)")) {
            try ServiceManifest.decode(Data(text.utf8), file: "x.json")
        }
    }
}

/// A passkey upgrade at a service that asks for a step-up first (the bank,
/// here taking passkeys): the code, then the sheet.
@Suite struct PasskeyUpgradeStepUpTests {
    @Test func theStepUpComesBeforeTheSheet() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bulwark-passkey-stepup-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let builtIn = try ServiceCatalog.builtIn()
        var bank = try #require(builtIn.manifest(id: "northwind-bank"))
        bank.supportsPasskeys = true
        let catalog = ServiceCatalog(manifests: builtIn.manifests.filter { $0.id != bank.id } + [bank], sites: builtIn.sites)
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let world = try ServiceWorld(directory: directory.appendingPathComponent("services"), catalog: catalog, clock: { now }, sleep: { _ in })
        let vault = try Vault.create(at: directory.appendingPathComponent("vault.db"), masterPassword: "m", parameters: ScryptParameters(logN: 10))
        let entry = Entry(id: "bank", title: "Northwind Bank", urls: ["https://bank.northwind.example"], username: "jane", password: "bank-old-1",
                          totpURI: UpgradeFixture.totpURI)
        try vault.save(entry)
        _ = try world.enroll(entry)
        let engine = UpgradeEngine(vault: vault, world: world)
        guard case .stepUp(let screen) = engine.start(UpgradeRequest(entryID: "bank", kind: .passkey, origin: .recommendation)) else {
            Issue.record("no step-up: \(String(describing: engine.state))"); return
        }
        #expect(screen.method == .totp)
        let code = try OTPAuthURL.parse(UpgradeFixture.totpURI).code(at: Int64(now.timeIntervalSince1970))
        guard case .passkeySheet(let sheet) = engine.submitCode(code) else { Issue.record("no sheet: \(String(describing: engine.state))"); return }
        #expect(sheet.rpID == "northwind.example" && sheet.serviceName == "Northwind Bank")
        guard case .completed = engine.savePasskey() else { Issue.record("not completed: \(String(describing: engine.state))"); return }
        let saved = try #require(vault.entries.first)
        #expect(saved.password == nil && saved.passkeys.first?.rpID == "northwind.example")
        #expect(try SignInSimulator.signIn(saved, world: world) != .refused("the entry has no password"))
    }
}
