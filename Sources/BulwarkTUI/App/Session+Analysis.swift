import BulwarkCore
import Foundation

/// A large vault is shown as soon as it is read, and analysed behind the
/// screens a batch at a time: each batch is one step of an effect, so the
/// session's lock is free between them for edits, and each step's snapshot
/// shows the recommendations found so far with how far it got.
extension AppSession {
    /// Which breached accounts the person has not been told about yet (and
    /// from now on has been).
    func takeNewlyBreached(_ report: RecommendationsReport) -> [String] {
        guard let vault else { return [] }
        let breached = report.recommendations.filter { $0.kinds.contains(.breached) }
        let seen = Set((vault.note("seen-breaches") ?? "").split(separator: "\n").map(String.init))
        try? vault.setNote("seen-breaches", (seen.union(breached.map(\.id))).sorted().joined(separator: "\n"))
        return breached.filter { !seen.contains($0.id) }.map(\.entry.title)
    }

    /// The entries as the vault opened, still to analyse; and those changed
    /// since, which the changes themselves brought into the analysis.
    struct PendingAnalysis {
        var entries: [Entry]
        var next = 0
        var touched = Set<String>()
        var progress: SessionSnapshot.AnalysisProgress { .init(done: next, total: entries.count) }
    }

    /// Analyses the next batch of a vault opened with its analysis pending;
    /// the snapshot says how far it got (no progress: done).
    public func analyseNextBatch() -> SessionSnapshot {
        lock.withLock {
            guard var pending = pendingAnalysis, let analyzer, let vault else { return makeSnapshot() }
            let end = min(pending.entries.count, pending.next + analysisBatch)
            let batch = pending.entries[pending.next..<end].filter { !pending.touched.contains($0.id) }
            if pending.next > 0 { FreeMemory.giveBack() }  // the last batch's leavings, and the report the screen let go
            try? analyzer.add(batch)
            StrengthFloor.letGoOfTables()  // judged: the word tables' 1.4 MB are not needed for the report
            pending.next = end
            pendingAnalysis = end < pending.entries.count ? pending : nil
            // The memo is kept before the last report is made: sealing and
            // writing it holds a few copies of it (some 2 MB each at 100k),
            // and the screen holds the previous report until this returns.
            if pendingAnalysis == nil { vault.keepStrengthMemo(of: analyzer) }
            var snapshot = makeSnapshot()
            if pendingAnalysis == nil { snapshot.newlyBreached = takeNewlyBreached(snapshot.report) }
            return snapshot
        }
    }
}
