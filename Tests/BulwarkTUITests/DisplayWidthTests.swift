import Testing
@testable import BulwarkTUI

@Suite struct DisplayWidthTests {
    @Test(arguments: [
        ("a", 1), ("é", 1), ("e\u{301}", 1), ("中", 2), ("ｱ", 1), ("Ａ", 2), ("한", 2),
        ("🔓", 2), ("👨‍👩‍👧", 2), ("❤️", 2), ("\u{301}", 0), ("\u{200D}", 0), ("\u{7}", 0), ("\u{9B}", 0),
    ])
    func widthOfOneGrapheme(text: String, width: Int) {
        #expect(DisplayWidth.of(text) == width)
    }

    @Test func truncateCountsCellsAndAddsAnEllipsis() {
        #expect(DisplayWidth.truncate("Northwind Bank", to: 8) == "Northwi…")
        #expect(DisplayWidth.truncate("中文中文", to: 5) == "中文…")
        #expect(DisplayWidth.truncate("short", to: 8) == "short")
        #expect(DisplayWidth.truncate("abc", to: 0) == "")
    }

    @Test func padFillsToTheExactWidth() {
        #expect(DisplayWidth.pad("中", to: 4) == "中  ")
        #expect(DisplayWidth.of(DisplayWidth.pad("a very long title", to: 6)) == 6)
    }
}
