import Foundation

/// The tour's title card: the chapter, its flow's name, what it shows and
/// why it matters to the account's owner, over the whole body.
enum TitleCardView {
    static func render(_ card: TitleCard, chrome: Chrome, into buffer: inout Buffer) {
        let body = chrome.body
        buffer.fill(body)
        // The screen under it may have split the body: its joints in the frame go too.
        for x in body.x..<body.maxX {
            if buffer[x, chrome.outer.y].grapheme == "┬" { buffer.put("─", x: x, y: chrome.outer.y, style: Theme.border) }
            if buffer[x, chrome.separatorRow].grapheme == "┴" { buffer.put("─", x: x, y: chrome.separatorRow, style: Theme.border) }
        }
        let width = min(body.width - 4, 64)
        guard width > 8 else { return }
        let x = body.x + (body.width - width) / 2
        let what = Paragraph(card.what).layout(width: width)
        let why = Paragraph(lines: [Line([Span("Why it matters: ", Theme.heading), Span(card.why)])]).layout(width: width)
        let title = Paragraph(card.title, style: Theme.title).layout(width: width)
        // Chapter line, title, a blank, what, a blank, why: centred as a block.
        let height = 1 + 1 + title.count + 1 + what.count + 1 + why.count
        var y = body.y + max(0, (body.height - height) / 2)
        func put(_ lines: [Line], centred: Bool = false) {
            for line in lines where y < body.maxY {
                let indent = centred ? max(0, (width - line.width) / 2) : 0
                line.render(into: &buffer, x: x + indent, y: y, clip: body)
                y += 1
            }
        }
        put([Line("Chapter \(card.chapter) of \(card.of)", Theme.dim)], centred: true)
        y += 1
        put(title, centred: true)
        y += 1
        put(what)
        y += 1
        put(why)
    }
}
