import Testing
@testable import BulwarkTUI

@Suite struct WidgetTests {
    @Test func blockDrawsBorderAndBothTitles() {
        var buffer = Buffer(width: 24, height: 3)
        Block(title: "Left", rightTitle: "Right").render(into: &buffer, area: buffer.area)
        #expect(buffer.textDump() == "┌ Left ───────── Right ┐\n│                      │\n└──────────────────────┘\n")
    }

    @Test func blockTitleIsTruncatedNotOverflowed() {
        var buffer = Buffer(width: 12, height: 2)
        Block(title: "A very long title", border: .rounded).render(into: &buffer, area: buffer.area)
        #expect(buffer.rowText(0) == "╭ A very… ─╮")
        #expect(buffer.rowText(1) == "╰──────────╯")
    }

    /// A line cut to a width ends in "…" in the cut span's style; one that fits is left alone.
    @Test func aLineCutToAWidthSaysSo() {
        let line = Line([Span("✓ ", Theme.success), Span("Shiny now signs in with a passkey", Theme.status)])
        #expect(line.truncated(to: 40) == line)
        let cut = line.truncated(to: 12)
        #expect(cut.plainText == "✓ Shiny now…" && cut.width == 12)
        #expect(cut.spans.count == 2 && cut.spans[1].style == Theme.status)
        #expect(Line([Span("日本語テキスト")]).truncated(to: 6).plainText == "日本…")  // a wide character never half drawn
        #expect(line.truncated(to: 0).plainText.isEmpty)
    }

    @Test func blockTooSmallDrawsNothing() {
        var buffer = Buffer(width: 1, height: 1)
        Block(title: "x").render(into: &buffer, area: buffer.area)
        #expect(buffer.textDump() == "\n")
    }

    @Test func paragraphWrapsWordsAndBreaksLongOnes() {
        #expect(TextWrap.wrap("the quick brown fox", width: 9) == ["the quick", "brown fox"])
        #expect(TextWrap.wrap("abcdefghij", width: 4) == ["abcd", "efgh", "ij"])
        #expect(TextWrap.wrap("one\n\ntwo", width: 10) == ["one", "", "two"])
        #expect(TextWrap.wrap("中文中文", width: 3) == ["中", "文", "中", "文"])
    }

    @Test func paragraphMarksTextCutOffAtTheBottom() {
        var buffer = Buffer(width: 10, height: 2)
        let rows = Paragraph("one two three four five six").render(into: &buffer, area: buffer.area)
        #expect(rows == 2)
        #expect(buffer.textDump() == "one two\nthree fou…\n")
    }

    @Test func listKeepsTheSelectionVisibleAndDrawsAScrollbar() {
        let rows = (1...10).map { Line("row \($0)") }
        var buffer = Buffer(width: 8, height: 4)
        let offset = ListView(rows: rows, scroll: ListScroll(selected: 6, offset: 0)).render(into: &buffer, area: buffer.area)
        #expect(offset == 3)
        #expect(buffer.textDump() == "row 4  │\nrow 5  ┃\nrow 6  │\nrow 7  │\n")
        #expect(buffer.styleDump() == "0 7-7: dim\n2 7-7: dim\n3 0-6: reverse\n3 7-7: dim\n")
    }

    @Test func listScrollMovesTheWindowAsLittleAsPossible() {
        var scroll = ListScroll(selected: 5, offset: 3)
        #expect(scroll.visibleOffset(height: 4, count: 10) == 3)
        scroll.move(by: -3, count: 10)
        #expect(scroll.selected == 2)
        #expect(scroll.visibleOffset(height: 4, count: 10) == 2)
        scroll.move(by: 100, count: 10)
        #expect(scroll.selected == 9)
        #expect(scroll.visibleOffset(height: 4, count: 10) == 6)
        scroll.move(by: -100, count: 0)
        #expect(scroll.selected == 0)
    }

    @Test func emptyListSaysSo() {
        var buffer = Buffer(width: 14, height: 2)
        ListView(rows: [], scroll: ListScroll(), emptyText: "No entries.").render(into: &buffer, area: buffer.area)
        #expect(buffer.textDump() == "No entries.\n\n")
    }

    @Test func textFieldEditingKeys() {
        var field = TextField("hello world")
        field.handle(.ctrl("w"))
        #expect(field.text == "hello ")
        field.handle(.home)
        field.handle(.char(">"))
        #expect(field.text == ">hello " && field.cursor == 1)
        field.handle(.right)
        field.handle(.backspace)
        #expect(field.text == ">ello ")
        field.handle(.ctrl("k"))
        #expect(field.text == ">")
        field.handle(.end)
        field.handle(.char("x"))
        field.handle(.left)
        field.handle(.delete)
        #expect(field.text == ">")
        field.handle(.ctrl("u"))
        #expect(field.text.isEmpty && field.cursor == 0)
        let enterHandled = field.handle(.enter)
        let bellHandled = field.handle(.char("\u{7}"))
        #expect(!enterHandled && !bellHandled)
    }

    @Test func maskedFieldShowsBulletsAndTheCursor() {
        var field = TextField("secret", masked: true)
        var buffer = Buffer(width: 10, height: 1)
        field.render(into: &buffer, area: buffer.area, focused: true)
        #expect(buffer.textDump() == "••••••\n")
        #expect(buffer.styleDump() == "0 6-6: reverse\n")
        field.handle(.home)
        buffer = Buffer(width: 10, height: 1)
        field.render(into: &buffer, area: buffer.area, focused: true)
        #expect(buffer.styleDump() == "0 0-0: reverse\n")
        #expect(!buffer.textDump().contains("secret"))
    }

    @Test func longFieldScrollsToKeepTheCursorInSight() {
        let field = TextField("abcdefghij")
        var buffer = Buffer(width: 5, height: 1)
        field.render(into: &buffer, area: buffer.area, focused: true)
        #expect(buffer.textDump() == "ghij\n")
        #expect(buffer.styleDump() == "0 4-4: reverse\n")
    }

    @Test func footerDropsHintsThatDoNotFitWhole() {
        var buffer = Buffer(width: 20, height: 1)
        Footer.render(into: &buffer, area: buffer.area, hints: [("↑↓", "move"), ("?", "help"), ("q", "quit")])
        #expect(buffer.textDump() == "? help  q quit\n")
        #expect(buffer.styleDump() == "0 0-0: bold\n0 8-8: bold\n")
    }

    /// Narrow, the arrows' hint goes before the screen's actions; a hint too
    /// wide is passed over for a shorter one after it; the pinned ones stay;
    /// the order is the table's.
    @Test func footerKeepsTheActionsTheScreenIsFor() {
        let hints: [(key: String, label: String)] = [("↑↓", "move"), ("Enter", "open"), ("u", "upgrade"), ("w", "change it on the website"),
                                                       ("h", "hide"), ("?", "help"), ("q", "quit")]
        func line(_ width: Int) -> String {
            var buffer = Buffer(width: width, height: 1)
            Footer.render(into: &buffer, area: buffer.area, hints: hints, pinned: 2)
            return buffer.textDump().trimmingCharacters(in: .whitespacesAndNewlines)
        }
        #expect(line(90) == "↑↓ move  Enter open  u upgrade  w change it on the website  h hide  ? help  q quit")
        #expect(line(80) == "Enter open  u upgrade  w change it on the website  h hide  ? help  q quit")
        #expect(line(60) == "↑↓ move  Enter open  u upgrade  h hide  ? help  q quit")
        #expect(line(47) == "Enter open  u upgrade  h hide  ? help  q quit")
        #expect(line(44) == "Enter open  u upgrade  ? help  q quit")
        #expect(line(30) == "Enter open  ? help  q quit")
    }

    @Test func spinnerIgnoresTicksFromAnotherSpinner() {
        var spinner = Spinner(id: 7)
        let stale = spinner.tick(id: 6)
        #expect(!stale && spinner.glyph == "⠋")
        let own = spinner.tick(id: 7)
        #expect(own && spinner.glyph == "⠙")
    }

    @Test func progressBarFillsInEighths() {
        #expect(ProgressBar.text(ratio: 0, width: 4) == "    ")
        #expect(ProgressBar.text(ratio: 0.5, width: 4) == "██  ")
        #expect(ProgressBar.text(ratio: 0.5625, width: 4) == "██▎ ")
        #expect(ProgressBar.text(ratio: 1, width: 4) == "████")
        #expect(ProgressBar.text(ratio: 7, width: 2) == "██")
        #expect(ProgressBar.text(ratio: .nan, width: 2) == "  ")
    }

    /// The rows the dialog spans are cleared between the frame's border
    /// columns, so no pane's text is left cut off beside it.
    @Test func modalClearsWhatIsBelowAndReturnsItsInside() {
        var buffer = Buffer(width: 12, height: 5)
        buffer.fill(buffer.area, with: "x")
        let inner = Modal.render(into: &buffer, within: buffer.area, width: 8, height: 3, title: "Hi")
        #expect(inner == Rect(x: 4, y: 2, width: 4, height: 1))
        #expect(buffer.textDump() == "xxxxxxxxxxxx\nx ╭ Hi ──╮ x\nx │      │ x\nx ╰──────╯ x\nxxxxxxxxxxxx\n")
    }

    @Test func layoutSplitsFixedPercentAndFill() {
        let rects = Layout.split(Rect(x: 0, y: 0, width: 100, height: 5), .horizontal, [.fixed(10), .percent(50), .fill, .fill])
        #expect(rects.map(\.width) == [10, 50, 20, 20])
        #expect(rects.map(\.x) == [0, 10, 60, 80])
        let tight = Layout.split(Rect(x: 0, y: 0, width: 4, height: 3), .vertical, [.fixed(3), .fixed(3), .min(1)])
        #expect(tight.map(\.height) == [3, 0, 0])
    }

    @Test func rectOperationsNeverGoNegative() {
        let r = Rect(x: 0, y: 0, width: 3, height: 3).inset(by: 5)
        #expect(r.isEmpty && r.width == 0 && r.height == 0)
        #expect(Rect(x: 0, y: 0, width: 10, height: 4).centered(width: 4, height: 2) == Rect(x: 3, y: 1, width: 4, height: 2))
    }
}

@Suite struct FooterPinningTests {
    @Test func helpAndQuitStayWhenTheLineIsTooNarrow() {
        var buffer = Buffer(width: 40, height: 1)
        let hints = [(key: "↑↓", label: "move"), (key: "/", label: "search"), (key: "v", label: "reveal"),
                     (key: "u", label: "upgrade"), (key: "?", label: "help"), (key: "q", label: "quit")]
        Footer.render(into: &buffer, area: buffer.area, hints: hints, pinned: 2)
        #expect(buffer.rowText(0) == "/ search  v reveal  ? help  q quit")
        var wide = Buffer(width: 60, height: 1)
        Footer.render(into: &wide, area: wide.area, hints: hints, pinned: 2)
        #expect(wide.rowText(0) == "↑↓ move  / search  v reveal  u upgrade  ? help  q quit")
    }
}

/// A line of several styles wraps like plain text, each word keeping its style.
@Suite struct StyledWrapTests {
    @Test func stylesSurviveTheWrap() {
        let line = Line([Span("bulwark import FILE", Style(bold: true)), Span(" brings in another   manager's export.")])
        let rows = Paragraph(lines: [line]).layout(width: 24)
        #expect(rows.map(\.plainText) == ["bulwark import FILE", "brings in another", "manager's export."])
        #expect(rows[0].spans == [Span("bulwark import FILE", Style(bold: true))])
        #expect(rows[1].spans == [Span("brings in another")])
        let tight = Paragraph(lines: [Line([Span("ab", Style(bold: true)), Span("cdef")])]).layout(width: 3)
        #expect(tight.map(\.plainText) == ["abc", "def"] && tight[0].spans == [Span("ab", Style(bold: true)), Span("c")])
    }
}

@Suite struct CountTests {
    @Test func numbersAreGroupedByThousands() {
        #expect(Count.grouped(0) == "0" && Count.grouped(999) == "999" && Count.grouped(1000) == "1,000")
        #expect(Count.grouped(100_000) == "100,000" && Count.grouped(1_234_567) == "1,234,567" && Count.grouped(-4321) == "-4,321")
    }
}
