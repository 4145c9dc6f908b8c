import Testing
@testable import BulwarkTUI

/// The list's rows are worked out by arithmetic; this is the list they
/// stand for, built whole.
@Suite struct RecommendationRowsTests {
    static func built(high: Int, all: Int, hidden: Int) -> [RecommendationsScreen.Row] {
        var rows: [RecommendationsScreen.Row] = []
        if high > 0 { rows.append(.header("HIGH PRIORITY (\(high))")) }
        for index in 0..<all {
            if index == high { rows.append(.header("OTHER (\(all - high))")) }
            rows.append(.item(index))
        }
        if hidden > 0 {
            rows.append(.header("HIDDEN (\(hidden))"))
            for index in 0..<hidden { rows.append(.item(all + index)) }
        }
        return rows
    }

    @Test(arguments: [(0, 0, 0), (0, 3, 0), (3, 3, 0), (2, 5, 0), (2, 5, 3), (0, 0, 2), (4, 4, 1), (0, 6, 2), (1, 1, 0)])
    func rowsEqualTheWholeList(high: Int, all: Int, hidden: Int) {
        let rows = RecommendationsScreen.Rows(high: high, all: all, hidden: hidden)
        let expected = Self.built(high: high, all: all, hidden: hidden)
        #expect(rows.count == expected.count)
        #expect((0..<rows.count).map { rows[$0] } == expected)
        for (row, kind) in expected.enumerated() {
            if case .item(let item) = kind { #expect(rows.row(ofItem: item) == row) }
        }
    }
}
