import BulwarkCore
import Foundation
import Testing
@testable import BulwarkTUI

/// `bulwark demo --tour`: every chapter is a built-in upgrade scenario with
/// a title card, the whole fits five minutes at speed 1, the card is drawn
/// over the screen, and ← → move between chapters only in the tour.
@Suite struct TourTests {
    static let scenarios = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Assets/scenarios")

    static func flows() throws -> [Scenario] {
        try FileManager.default.contentsOfDirectory(atPath: scenarios.path).filter { $0.hasSuffix(".scenario") }.sorted().map { file in
            var name = String(file.dropLast(".scenario".count))
            if let dash = name.firstIndex(of: "-") { name = String(name[name.index(after: dash)...]) }
            return try Scenario.parse(String(contentsOf: scenarios.appendingPathComponent(file), encoding: .utf8), name: name)
        }
    }

    @Test func everyChapterIsAScenarioWithItsCardAndTheTourFitsFiveMinutes() throws {
        let flows = try Self.flows()
        var total = 0.0
        for (number, chapter) in Tour.chapters.enumerated() {
            let flow = try #require(flows.first { $0.name == chapter.scenario }, "no scenario \(chapter.scenario)")
            let played = Tour.scenario(number, from: flow)
            guard case .card(let card?) = played.steps[0].step else { Issue.record("chapter \(number + 1) opens without its card"); continue }
            #expect(card == TitleCard(chapter: number + 1, of: Tour.chapters.count, title: flow.title, what: chapter.what, why: chapter.why))
            #expect(played.steps[2].step == .card(nil) && Array(played.steps.dropFirst(3).map(\.step)) == flow.steps.map(\.step))
            total += Tour.estimatedSeconds(played)
        }
        #expect(Set(Tour.chapters.map(\.scenario)).count == Tour.chapters.count)
        #expect(total <= 300, "the tour takes about \(Int(total)) s at speed 1")
        #expect(total >= 120)  // the estimate counts something real
    }

    @Test(arguments: [(80, 24), (60, 16)])
    func theTitleCardIsDrawnOverTheScreen(width: Int, height: Int) throws {
        let chapter = Tour.chapters[4]
        var state = AppState(width: width, height: height, unlocked: true)
        state.titleCard = TitleCard(chapter: 5, of: Tour.chapters.count, title: "Upgrade to a passkey", what: chapter.what, why: chapter.why)
        state.presenter = Presenter(paused: false, tour: true)
        let screen = AppView.render(state).textDump()
        #expect(screen.contains("Chapter 5 of \(Tour.chapters.count)") && screen.contains("Upgrade to a passkey") && screen.contains("Why it matters:"))
        #expect(screen.contains("← → chapter"))
        Snapshot.assert(AppView.render(state), named: "tour-title-card")
    }

    @Test func arrowsMoveBetweenChaptersOnlyInTheTour() throws {
        let flow = try #require(try Self.flows().first { $0.name == "worst-first" })
        let tour = Autoplay(scenario: flow, speed: 1, inTour: true)
        #expect(tour.presenterKey(.right) && tour.chapterRequested == 1)
        let back = Autoplay(scenario: flow, speed: 1, inTour: true)
        #expect(back.presenterKey(.left) && back.chapterRequested == -1)
        let single = Autoplay(scenario: flow, speed: 1)
        #expect(!single.presenterKey(.right) && single.chapterRequested == nil)
        #expect(!Presenter(paused: false).hints.contains { $0.key == "← →" })
    }
}
