import BulwarkCore
import Foundation
import Testing
@testable import BulwarkTUI

/// Clicks land on what the frame drew: rows select, footer hints and a
/// dialog's buttons press their keys, a dialog takes the clicks on it and
/// a row seen around it does nothing; the wheel scrolls.
@Suite struct MouseTests {
    /// Routes a mouse report through the frame on screen, as the run loop does.
    static func click(_ f: AppFixture, _ event: MouseEvent) async {
        switch MouseRouter.route(event, on: AppView.render(f.state)) {
        case .key(let key)?: await f.press(key)
        case .action(let action)?: f.store.send(action); await f.store.settle()
        case nil: break
        }
    }

    /// The screen position of the first cell showing `text`.
    static func find(_ text: String, in frame: Buffer) -> (x: Int, y: Int)? {
        for y in 0..<frame.height {
            let row = frame.rowText(y)
            if let range = row.range(of: text) { return (DisplayWidth.of(String(row[..<range.lowerBound])), y) }
        }
        return nil
    }

    @Test func aClickSelectsARowAndTheWheelScrolls() async throws {
        let f = try AppFixture(width: 80, height: 24)
        let frame = AppView.render(f.state)
        let target = try #require(Self.find("Charity", in: frame))
        await Self.click(f, .press(x: target.x, y: target.y))
        #expect(f.state.selectedEntry?.title == "Charity")
        await Self.click(f, .wheelDown)
        #expect(f.state.list.selected == f.state.visible.firstIndex { f.state.snapshot.entries[$0].title == "Charity" }! + 3)
        await Self.click(f, .wheelUp)
        #expect(f.state.selectedEntry?.title == "Charity")
    }

    @Test func footerHintsAndDialogButtonsPressTheirKeys() async throws {
        let f = try AppFixture(width: 80, height: 24)
        let help = try #require(Self.find("? help", in: AppView.render(f.state)))
        await Self.click(f, .press(x: help.x, y: help.y))
        #expect(f.state.overlayKind == .help)
        await f.press(.escape)
        await f.selectEntry("Forum")
        await f.press(.char("d"))
        #expect(f.state.overlayKind == .confirmDelete)
        let frame = AppView.render(f.state)
        // A row seen around the dialog does nothing: 'y' must delete what the dialog names.
        let around = try #require(Self.find("Bookshop", in: frame))
        await Self.click(f, .press(x: around.x, y: around.y))
        #expect(f.state.selectedEntry?.title == "Forum" && f.state.overlayKind == .confirmDelete)
        // The dialog's own background takes the click.
        let title = try #require(Self.find("Delete Forum?", in: frame))
        #expect(MouseRouter.route(.press(x: title.x + 2, y: title.y + 1), on: frame) == nil)
        let keep = try #require(Self.find("n keep", in: frame))
        await Self.click(f, .press(x: keep.x, y: keep.y))
        #expect(f.state.overlay == nil && f.entry("Forum") != nil)
    }

    @Test func recommendationRowsAndActionsAreClickable() async throws {
        let f = try AppFixture(width: 100, height: 30)
        await f.press(.char("r"))
        let frame = AppView.render(f.state)
        let gym = try #require(Self.find("Gym ", in: frame))
        await Self.click(f, .press(x: gym.x, y: gym.y))
        #expect(f.state.selectedRecommendation?.entry.title == "Gym")
        await f.selectRecommendation("Shiny")
        let upgrade = try #require(Self.find("[u] Upgrade", in: AppView.render(f.state)))
        await Self.click(f, .press(x: upgrade.x + 4, y: upgrade.y))
        #expect(f.state.result?.heading == "Shiny: upgraded to a strong password")
    }

    @Test func theStepUpScreensButtonsPressTheirKeys() async throws {
        let f = try AppFixture(width: 80, height: 24)
        await f.selectEntry("Northwind Bank")
        await f.press(.char("u"))
        guard case .stepUp? = f.state.upgrade?.state else { Issue.record("no step-up"); return }
        let fill = try #require(Self.find("[f] Fill from bulwark", in: AppView.render(f.state)))
        await Self.click(f, .press(x: fill.x + 6, y: fill.y))
        #expect(f.state.result?.heading == "Northwind Bank: upgraded to a strong password")
    }
}
