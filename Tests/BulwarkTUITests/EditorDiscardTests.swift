import BulwarkCore
import Foundation
import Testing
@testable import BulwarkTUI

/// Esc in the add or edit form with typed changes asks first (save,
/// discard or back), as KeePassXC asks; with nothing typed it closes.
@Suite struct EditorDiscardTests {
    @Test(arguments: [(80, 24), (120, 40)])
    func escWithTypedChangesAsksAndBackKeepsTheForm(width: Int, height: Int) async throws {
        let f = try AppFixture(width: width, height: height)
        await f.selectEntry("Mail")
        let before = try #require(f.entry("Mail"))
        await f.press(.char("e"), .tab, .tab, .tab, .tab, .tab, .tab, .tab, .ctrl("u"))
        await f.type("my note")
        await f.press(.escape)
        #expect(f.state.overlayKind == .confirmDiscard && f.state.editor != nil)
        #expect(Keymaps.active(f.state).footerHints.map(\.label) == ["save", "discard", "back"])
        f.golden("editor-discard")
        // A letter is an answer or nothing: never typed into the form beneath.
        await f.press(.char("x"))
        #expect(f.state.editor?.fields[7].text == "my note" && f.state.overlayKind == .confirmDiscard)
        await f.press(.escape)
        #expect(f.state.overlay == nil && f.state.editor?.fields[7].text == "my note")
        await f.press(.escape, .char("d"))
        #expect(f.state.editor == nil && f.state.status == "Discarded your changes." && f.entry("Mail") == before)
    }

    @Test func saveFromTheQuestionSavesTheForm() async throws {
        let f = try AppFixture()
        await f.selectEntry("Mail")
        await f.press(.char("e"), .tab, .tab, .tab, .tab, .tab, .tab, .tab, .ctrl("u"))
        await f.type("my note")
        await f.press(.escape, .char("s"))
        #expect(f.state.overlay == nil && f.state.editor == nil)
        #expect(f.entry("Mail")?.notes == "my note" && f.state.banner?.text.hasPrefix("Saved Mail.") == true)
    }

    @Test func escWithNothingTypedClosesAtOnce() async throws {
        let f = try AppFixture()
        await f.press(.char("n"), .escape)
        #expect(f.state.editor == nil && f.state.overlay == nil)
        await f.press(.char("n"))
        await f.type("x")
        await f.press(.ctrl("u"), .escape)  // typed, then taken back: nothing changed
        #expect(f.state.editor == nil && f.state.overlay == nil)
    }
}
