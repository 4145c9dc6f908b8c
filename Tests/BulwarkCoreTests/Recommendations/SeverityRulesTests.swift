import Foundation
import Testing
@testable import BulwarkCore

/// The manual's severity table (docs/manual/recommendations.md), row by row.
@Suite struct SeverityRulesTests {
    static let breached = Warning.breached(count: 10, corpus: "c")
    static let reused = Warning.reused(ReuseGroup(members: [AccountRef(id: "x", title: "X", site: "x.example"),
                                                              AccountRef(id: "y", title: "Y", site: "y.example")], owner: "y"))
    static let weak = Warning.weak(bits: 10, pattern: "sequence", why: "w")
    static let insecure = Warning.insecureURL("http://x.example")
    static let old = Warning.old(changed: Date(timeIntervalSinceReferenceDate: 0), days: 400)
    static let noTwoFactor = Warning.noTwoFactor(method: "totp")

    @Test func warningKindsRankInTheOrderTheyAreDeclared() {
        #expect(WarningKind.allCases.map(\.rank) == Array(0..<WarningKind.allCases.count))
    }

    @Test(arguments: [
        // warnings, sensitive account, sensitive group, expected
        ([breached], false, false, Severity.high),
        ([breached], true, false, .critical),
        ([reused], false, false, .medium),
        ([reused], false, true, .high),
        ([reused], true, false, .high),
        ([weak], false, false, .medium),
        ([weak], true, false, .high),
        ([weak], false, true, .medium),          // a sensitive group raises reuse only
        ([insecure], false, false, .low),
        ([insecure], true, false, .medium),
        ([old], false, false, .low),
        ([old], true, false, .medium),
        ([noTwoFactor], false, false, .low),
        ([noTwoFactor], true, false, .medium),
        ([breached, reused], false, false, .critical),
        ([weak, old, insecure], false, false, .medium),
        ([reused, weak], false, true, .high),
        ([breached, weak], false, false, .high),
    ] as [([Warning], Bool, Bool, Severity)])
    func severityTable(warnings: [Warning], sensitiveAccount: Bool, sensitiveGroup: Bool, expected: Severity) {
        #expect(SeverityRules.severity(of: warnings, sensitiveAccount: sensitiveAccount, sensitiveGroup: sensitiveGroup) == expected)
    }

    @Test func noWarningsNoSeverity() {
        #expect(SeverityRules.severity(of: [], sensitiveAccount: true, sensitiveGroup: true) == nil)
    }

    @Test func highPriorityIsCriticalAndHigh() {
        func rec(_ s: Severity) -> Recommendation {
            Recommendation(entry: AccountRef(id: "a", title: "A", site: ""), username: "", category: .other, severity: s,
                           warnings: [Self.weak], hidden: false, hiddenUntil: nil)
        }
        #expect(Severity.allCases.map { rec($0).priority } == [.other, .other, .high, .high])
    }

    /// The ranking's last steps as the manual gives them: more warnings
    /// first, then the title without regard to case, then the id.
    @Test func tiesGoByWarningsThenTitleThenID() {
        func rec(_ id: String, _ title: String, _ warnings: [Warning] = [Self.weak]) -> Recommendation {
            Recommendation(entry: AccountRef(id: id, title: title, site: ""), username: "", category: .other, severity: .medium,
                           warnings: warnings, hidden: false, hiddenUntil: nil)
        }
        let list = [rec("b", "Bank"), rec("c", "apple"), rec("a", "bank"), rec("d", "Zoo", [Self.weak, .insecureURL("http://zoo.example")])]
        #expect(Recommendation.ranked(list).map(\.id) == ["d", "c", "a", "b"])
        #expect(Recommendation.ranked(list.reversed()).map(\.id) == ["d", "c", "a", "b"])
    }
}
