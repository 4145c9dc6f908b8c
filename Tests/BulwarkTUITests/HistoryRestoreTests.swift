import BulwarkCore
import BulwarkTUI
import Foundation
import Testing

/// `r` among an entry's old passwords makes the one selected its password
/// again, through the live session: the replaced one goes into the history,
/// the same account's other entry follows, `z` takes it back.
@Suite struct HistoryRestoreTests {
    @Test func rRestoresTheSelectedOldPasswordAndZTakesItBack() async throws {
        let f = try AppFixture(width: 80, height: 24)
        await f.selectEntry("Shiny")
        let original = try #require(f.entry("Shiny")?.password)
        await f.press(.char("u"), .escape)
        let upgraded = try #require(f.entry("Shiny")?.password)
        #expect(upgraded != original && f.entry("Shiny")?.history.map(\.password) == [original])
        await f.press(.char("h"), .char("r"))
        let shiny = try #require(f.entry("Shiny"))
        #expect(shiny.password == original)
        // The password it replaced is kept, newest first, saying why.
        #expect(shiny.history.map(\.password) == [upgraded, original])
        #expect(shiny.history.first?.reason == "replaced by the old password of 2027-01-15")
        #expect(f.state.overlay == nil)
        #expect(f.state.banner == Banner(ok: true, text: "Restored Shiny's password of 2027-01-15. Also updated, the same account: Shiny Store."))
        #expect(f.entry("Shiny Store")?.password == original)
        // Its old password that is the one it has now: said, nothing written.
        await f.press(.char("h"), .char("j"), .char("r"))
        #expect(f.state.status == "The old password of 2027-01-15 is the one Shiny has now.")
        #expect(f.entry("Shiny")?.history.count == 2)
        await f.press(.escape, .char("z"))
        #expect(f.entry("Shiny")?.password == upgraded)
        #expect(f.state.banner == Banner(ok: true, text: "Undid restoring Shiny's old password."))
    }
}
