import Testing
@testable import BulwarkTUI

@Suite struct BufferTests {
    @Test func wideGraphemeTakesTwoCellsAndDumpsOnce() {
        var buffer = Buffer(width: 6, height: 1)
        let advanced = buffer.put("a中b", x: 0, y: 0)
        #expect(advanced == 4)
        #expect(buffer[1, 0].grapheme == "中")
        #expect(buffer[2, 0].isContinuation)
        #expect(buffer.textDump() == "a中b\n")
    }

    @Test func zwjFamilyIsOneClusterOfTwoCells() {
        var buffer = Buffer(width: 4, height: 1)
        buffer.put("👨‍👩‍👧x", x: 0, y: 0)
        #expect(buffer[0, 0].grapheme == "👨‍👩‍👧")
        #expect(buffer[2, 0].grapheme == "x")
    }

    @Test func combiningMarksStayWithTheirBase() {
        var buffer = Buffer(width: 3, height: 1)
        buffer.put("e\u{301}x", x: 0, y: 0)
        #expect(buffer[0, 0].grapheme == "e\u{301}")
        #expect(buffer[1, 0].grapheme == "x")
    }

    /// Controls never reach the terminal, and nothing is silently dropped:
    /// each is drawn as a visible escape, so `pay\u{200B}pal` cannot pass
    /// for `paypal`.
    @Test func controlAndInvisibleCharactersAreDrawnAsEscapes() {
        var buffer = Buffer(width: 24, height: 2)
        buffer.put("a\u{1B}[31mb\tc\u{7}", x: 0, y: 0)
        buffer.put("pay\u{200B}pal\u{202E}", x: 0, y: 1)
        #expect(buffer.textDump() == "a\\e[31mb\\tc\\x07\npay<U+200B>pal<U+202E>\n")
        #expect(!buffer.textDump().unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
    }

    @Test func wideGraphemeAtTheRightEdgeBecomesASpace() {
        var buffer = Buffer(width: 3, height: 1)
        buffer.put("ab中", x: 0, y: 0)
        #expect(buffer[2, 0].grapheme == " ")
        #expect(buffer.textDump() == "ab\n")
    }

    @Test func clippingAtEveryEdge() {
        var buffer = Buffer(width: 5, height: 3)
        buffer.put("hello", x: -2, y: 1)
        buffer.put("world", x: 3, y: 2)
        buffer.put("never", x: 0, y: 3)
        buffer.put("never", x: 0, y: -1)
        #expect(buffer.textDump() == "\nllo\n   wo\n")
        var clipped = Buffer(width: 6, height: 1)
        clipped.put("abcdef", x: 0, y: 0, clip: Rect(x: 1, y: 0, width: 3, height: 1))
        #expect(clipped.textDump() == " bcd\n")
    }

    @Test func wideGraphemeCutByTheLeftClipShowsASpace() {
        var buffer = Buffer(width: 4, height: 1)
        buffer.put("中x", x: -1, y: 0)
        #expect(buffer.textDump() == " x\n")
    }

    @Test func overwritingHalfAWideGraphemeClearsTheOtherHalf() {
        var buffer = Buffer(width: 4, height: 1)
        buffer.put("中中", x: 0, y: 0)
        buffer.put("x", x: 1, y: 0)
        #expect(buffer.textDump() == " x中\n")
        buffer.put("y", x: 2, y: 0)
        #expect(buffer.textDump() == " xy\n")
    }

    @Test func styleRunsListOnlyStyledCells() {
        var buffer = Buffer(width: 10, height: 2)
        buffer.put("ab", x: 0, y: 0, style: Style(foreground: .red, bold: true))
        buffer.put("cd", x: 5, y: 1, style: Style(reverse: true))
        #expect(buffer.styleDump() == "0 0-1: fg=red bold\n1 5-6: reverse\n")
    }

    @Test func stripColorsKeepsAttributes() {
        var buffer = Buffer(width: 2, height: 1)
        buffer.put("a", x: 0, y: 0, style: Style(foreground: .red, background: .blue, underline: true))
        buffer.stripColors()
        #expect(buffer.styleDump() == "0 0-0: underline\n")
    }

    @Test func changesListOnlyCellsThatDiffer() {
        var first = Buffer(width: 4, height: 2)
        first.put("abcd", x: 0, y: 0)
        var second = first
        second.put("X", x: 2, y: 1)
        let changes = second.changes(since: first)
        #expect(changes.count == 1)
        #expect(changes.first?.x == 2 && changes.first?.y == 1 && changes.first?.cell.grapheme == "X")
        #expect(second.changes(since: nil).count == 8)
        #expect(second.changes(since: Buffer(width: 3, height: 2)).count == 8)
    }

    @Test func fillAndApplyStyleClipToTheBuffer() {
        var buffer = Buffer(width: 3, height: 2)
        buffer.fill(Rect(x: 1, y: 1, width: 10, height: 10), with: "#")
        buffer.applyStyle(Style(bold: true), to: Rect(x: -5, y: 0, width: 6, height: 1))
        #expect(buffer.textDump() == "\n ##\n")
        #expect(buffer.styleDump() == "0 0-0: bold\n")
    }
}
