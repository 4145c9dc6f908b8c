import Foundation
import Testing
@testable import BulwarkCore

/// A vault built for the purpose: planted breached, reused and weak
/// passwords among strong unique ones.
@Suite struct SecurityAnalyzerTests {
    static let now = Date(timeIntervalSinceReferenceDate: 800_000_000)  // 2026-05-08
    static let day: TimeInterval = 86_400

    /// A strong password no corpus holds, different for every seed.
    static func strong(_ seed: Int) -> String { ["cytxup-Gyszi6-vozzab", "hobwy7-Qatnez-rypfuk", "mepsu2-Wodtiv-gacnoj",
                                                 "zuvqek-fyrMa4-tibsol", "pagdor-Xunqe8-wilfam", "rovjip-kemVu3-dasnyx",
                                                 "lytsab-Heqwo6-nugzir", "fanmox-Tivre5-qelbuc", "dezgul-Pomsa9-xirnev"][seed] }

    static func entry(_ id: String, _ title: String, _ url: String?, user: String = "jane", password: String?,
                      category: AccountCategory? = nil, changedDaysAgo: Double = 10, tags: [String] = [],
                      totp: String? = nil) -> Entry {
        var e = Entry(id: id, title: title, urls: url.map { [$0] } ?? [], username: user, password: password, totpURI: totp,
                      tags: tags, category: category, created: now - changedDaysAgo * day)
        e.passwordChanged = now - changedDaysAgo * day
        return e
    }

    static var planted: [Entry] {
        [
            entry("s1", "Calm Garden", "https://garden.example", password: strong(0), category: .other),
            entry("s2", "Quiet Library", "https://library.example", password: strong(1), category: .other),
            entry("s3", "Northwind Bank", "https://bank.northwind.example", password: strong(2), category: .finance),
            entry("b1", "Old Forum", "https://oldforum.example", password: "letmein", category: .social),
            entry("b2", "Fastmail", "https://fastmail.example", password: "Vq7#mT2p!Lz9", category: .email),
            entry("r1", "Game One", "https://gameone.example", password: strong(3), category: .other),
            entry("r2", "Game Two", "https://gametwo.example", password: strong(3), category: .other),
            entry("r3", "Tax Office", "https://tax.gov.example", password: strong(4), category: .government),
            entry("r4", "Recipes", "https://recipes.example", password: strong(4), category: .other),
            // One account on two domains of one backend: not reuse.
            entry("p1", "Shiny", "https://shiny.example", password: strong(5), category: .shopping),
            entry("p2", "Shiny Store", "https://www.shinystore.example", password: strong(5), category: .shopping),
            // Two accounts on one site: not reuse.
            entry("p3", "Chess (main)", "https://chess.example", password: strong(6), category: .other),
            entry("p4", "Chess (alt)", "https://play.chess.example", password: strong(6), category: .other),
            entry("w1", "Alice's Blog", "https://blog.example", user: "alice", password: "alice1990", category: .other),
            entry("w2", "City Health", "https://health.city.example", password: "bcdefghijk", category: .health),
            entry("k1", "Debit card", nil, password: "1234", tags: ["pin"]),
            entry("k2", "Door", nil, password: "8305"),
            entry("u1", "Router", "http://router.example", password: strong(7), category: .other),
            entry("o1", "Library Card", "https://cards.example", password: strong(8), category: .other, changedDaysAgo: 400),
        ]
    }

    static func corpus(_ dir: TemporaryDirectory) throws -> BreachCorpus {
        let hex = Digest.sha1(Array("Vq7#mT2p!Lz9".utf8)).hex.uppercased()
        let lines = ["0000000000000000000000000000000000000001:5", "\(hex):1234", "FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF:7"]
        let path = dir.file("pwned.txt")
        try Data((lines.joined(separator: "\r\n") + "\r\n").utf8).write(to: path)
        return try BreachCorpus.load(paths: [path.path])
    }

    /// One backend on two domains, as a quirks file or a service declares it.
    static let shinyBackend = SharedCredentials(groups: [["shiny.example", "shinystore.example"]])

    static func analyzer(_ dir: TemporaryDirectory, _ entries: [Entry] = planted, sharing: SharedCredentials = shinyBackend,
                         services: ServiceRequirementsProvider? = nil) throws -> SecurityAnalyzer {
        let analyzer = SecurityAnalyzer(breaches: try corpus(dir), sharing: sharing, services: services, clock: { now })
        try analyzer.load(entries)
        return analyzer
    }

    /// A large vault is analysed in batches, each ending in a whole new
    /// report while the screen holds the last (a batch of 8 among 19
    /// accounts is ranked whole, not patched): an account whose
    /// recommendation did not change is the last report's, shared, not a
    /// copy. The result is the report of analysing everything at once.
    @Test func aBatchsWholeReportSharesWhatDidNotChange() throws {
        let dir = TemporaryDirectory()
        let analyzer = SecurityAnalyzer(breaches: try Self.corpus(dir), sharing: Self.shinyBackend, clock: { Self.now })
        let firstIDs: Set = ["s1", "s2", "s3", "b1", "b2", "r1", "r3", "p1", "p3", "w1", "u1"]
        analyzer.reserve(Self.planted.count)
        try analyzer.add(Self.planted.filter { firstIDs.contains($0.id) })
        let before = analyzer.report()
        try analyzer.add(Self.planted.filter { !firstIDs.contains($0.id) })  // r1 and r3 now reused
        let after = analyzer.report()
        let shared = after.recommendations.filter { r in before.recommendations.contains { $0.isShared(with: r) } }.map(\.id)
        #expect(shared.sorted() == ["b1", "b2", "u1", "w1"])
        #expect(Set(before.recommendations.map(\.id)) == ["b1", "b2", "u1", "w1"])
        #expect(after == (try Self.analyzer(dir)).report())
    }

    @Test func everyPlantedProblemIsFoundAndRankedAndNothingElse() throws {
        let dir = TemporaryDirectory()
        let report = try Self.analyzer(dir).report()
        let rows = report.recommendations.map { "\($0.id) \($0.severity.label) \($0.kinds.map(\.rawValue).joined(separator: ","))" }
        #expect(rows == [
            "b2 critical breached",          // breached e-mail account
            "b1 high breached,weak",         // on the common list, and weak
            "r3 high reused",                // reuse group with a government account
            "r4 high reused",
            "w2 high weak",                  // weak health account
            "k1 high weak",                  // a PIN judged by PIN rules; a card is finance
            "r1 medium reused",
            "r2 medium reused",
            "w1 medium weak",
            "u1 low insecure-url",
            "o1 low old",
        ])
        #expect(report.hidden.isEmpty)
        #expect(report.highPriority.map(\.id) == ["b2", "b1", "r3", "r4", "w2", "k1"])
        #expect(report.count(.critical) == 1 && report.count(.high) == 5 && report.count(.medium) == 3 && report.count(.low) == 2)
        #expect(report.count(.reused) == 4 && report.count(.breached) == 2 && report.count(.weak) == 4)
    }

    @Test func reasonsArePlainAndNameTheGroup() throws {
        let dir = TemporaryDirectory()
        let analyzer = try Self.analyzer(dir)
        #expect(analyzer.recommendation(forEntry: "b2")?.warnings.map(\.reason) ==
                ["This password has appeared in a data breach 1,234 times, so attackers try it first."])
        #expect(analyzer.recommendation(forEntry: "r3")?.warnings.map(\.reason) ==
                ["This password is also used for 1 other account: Recipes. A breach of one exposes them all."])
        #expect(analyzer.recommendation(forEntry: "r3")?.group.map(\.id) == ["r4"])
        #expect(analyzer.recommendation(forEntry: "w1")?.warnings.map(\.reason) ==
                ["This password is easy to guess: it contains the account's username or the site's name."])
        #expect(analyzer.recommendation(forEntry: "k1")?.warnings.map(\.reason) ==
                ["This password is easy to guess: the PIN is a run of digits (like 1234 or 9753)."])
        #expect(analyzer.recommendation(forEntry: "b1")?.warnings.first?.reason ==
                "This password is on a list of the most common passwords, which attackers try first.")
        #expect(analyzer.recommendation(forEntry: "u1")?.warnings.map(\.reason) ==
                ["The sign-in page http://router.example is not encrypted (http), so the password can be read on the way."])
        #expect(analyzer.recommendation(forEntry: "o1")?.warnings.map(\.reason) ==
                ["This password has not been changed in over a year."])
        for id in ["s1", "s2", "s3", "p1", "p2", "p3", "p4", "k2"] { #expect(analyzer.recommendation(forEntry: id) == nil, "\(id)") }
    }

    @Test func aLargeGroupNamesFiveAccountsAndCountsTheRest() throws {
        let dir = TemporaryDirectory()
        let entries = (1...8).map { Self.entry("g\($0)", "Site \($0)", "https://site\($0).example", password: Self.strong(0)) }
        let recommendation = try #require(try Self.analyzer(dir, entries).recommendation(forEntry: "g1"))
        #expect(recommendation.warnings.map(\.reason) == [
            "This password is also used for 7 other accounts: Site 2, Site 3, Site 4, Site 5, Site 6 and 2 more. A breach of one exposes them all.",
        ])
        #expect(recommendation.group.map(\.id) == ["g2", "g3", "g4", "g5", "g6", "g7", "g8"])
    }

    @Test func quirksSharedCredentialsAreNotReuse() throws {
        let dir = TemporaryDirectory()
        let pair = [Self.entry("a", "Amazon", "https://www.amazon.com", password: Self.strong(0)),
                    Self.entry("b", "Amazon UK", "https://amazon.co.uk", password: Self.strong(0))]
        #expect(try Self.analyzer(dir, pair).report().recommendations.map(\.id) == ["a", "b"])
        let quirks = try QuirksDirectory.load(from: SharedData.quirksDirectory)
        #expect(try Self.analyzer(dir, pair, sharing: .with(quirks)).report().recommendations.isEmpty)
    }

    @Test func sharedGroupsMergeWhenTheyShareADomain() {
        var sharing = SharedCredentials(groups: [["a.example", "b.example"], ["c.example", "d.example"]])
        #expect(!sharing.shareCredentials("a.example", "d.example"))
        sharing.add(["b.example", "c.example"])
        #expect(sharing.shareCredentials("login.a.example", "d.example"))
        #expect(!sharing.shareCredentials("a.example", "e.example"))
    }

    struct TwoFactorServices: ServiceRequirementsProvider {
        func passwordRules(for host: String) -> String? { nil }
        func changePasswordURL(for host: String) -> String? { nil }
        func twoFactorMethod(for host: String) -> String? { host == "garden.example" ? "totp" : nil }
    }

    @Test func noTwoFactorWhenTheServiceOffersTOTPAndNoCodeIsStored() throws {
        let dir = TemporaryDirectory()
        var withCode = Self.entry("c", "Garden (code)", "https://garden.example", user: "bob", password: Self.strong(1))
        withCode.totpURI = "otpauth://totp/Garden:bob?secret=JBSWY3DPEHPK3PXP"
        let entries = [Self.entry("n", "Garden", "https://garden.example", password: Self.strong(0)), withCode]
        let report = try Self.analyzer(dir, entries, services: TwoFactorServices()).report()
        #expect(report.recommendations.map(\.id) == ["n"])
        #expect(report.recommendations.first?.warnings == [.noTwoFactor(method: "totp")])
    }

    @Test func hiddenRecommendationsAreCountedAndListedApartUntilTheirDate() throws {
        let dir = TemporaryDirectory()
        var entries = Self.planted
        let index = { (id: String) in entries.firstIndex { $0.id == id }! }
        entries[index("b1")].hiddenFromRecommendations = true
        entries[index("u1")].hiddenFromRecommendations = true
        entries[index("u1")].hiddenUntil = Self.now + Self.day
        entries[index("o1")].hiddenFromRecommendations = true
        entries[index("o1")].hiddenUntil = Self.now - Self.day  // expired: shown again
        let report = try Self.analyzer(dir, entries).report()
        #expect(report.hidden.map(\.id) == ["b1", "u1"])
        #expect(report.hidden.map(\.hiddenUntil) == [nil, Self.now + Self.day])
        #expect(!report.recommendations.contains { $0.id == "b1" || $0.id == "u1" })
        #expect(report.recommendations.contains { $0.id == "o1" })
    }

    @Test func anEditReanalysesOneEntryAndItsGroups() throws {
        let dir = TemporaryDirectory()
        let analyzer = try Self.analyzer(dir)
        let before = analyzer.evaluations
        var recipes = Self.planted.first { $0.id == "r4" }!
        recipes.changePassword(to: Self.strong(2), reason: "test", at: Self.now)  // now shared with the bank
        try analyzer.update(recipes)
        #expect(analyzer.evaluations == before + 1)
        #expect(analyzer.recommendation(forEntry: "r3") == nil)  // its old group is now a single account
        #expect(analyzer.recommendation(forEntry: "s3")?.severity == .high)
        #expect(analyzer.recommendation(forEntry: "s3")?.group.map(\.id) == ["r4"])
        // Renaming changes nothing the password facts depend on except the title word.
        var garden = Self.planted.first { $0.id == "s1" }!
        garden.notes = "a note"
        try analyzer.update(garden)
        #expect(analyzer.evaluations == before + 1)
    }

    /// A recommendation reads its user name from the entry it was made
    /// from (it keeps no copy): the name as it was then, after the entry
    /// changed, and the new one in the next report.
    @Test func aRecommendationNamesTheUserAsItsEntryDidThen() throws {
        let dir = TemporaryDirectory()
        let analyzer = try Self.analyzer(dir)
        let before = analyzer.report()
        var forum = Self.planted.first { $0.id == "b1" }!
        #expect(before.recommendation(forEntry: "b1")?.username == "jane")
        forum.username = "jane.doe@mail.example"
        try analyzer.update(forum)
        #expect(before.recommendation(forEntry: "b1")?.username == "jane")
        #expect(analyzer.report().recommendation(forEntry: "b1")?.username == "jane.doe@mail.example")
    }

    /// A large vault's report is worked out on every core, a run of
    /// records each: it holds each account's recommendation as worked out
    /// alone, and none twice.
    @Test func aReportMadeOnEveryCoreHoldsEachAccountsRecommendation() throws {
        let dir = TemporaryDirectory()
        let passwords = (0..<9).map(Self.strong) + ["letmein", "Vq7#mT2p!Lz9", "alice1990", "hunter2"]
        let entries = (0..<5_000).map { i in
            var entry = Self.entry("m\(i)", "Account \(i)", i % 7 == 0 ? "http://site\(i % 40).example" : "https://site\(i % 40).example",
                                   password: passwords[i % passwords.count], changedDaysAgo: Double(i % 500))
            if i % 11 == 0 { entry.hiddenFromRecommendations = true }
            return entry
        }
        let analyzer = try Self.analyzer(dir, entries)
        let report = analyzer.report()
        let worked = entries.compactMap { analyzer.recommendation(forEntry: $0.id) }
        #expect(report.recommendations.count + report.hidden.count == worked.count)
        #expect(Set((Array(report.recommendations) + Array(report.hidden)).map(\.id)).count == worked.count)
        for recommendation in worked {
            #expect((recommendation.hidden ? report.anyRecommendation(forEntry: recommendation.id) : report.recommendation(forEntry: recommendation.id)) == recommendation)
        }
        #expect(report.hidden.count > 0 && report.recommendations.count > 2_048)
    }

    /// Property: after any sequence of random edits, removals and
    /// additions, the incremental report equals a fresh analysis.
    @Test func incrementalResultsEqualAFreshAnalysis() throws {
        let dir = TemporaryDirectory()
        var rng = SplitMix64(seed: 42)
        var entries = Self.planted
        let analyzer = try Self.analyzer(dir, entries)
        let passwords = (0..<9).map(Self.strong) + ["letmein", "Vq7#mT2p!Lz9", "alice1990", "1234", "8305"]
        var remembered = analyzer.takeStrengthMemo()!
        for step in 0..<120 {
            switch Int.random(in: 0..<10, using: &rng) {
            case 0..<6:
                let i = Int.random(in: 0..<entries.count, using: &rng)
                entries[i].changePassword(to: passwords.randomElement(using: &rng)!, reason: "edit", at: Self.now)
                try analyzer.update(entries[i])
            case 6..<8 where entries.count > 3:
                let removed = entries.remove(at: Int.random(in: 0..<entries.count, using: &rng))
                analyzer.remove(id: removed.id)
            default:
                let site = ["gameone.example", "shiny.example", "tax.gov.example", "new.example"].randomElement(using: &rng)!
                let added = Self.entry("n\(step)", "New \(step)", "https://\(site)", password: passwords.randomElement(using: &rng)!)
                entries.append(added)
                try analyzer.update(added)
            }
            #expect(analyzer.report() == (try Self.analyzer(dir, entries).report()), "step \(step)")
            // The memo the edits leave lets a fresh analysis measure nothing
            // and agree, and holds exactly the passwords in use.
            let memo = analyzer.takeStrengthMemo() ?? remembered
            remembered = memo
            let reopened = SecurityAnalyzer(breaches: try Self.corpus(dir), sharing: Self.shinyBackend, memo: memo, clock: { Self.now })
            try reopened.load(entries)
            #expect(reopened.measured == 0 && reopened.report() == analyzer.report(), "step \(step)")
            #expect(reopened.takeStrengthMemo() == nil, "step \(step)")
            let inUse = Set(entries.compactMap { e in e.password.map { ($0, e) } }.filter { !PINRules.isPIN($0.1) }.map(\.0))
            #expect(memo.count >= inUse.count && memo.count <= entries.count, "step \(step)")
        }
    }
}
