import BulwarkCore
import Foundation
import Testing
@testable import BulwarkTUI

/// Every message the status row showed is kept with its time: a long one
/// ends in "… M for more" on the row and is whole in the log (`M`),
/// wrapped, the newest at the bottom; the log goes with the lock.
@Suite struct MessageLogTests {
    static let long = "Shiny now signs in with a passkey, saved in bulwark. Its password no longer signs in there; the old one is kept in the entry's history, and the service said so in an e-mail to jane@mail.example."

    @Test(arguments: [(80, 24), (60, 16), (120, 40)])
    func aLongMessageIsWholeInTheLog(width: Int, height: Int) async throws {
        let f = try AppFixture(width: width, height: height)
        f.store.send(.setStatus("Sorted by site."))
        f.store.send(.files(.said(Banner(ok: false, text: "Could not save codes.pdf: /tmp/codes.pdf exists; give --force to replace it."))))
        f.store.send(.files(.said(Banner(ok: true, text: Self.long))))
        await f.store.settle()
        let row = AppView.render(f.state).textDump()
        #expect(row.contains("… M for more"), "\(row)")
        #expect(f.state.log.map(\.text) == ["Sorted by site.", "Could not save codes.pdf: /tmp/codes.pdf exists; give --force to replace it.", Self.long])
        await f.press(.char("M"))
        #expect(f.state.overlayKind == .log)
        let shown = AppView.render(f.state).textDump()
        // Whole: its last words are on screen.
        #expect(shown.contains("jane@mail.example."), "\(shown)")
        f.golden("message-log")
        await f.press(.escape)
        #expect(f.state.overlay == nil)
    }

    @Test func theLogScrollsAndGoesWithTheLock() async throws {
        let f = try AppFixture(width: 80, height: 24)
        for n in 1...40 { f.store.send(.setStatus("Message number \(n).")) }
        await f.store.settle()
        await f.press(.char("M"))
        #expect(!AppView.render(f.state).textDump().contains("Message number 1."))
        await f.press(.char("g"))
        let top = AppView.render(f.state).textDump()
        #expect(top.contains("Message number 1.") && !top.contains("Message number 40."))
        await f.press(.char("G"))
        #expect(AppView.render(f.state).textDump().contains("Message number 40."))
        await f.press(.escape)
        f.store.send(.lock)
        await f.store.settle()
        #expect(f.state.log.isEmpty)
    }
}
