import Foundation

/// The result of an analysis: what to show, what is hidden, and counts.
///
/// A value the app's screens hold while the analysis changes it: the lists
/// are chunked and the lookup by entry sharded, so that replacing one
/// account's recommendation (`replace`) copies a chunk and a shard, not
/// the report, and keeps the counts by adding and taking away.
public struct RecommendationsReport: Sendable, Equatable {
    /// Visible recommendations, ranked.
    public private(set) var recommendations: ChunkedArray<Recommendation>
    /// Hidden ones (hidden, or hidden until a date still to come), ranked.
    public private(set) var hidden: ChunkedArray<Recommendation>
    /// Counts kept as recommendations come and go: screens read them on
    /// every frame, and counting 100k recommendations per frame took a tenth of a second.
    private var severityCounts = [Int](repeating: 0, count: Severity.allCases.count)
    private var kindCounts = [Int](repeating: 0, count: WarningKind.allCases.count)
    /// Recommendations with none of breached, reused or weak.
    public private(set) var otherKindsOnly = 0
    /// Each entry's recommendation, visible or hidden: the vault list (for
    /// its marks) and the entry detail ask on every frame.
    private var byEntry = ShardedTable<Recommendation>()

    public init(recommendations: [Recommendation], hidden: [Recommendation]) {
        self.recommendations = ChunkedArray(recommendations)
        self.hidden = ChunkedArray(hidden)
        for recommendation in recommendations { count(recommendation, by: 1) }
        for recommendation in hidden + recommendations { byEntry[recommendation.id] = recommendation }
    }

    public static func == (a: RecommendationsReport, b: RecommendationsReport) -> Bool {
        a.recommendations == b.recommendations && a.hidden == b.hidden
    }

    /// High Priority (critical and high) and Other, each ranked: the
    /// ranking puts severity first, so High Priority is the list's start.
    public var highPriorityCount: Int { count(.critical) + count(.high) }
    public var highPriority: [Recommendation] { Array(recommendations.prefix(highPriorityCount)) }
    public var other: [Recommendation] { Array(recommendations.dropFirst(highPriorityCount)) }

    /// The visible recommendation for an entry, if it has one.
    public func recommendation(forEntry id: String) -> Recommendation? { byEntry[id].flatMap { $0.hidden ? nil : $0 } }

    /// An entry's recommendation, visible or hidden.
    func anyRecommendation(forEntry id: String) -> Recommendation? { byEntry[id] }

    /// Where an entry's recommendation is in the ranked list followed by
    /// the hidden ones: a binary search by its rank.
    public func rankedPosition(ofEntry id: String) -> Int? {
        guard let recommendation = byEntry[id] else { return nil }
        let list = recommendation.hidden ? hidden : recommendations
        let index = list.insertionIndex(of: recommendation, by: Recommendation.ranksBefore)
        guard index < list.count, list[index].id == id else { return nil }
        return recommendation.hidden ? recommendations.count + index : index
    }

    public func count(_ severity: Severity) -> Int { severityCounts[severity.rawValue] }
    public func count(_ kind: WarningKind) -> Int { kindCounts[kind.rank] }

    /// The worst severity shown, nil when there is nothing to do.
    public var worst: Severity? { recommendations.first?.severity }

    /// Puts an entry's new recommendation (nil: none) in place of its old one.
    public mutating func replace(entry id: String, with new: Recommendation?) {
        // Ranked the same (a reuse group's new member named, say): changed in place.
        if let old = byEntry[id], let new, old.hidden == new.hidden, old.severity == new.severity,
           !Recommendation.ranksBefore(old, new), !Recommendation.ranksBefore(new, old) {
            let index = old.hidden ? hidden.insertionIndex(of: old, by: Recommendation.ranksBefore)
                                   : recommendations.insertionIndex(of: old, by: Recommendation.ranksBefore)
            if old.hidden { hidden[index] = new } else {
                recommendations[index] = new
                count(old, by: -1)
                count(new, by: 1)
            }
            byEntry[id] = new
            return
        }
        if let old = byEntry[id] {
            let index = old.hidden ? hidden.insertionIndex(of: old, by: Recommendation.ranksBefore)
                                   : recommendations.insertionIndex(of: old, by: Recommendation.ranksBefore)
            if old.hidden { hidden.remove(at: index) } else {
                recommendations.remove(at: index)
                count(old, by: -1)
            }
        }
        byEntry[id] = new
        guard let new else { return }
        if new.hidden {
            hidden.insert(new, at: hidden.insertionIndex(of: new, by: Recommendation.ranksBefore))
        } else {
            recommendations.insert(new, at: recommendations.insertionIndex(of: new, by: Recommendation.ranksBefore))
            count(new, by: 1)
        }
    }

    private static let passwordKinds = 1 << WarningKind.breached.rank | 1 << WarningKind.reused.rank | 1 << WarningKind.weak.rank

    private mutating func count(_ recommendation: Recommendation, by step: Int) {
        severityCounts[recommendation.severity.rawValue] += step
        var seen = 0  // a bit per kind: each kind counts once per account
        for warning in recommendation.warnings where seen & (1 << warning.kind.rank) == 0 {
            seen |= 1 << warning.kind.rank
            kindCounts[warning.kind.rank] += step
        }
        if seen & Self.passwordKinds == 0 { otherKindsOnly += step }
    }
}
