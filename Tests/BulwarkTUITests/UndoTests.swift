import BulwarkCore
import Foundation
import Testing
@testable import BulwarkTUI

/// `z` takes back the app's own changes, newest first, through the live
/// session: a delete, an edit, a hide; each says what it undid, and the log
/// keeps an "Undo: …" line. With nothing to undo, it says why.
@Suite struct UndoTests {
    @Test func zTakesBackADeleteAnEditAndAHide() async throws {
        let f = try AppFixture(width: 80, height: 24)
        await f.selectEntry("Bookshop")
        let before = try #require(f.state.currentEntry)
        // Delete, then z: the entry is back, whole.
        await f.press(.char("d"), .char("y"))
        #expect(f.state.snapshot.entries.first { $0.id == before.id } == nil)
        await f.press(.char("z"))
        let back = try #require(f.state.snapshot.entries.first { $0.id == before.id })
        #expect(back.title == before.title && back.password == before.password && back.username == before.username)
        #expect(f.state.banner == Banner(ok: true, text: "Undid deleting Bookshop."))
        // An edit of the title, then z: the title as it was.
        await f.selectEntry("Bookshop")
        await f.press(.char("e"))
        await f.type(" Two")
        await f.press(.enter)
        #expect(f.state.snapshot.entries.contains { $0.title == "Bookshop Two" })
        await f.press(.char("z"))
        #expect(f.state.snapshot.entries.first { $0.id == before.id }?.title == "Bookshop")
        #expect(f.state.log.contains { $0.text == "Undo: your edit of Bookshop" })
        // Nothing left: z says why.
        await f.press(.char("z"))
        #expect(f.state.status?.hasPrefix("Nothing to undo") == true)
    }
}
