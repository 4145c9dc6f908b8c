@testable import BulwarkCore
import BulwarkUpgrades
import Foundation
import Testing
@testable import BulwarkTUI

/// A large vault is shown as soon as it is read and analysed in batches
/// behind the screens: the recommendations fill in with a progress line,
/// edits go between batches, and the end is the same report and the same
/// news as analysing before the first frame. (The demo stands in for a
/// large vault by lowering the threshold.)
@Suite struct BackgroundAnalysisTests {
    static func background(_ f: AppFixture) {
        f.session.analyseInBackgroundFrom = 10
        f.session.analysisBatch = 15
    }

    /// Gives the vault's last entry (not analysed yet) a new password between
    /// batches, then runs the analysis to its end: the last snapshot.
    static func editLastThenFinish(_ f: AppFixture, _ first: SessionSnapshot, _ second: SessionSnapshot, to password: String) throws -> SessionSnapshot {
        let late = try #require(first.entries.last)
        var edited = late
        edited.changePassword(to: password, reason: "test", at: AppFixture.now)
        _ = try f.session.save(edited, basedOn: second.versions[late.id])
        var last = second
        while last.analysis != nil { last = f.session.analyseNextBatch() }
        return last
    }

    @Test func theRecommendationsFillInAndEndAsAWholeAnalysis() async throws {
        let f = try AppFixture(unlocked: false)
        Self.background(f)
        let first = try f.session.unlock(masterPassword: "demo")
        #expect(first.analysis == SessionSnapshot.AnalysisProgress(done: 0, total: 42))
        #expect(first.report.recommendations.isEmpty && first.entries.count == 42)
        var state = AppState(width: 80, height: 24, unlocked: true, snapshot: first, now: AppFixture.now)
        state.screen = .recommendations
        #expect(AppView.render(state).textDump().contains("Analysing the vault's passwords"))

        // The rows by id are made with the load (the snapshot shares them), so the first change does not wait for them.
        #expect(f.session.vault?.rows.count == 42)
        let second = f.session.analyseNextBatch()
        #expect(second.analysis == SessionSnapshot.AnalysisProgress(done: 15, total: 42))
        #expect(!second.report.recommendations.isEmpty)
        state.apply(second)
        Snapshot.assert(AppView.render(state), named: "recommendations-analysing")

        // An edit between batches: one entry analysed already, one not yet.
        let late = try #require(first.entries.last)
        let last = try Self.editLastThenFinish(f, first, second, to: "123456")

        let whole = AppSession(vaultPath: f.session.vaultPath, catalog: try ServiceCatalog.builtIn(), breaches: try BreachCorpus.load(paths: []),
                               appleID: DemoSetup.appleID, clock: { AppFixture.now }, sleep: { _ in })
        let expected = try whole.unlock(masterPassword: "demo")
        #expect(last.report == expected.report)
        #expect(last.report.recommendation(forEntry: late.id)?.kinds.contains(.breached) == true)
        #expect(last.entries == expected.entries)
    }

    /// The memo is not kept while the analysis is under way: kept then, it
    /// would hold only the entries analysed so far, and the batches after
    /// would measure every other password again.
    @Test func anEditDuringTheAnalysisKeepsTheMemoWhole() throws {
        let f = try AppFixture(unlocked: false)
        Self.background(f)
        f.session.memoKeptAfterChanges = 1
        let prepared = try Vault.open(at: f.session.vaultPath, masterPassword: "demo")
        try prepared.prepareStrengthMemo()
        let remembered = prepared.strengthMemo().count
        prepared.close()
        #expect(remembered > 30)

        let first = try f.session.unlock(masterPassword: "demo")
        let second = f.session.analyseNextBatch()
        #expect(second.analysis?.done == 15)
        _ = try Self.editLastThenFinish(f, first, second, to: "Fresh-Qx9#vT2m-late")
        // Only the new password met zxcvbn; every other estimate came from the memo.
        #expect(f.session.analyzer?.measured == 1)
        // At the end the memo is kept, whole: every password in use, the new one included.
        let kept = try #require(f.session.vault?.strengthMemo())
        #expect(kept.count == remembered)
        f.session.lockVault()
        let reopened = try Vault.open(at: f.session.vaultPath, masterPassword: "demo")
        let analyzer = SecurityAnalyzer(breaches: BreachCorpus(files: []), memo: reopened.strengthMemo())
        try analyzer.load(reopened.entries)
        #expect(analyzer.measured == 0)
        reopened.close()
    }

    @Test func theAppRunsTheBatchesAndTellsTheNewsAtTheEnd() async throws {
        let plain = try AppFixture(unlocked: false)
        await plain.type("demo")
        await plain.press(.enter)
        let f = try AppFixture(unlocked: false)
        Self.background(f)
        await f.type("demo")
        await f.press(.enter)
        #expect(f.state.unlocked && f.state.snapshot.analysis == nil)
        #expect(f.state.snapshot.report == plain.state.snapshot.report)
        #expect(f.state.banner != nil && f.state.banner == plain.state.banner)  // the breach news, said once the analysis is done
    }
}
