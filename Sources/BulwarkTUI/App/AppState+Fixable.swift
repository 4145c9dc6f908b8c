import BulwarkCore
import BulwarkUpgrades

/// The recommendations one key can fix (an upgrade the account's service
/// offers): marked in the list, and first or alone when asked for. Within
/// High Priority, Other and Hidden the ranking is kept; only the order
/// inside each section, or what is listed, changes.
public struct FixableOrder: Sendable, Equatable {
    /// Positions in the ranked list (recommendations, then hidden), in list order.
    public let positions: [Int]
    public let high: Int, all: Int, hidden: Int
}

extension AppState {
    /// Whether an upgrade is offered for the recommendation's account now.
    public func isFixable(_ recommendation: Recommendation) -> Bool {
        guard let entry = entry(id: recommendation.id) else { return false }
        return UpgradeKind.allCases.contains { offer($0, for: entry).reason == nil }
    }

    /// Worked out again when the snapshot, the toggles or the hidden list change (not per frame).
    mutating func refreshFixableOrder() {
        guard fixableFirst || fixableOnly else {
            fixableOrder = nil
            return
        }
        let report = snapshot.report
        func arrange(_ range: Range<Int>, _ at: (Int) -> Recommendation) -> [Int] {
            var fixable: [Int] = [], rest: [Int] = []
            for position in range { if isFixable(at(position)) { fixable.append(position) } else { rest.append(position) } }
            return fixableOnly ? fixable : fixable + rest
        }
        let count = report.recommendations.count, highCount = report.highPriorityCount
        let high = arrange(0..<highCount) { report.recommendations[$0] }
        let other = arrange(highCount..<count) { report.recommendations[$0] }
        let hidden = showHidden ? arrange(count..<(count + report.hidden.count)) { report.hidden[$0 - count] } : []
        fixableOrder = FixableOrder(positions: high + other + hidden, high: high.count, all: high.count + other.count, hidden: hidden.count)
    }
}
