import BulwarkCore
import Foundation
import Testing
@testable import BulwarkTUI

/// Each list draws from the offset the state keeps and writes back the
/// window it drew (`Store.frame`): the window moves only as far as the
/// selection needs, and a page is what the person saw.
@Suite struct ListWindowTests {
    @Test func theVaultListScrollsOnlyAsFarAsItMustAndAfterResize() {
        let store = Store(state: ReducerTests.state(width: 60, height: 16))
        let count = ReducerTests.demo.count
        _ = store.frame()
        #expect(store.state.listRows[.vault] == 11)
        store.send(.key(.char("G")))
        _ = store.frame()
        #expect(store.state.list.offset == count - 11)
        // Moving up inside the window leaves it where it is.
        store.send(.key(.char("k")))
        _ = store.frame()
        #expect(store.state.list.offset == count - 11)
        store.send(.resize(width: 120, height: 40))
        _ = store.frame()
        #expect(store.state.list.offset == 0)
        #expect(store.state.list.selected == count - 2)
    }

    @Test func aPageIsTheRowsTheListShowedLessOne() {
        let store = Store(state: ReducerTests.state(width: 60, height: 16))
        _ = store.frame()
        store.send(.key(.pageDown))
        #expect(store.state.list.selected == 10)
        _ = store.frame()
        #expect(store.state.list.offset == 0)  // row 11 of 11: still in the window
        store.send(.key(.pageDown))
        #expect(store.state.list.selected == ReducerTests.demo.count - 1)  // clamped at the last
        store.send(.key(.pageUp))
        #expect(store.state.list.selected == ReducerTests.demo.count - 11)
    }

    /// The recommendations list counts its rows with the section headings;
    /// back at a section's first item its heading is in sight again.
    @Test func recommendationsKeepTheirWindowAndShowAHeadingWithItsFirstItem() async throws {
        let app = try AppFixture(width: 80, height: 16)
        await app.press(.tab)
        _ = app.store.frame()
        let rows = try #require(app.state.listRows[.recommendations])
        let total = app.state.shownRecommendationCount
        #expect(total > rows)
        await app.press(.char("G"))
        _ = app.store.frame()
        let bottom = app.state.recommendationList.offset
        #expect(bottom > 0)
        await app.press(.char("k"))
        _ = app.store.frame()
        #expect(app.state.recommendationList.offset == bottom)
        await app.press(.char("g"))
        let screen = app.store.frame().textDump()
        #expect(app.state.recommendationList.offset == 0)
        #expect(screen.contains("HIGH PRIORITY"))
    }

    @Test func aDialogsListKeepsItsWindowToo() throws {
        var state = ReducerTests.state(width: 60, height: 16)
        state.snapshot.entries = ChunkedArray((0..<30).map { Entry(id: "\($0)", title: "Entry \($0)", tags: ["tag\($0)"]) })
        state.refilter()
        let store = Store(state: state)
        store.send(.key(.char("f")))
        _ = store.frame()
        let rows = try #require(store.state.listRows[.filterPicker])
        for _ in 0..<rows { store.send(.key(.down)) }
        _ = store.frame()
        let offset = try #require(store.state.picker?.list.offset)
        #expect(offset == 1)
        store.send(.key(.up))
        _ = store.frame()
        #expect(store.state.picker?.list.offset == offset)
    }
}
