import BulwarkCore
import Foundation
@testable import BulwarkUpgrades

/// A clock the tests move by hand.
final class TestClock: @unchecked Sendable {  // tests run one flow on one thread
    var now = Date(timeIntervalSince1970: 1_800_000_000)
    func advance(_ seconds: TimeInterval) { now = now.addingTimeInterval(seconds) }
}

/// A vault with one entry per demo service, each enrolled at its mock
/// backend, and an engine with no latency.
final class UpgradeFixture {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bulwark-upgrades-\(UUID().uuidString)")
    let clock = TestClock()
    let vault: Vault
    let world: ServiceWorld
    let engine: UpgradeEngine
    static let totpURI = "otpauth://totp/Northwind:jane?secret=JBSWY3DPEHPK3PXP&issuer=Northwind"

    /// `sleep`: what a backend's latency does (nothing, unless a test acts during it).
    init(sleep: @escaping @Sendable (Int) -> Void = { _ in }) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        vault = try Vault.create(at: directory.appendingPathComponent("vault.db"), masterPassword: "m", parameters: ScryptParameters(logN: 10))
        let clock = self.clock
        world = try ServiceWorld(directory: directory.appendingPathComponent("services"), catalog: try ServiceCatalog.builtIn(),
                                 clock: { clock.now }, sleep: sleep)
        engine = UpgradeEngine(vault: vault, world: world)
        let entries = [
            Entry(id: "shiny", title: "Shiny", urls: ["https://shiny.example"], username: "jane", password: "shiny-old-1"),
            Entry(id: "bank", title: "Northwind Bank", urls: ["https://bank.northwind.example"], username: "jane", password: "bank-old-1",
                  totpURI: Self.totpURI),
            Entry(id: "chirp", title: "Chirp", urls: ["https://chirp.example"], username: "@jane", password: "chirp-old-1"),
            Entry(id: "grocer", title: "Grocer", urls: ["https://grocer.example"], username: "jane", password: "grocer-old-1"),
            Entry(id: "oldgame", title: "Old Game", urls: ["https://oldgame.example"], username: "jane", password: "game-old-1"),
            Entry(id: "forum", title: "Forum", urls: ["https://forum.example"], username: "jane", password: "forum-old-1"),
            Entry(id: "notes", title: "Cloud Notes", urls: ["https://cloudnotes.example"], username: "jane", password: "notes-old-1"),
            Entry(id: "scooters", title: "Scooter Share", urls: ["https://scooters.example"], username: "jane", password: "scoot-old-1"),
            Entry(id: "health", title: "City Health Portal", urls: ["https://health.city.example"], username: "jane", password: "health-old-1"),
            Entry(id: "tax", title: "Tax Office", urls: ["https://tax.gov.example"], username: "jane", password: "tax-old-1"),
        ]
        try vault.save(entries)
        for entry in entries { _ = try world.enroll(entry) }
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    func entry(_ id: String) -> Entry { vault.entries.first { $0.id == id }! }

    func start(_ id: String, _ kind: UpgradeKind, origin: UpgradeOrigin = .entry, userInfo: [String: String]? = nil) -> UpgradeState {
        engine.start(UpgradeRequest(entryID: id, kind: kind, origin: origin, userInfo: userInfo))
    }

    /// The vault's credential signs in at the service.
    func agrees(_ id: String) throws -> Bool {
        if case .accepted = try SignInSimulator.signIn(entry(id), world: world) { return true }
        return false
    }

    func totpCode() throws -> String {
        try OTPAuthURL.parse(Self.totpURI).code(at: Int64(clock.now.timeIntervalSince1970))
    }
}
