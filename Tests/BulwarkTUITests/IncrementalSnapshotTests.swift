import BulwarkCore
import BulwarkUpgrades
import Foundation
import Testing
@testable import BulwarkTUI

/// The app's snapshot after a change is the last one patched (the entry,
/// its findings, the reuse groups it leaves and joins, the identity
/// provider it signs in through, the ranking), never rebuilt. After every
/// step of random edit sequences it must equal a snapshot made whole by a
/// second session unlocking the same file at the same moment.
@Suite struct IncrementalSnapshotTests {
    /// A settable clock, shared by both sessions.
    final class Clock: @unchecked Sendable {
        private let lock = NSLock()
        private var value: Date
        init(_ date: Date) { value = date }
        var now: Date { lock.withLock { value } }
        func advance(_ seconds: TimeInterval) { lock.withLock { value = value.addingTimeInterval(seconds) } }
    }

    static let start = Date(timeIntervalSince1970: 1_800_000_000)
    static let titles = ["Mail", "mail", "Bank 2", "Bank 10", "Shop", "Forum", "Éclair", "Zeta", "Alpha", "Cloud"]
    static let sites = ["mail.example", "bank.example", "shop.example", "forum.example", "cloud.example", "id.nimbus.example",
                        "apple.com", "icloud.com", "plain.example"]
    static let shared = ["shared-Pa55-word!", "123456", "correct horse", "Tr0ub4dor&3", "qwerty"]
    static let issuer = "https://id.nimbus.example"

    static func randomEntry(_ g: inout SplitMix64, now: Date) -> Entry {
        var entry = Entry(title: titles.randomElement(using: &g)! + " \(Int.random(in: 0..<40, using: &g))",
                          urls: [(Bool.random(using: &g) ? "https://" : "http://") + sites.randomElement(using: &g)!],
                          username: "user\(Int.random(in: 0..<5, using: &g))@mail.example",
                          password: Bool.random(using: &g) ? shared.randomElement(using: &g)! : "Unique-\(g.next() % 1_000_000)-xQ9#",
                          created: now.addingTimeInterval(-Double(Int.random(in: 0..<800, using: &g)) * 86_400))
        if Int.random(in: 0..<6, using: &g) == 0 { entry.signsInWith = issuer }
        if Int.random(in: 0..<8, using: &g) == 0 {
            entry.hiddenFromRecommendations = true
            entry.hiddenUntil = Bool.random(using: &g) ? nil : now.addingTimeInterval(Double(Int.random(in: 1..<72, using: &g)) * 3_600)
        }
        if Int.random(in: 0..<10, using: &g) == 0 { entry.kind = .secureNote; entry.password = nil }
        return entry
    }

    static func session(_ path: URL, _ clock: Clock) throws -> AppSession {
        AppSession(vaultPath: path, catalog: try ServiceCatalog.builtIn(), breaches: try BreachCorpus.load(paths: []),
                   appleID: DemoSetup.appleID, backupPolicy: .none, clock: { clock.now }, sleep: { _ in })
    }

    /// Where two ranked lists first part, told briefly (the values themselves run to pages).
    static func firstDifference(_ a: ChunkedArray<Recommendation>, _ b: ChunkedArray<Recommendation>) -> String? {
        for index in 0..<max(a.count, b.count) {
            let x = index < a.count ? a[index] : nil, y = index < b.count ? b[index] : nil
            guard x != y else { continue }
            func tell(_ r: Recommendation?) -> String {
                r.map { "\($0.entry.title) \($0.severity) \($0.kinds) group \($0.group.count)" } ?? "nothing"
            }
            return "at \(index): \(tell(x)) where a whole analysis has \(tell(y))"
        }
        return nil
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func randomEditsGiveTheSameSnapshotAsAWholeOne(seed: UInt64) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bulwark-incremental-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("vault.db")
        let clock = Clock(Self.start)
        var g = SplitMix64(seed: seed)
        let app = try Self.session(path, clock)
        _ = try app.create(masterPassword: "pw", parameters: ScryptParameters(logN: 10))
        for _ in 0..<300 { _ = try app.save(Self.randomEntry(&g, now: clock.now), basedOn: nil) }
        var snapshot = app.snapshot()
        for step in 0..<60 {
            let ids = snapshot.entries.map(\.id)
            let id = ids.randomElement(using: &g)!
            var entry = try #require(snapshot.entry(id: id))
            let base = snapshot.versions[id]
            // The snapshot the screen holds meanwhile: its maps are the vault's, shared, never changed under it.
            let held = snapshot, heldEntry = snapshot.entry(id: id)
            let what: String
            switch Int.random(in: 0..<10, using: &g) {
            case 0:
                what = "a shared password"
                entry.changePassword(to: Self.shared.randomElement(using: &g)!, reason: "test", at: clock.now)
                snapshot = try app.save(entry, basedOn: base)
            case 1:
                what = "a unique password"
                entry.changePassword(to: "Fresh-\(step)-Zq8#pL", reason: "test", at: clock.now)
                snapshot = try app.save(entry, basedOn: base)
            case 2:
                what = "a new title"
                entry.title = Self.titles.randomElement(using: &g)! + " \(step)"
                snapshot = try app.save(entry, basedOn: base)
            case 3:
                what = "a new site"
                entry.urls = ["https://" + Self.sites.randomElement(using: &g)!]
                snapshot = try app.save(entry, basedOn: base)
            case 4:
                what = "hidden for a while"
                snapshot = try app.setHidden(id: id, true, until: clock.now.addingTimeInterval(Double(Int.random(in: 1..<48, using: &g)) * 3_600))
            case 5:
                what = "shown again"
                snapshot = try app.setHidden(id: id, false)
            case 6:
                what = "deleted"
                snapshot = try app.delete(id: id, basedOn: base)
            case 7:
                what = "added"
                snapshot = try app.save(Self.randomEntry(&g, now: clock.now), basedOn: nil)
            case 8:
                what = "signs in through the provider, or no longer"
                entry.signsInWith = entry.signsInWith == nil ? Self.issuer : nil
                snapshot = try app.save(entry, basedOn: base)
            default:
                what = "a day or a few hours later"
                clock.advance(Bool.random(using: &g) ? 86_400 : Double(Int.random(in: 1..<12, using: &g)) * 3_600)
                snapshot = app.snapshot()
            }
            #expect(held.entry(id: id) == heldEntry && held.versions[id] == base, "step \(step): \(what): the held snapshot changed")
            let whole = try Self.session(path, clock).unlock(masterPassword: "pw")
            #expect(snapshot.entries.map(\.id) == whole.entries.map(\.id), "step \(step): \(what)")
            #expect(snapshot.entries == whole.entries, "step \(step): \(what)")
            #expect(snapshot.versions == whole.versions, "step \(step): \(what)")
            #expect(Self.firstDifference(snapshot.report.recommendations, whole.report.recommendations) == nil, "step \(step): \(what)")
            #expect(Self.firstDifference(snapshot.report.hidden, whole.report.hidden) == nil, "step \(step): \(what)")
            for entry in whole.entries where snapshot.entry(id: entry.id) != entry { Issue.record("step \(step): \(what): \(entry.title) not found by id") }
            for (index, recommendation) in whole.report.recommendations.enumerated()
            where snapshot.report.rankedPosition(ofEntry: recommendation.id) != index {
                Issue.record("step \(step): \(what): \(recommendation.entry.title) not found at \(index)")
            }
            for kind in WarningKind.allCases { #expect(snapshot.report.count(kind) == whole.report.count(kind)) }
            for severity in Severity.allCases { #expect(snapshot.report.count(severity) == whole.report.count(severity)) }
            guard snapshot.report == whole.report else { return }  // one failure tells the story
        }
    }
}
