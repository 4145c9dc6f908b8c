import Foundation
import Testing
@testable import BulwarkCore

/// An identity provider's account whose password is at risk: every account
/// that signs in through it is named, and it ranks above its peers by their number.
@Suite struct BlastRadiusTests {
    static func federated(_ id: String, _ title: String, _ url: String) -> Entry {
        var entry = SecurityAnalyzerTests.entry(id, title, url, password: SecurityAnalyzerTests.strong(Int(id.dropFirst())!), category: .other)
        entry.signsInWith = "https://id.nimbus.example"
        return entry
    }

    static var vault: [Entry] {
        [
            SecurityAnalyzerTests.entry("n0", "Nimbus ID", "https://id.nimbus.example", password: "alice1990", category: .other),
            SecurityAnalyzerTests.entry("w1", "Alice's Blog", "https://blog.example", user: "alice", password: "alice1990x", category: .other),
            federated("f1", "Shiny", "https://shiny.example"), federated("f2", "Cloud Notes", "https://cloudnotes.example"),
            federated("f3", "Grocer", "https://grocer.example"),
        ]
    }

    @Test func theProviderNamesItsAccountsAndRanksAboveItsPeers() throws {
        let dir = TemporaryDirectory()
        let analyzer = try SecurityAnalyzerTests.analyzer(dir, Self.vault)
        let report = analyzer.report()
        let nimbus = try #require(report.recommendation(forEntry: "n0"))
        let blog = try #require(report.recommendation(forEntry: "w1"))
        let accounts = try #require(nimbus.warnings.lazy.compactMap { if case .identityProvider(let a) = $0 { a } else { nil } }.first)
        #expect(accounts.map(\.title) == ["Cloud Notes", "Grocer", "Shiny"])
        #expect(Warning.identityProvider(accounts: accounts).reason
                == "3 accounts sign in with this one: Cloud Notes, Grocer, Shiny. Whoever has this password has them too.")
        // The same weakness, one step more severe, and first.
        #expect(blog.severity == .medium && nimbus.severity == .high)
        #expect(report.recommendations.firstIndex { $0.id == "n0" }! < report.recommendations.firstIndex { $0.id == "w1" }!)
    }

    @Test func itFollowsTheAccountsAsTheyChange() throws {
        let dir = TemporaryDirectory()
        let analyzer = try SecurityAnalyzerTests.analyzer(dir, Self.vault)
        var shiny = Self.vault[2]
        shiny.signsInWith = nil
        try analyzer.update(shiny)
        analyzer.remove(id: "f3")
        let nimbus = try #require(analyzer.recommendation(forEntry: "n0"))
        #expect(nimbus.warnings.contains(.identityProvider(accounts: [AccountRef(id: "f2", title: "Cloud Notes", site: "cloudnotes.example")])))
        try analyzer.update(Self.vault[3].with { $0.signsInWith = nil })
        #expect(analyzer.recommendation(forEntry: "n0")?.kinds.contains(.identityProvider) == false)
        // A strong provider password is no finding at all, however many sign in through it.
        let strong = SecurityAnalyzerTests.entry("n0", "Nimbus ID", "https://id.nimbus.example", password: SecurityAnalyzerTests.strong(0), category: .other)
        try analyzer.update(strong)
        try analyzer.update(Self.vault[3])
        #expect(analyzer.recommendation(forEntry: "n0") == nil)
    }
}

extension Entry {
    func with(_ change: (inout Entry) -> Void) -> Entry {
        var copy = self
        change(&copy)
        return copy
    }
}
