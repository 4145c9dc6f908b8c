import BulwarkCore
import Foundation
import Testing
@testable import BulwarkTUI

/// `:` or Ctrl-P: the screen's actions with their keys, filtered as typed;
/// Enter runs the one selected as its key would; one that is off says why.
@Suite struct PaletteTests {
    @Test(arguments: [(80, 24), (60, 16), (120, 40)])
    func thePaletteListsAndFilters(width: Int, height: Int) async throws {
        let f = try AppFixture(width: width, height: height)
        await f.press(.char(":"))
        #expect(f.state.overlayKind == .palette)
        f.golden("palette")
        await f.type("copy")
        #expect(PaletteReducer.matches(f.state).map(\.help) == ["Copy the password", "Copy the username", "Copy the verification code",
                                                                 "Copy the change-password URL"])
        f.golden("palette-filtered")
    }

    @Test func enterRunsTheActionAndAnOffOneSaysWhy() async throws {
        let f = try AppFixture(width: 80, height: 24)
        await f.press(.ctrl("p"))
        await f.type("sort")
        await f.press(.enter)
        #expect(f.state.overlay == nil && f.state.filter.order == .site && f.state.status == "Sorted by site.")
        // Typing q filters rather than quits; Esc closes.
        await f.press(.char(":"))
        await f.type("q")
        #expect(f.state.overlayKind == .palette)
        await f.press(.escape)
        #expect(f.state.overlay == nil)
        // An action that is off: run, it says why, as its key would.
        await f.press(.char(":"))
        await f.type("sync with")
        await f.press(.enter)
        #expect(f.state.status == "Sync with the other machines now: unavailable. The vault has no sync remote: bulwark sync init REMOTE links one.")
    }
}
