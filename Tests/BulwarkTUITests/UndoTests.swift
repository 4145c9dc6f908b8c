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

    /// A delete drops the files no other entry holds: its undo brings the
    /// entry back without them and says so, never as references to nothing.
    @Test func undoingADeleteNamesTheFilesThatWentWithIt() async throws {
        let f = try AppFixture(width: 80, height: 24)
        await f.selectEntry("Bookshop")
        let id = try #require(f.state.currentEntry?.id)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("receipt-\(UUID().uuidString).pdf")
        try Data("%PDF".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let (snapshot, _) = try f.session.attachFile(entryID: id, path: file.path)
        f.store.send(.vault(.updated(snapshot, banner: nil)))
        await f.store.settle()
        await f.selectEntry("Bookshop")
        await f.press(.char("d"), .char("y"))
        await f.press(.char("z"))
        let back = try #require(f.state.snapshot.entries.first { $0.id == id })
        #expect(back.attachments.isEmpty && back.title == "Bookshop")
        #expect(f.state.banner == Banner(ok: true, text: "Undid deleting Bookshop. Its files went with the delete and cannot come back: \(file.lastPathComponent)."))
    }
}
