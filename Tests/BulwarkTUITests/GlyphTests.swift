import BulwarkCore
import Foundation
import Testing
@testable import BulwarkTUI

/// Four severity marks that stay four in NO_COLOR, and every symbol in what
/// the terminal can show: ASCII where the locale is not UTF-8, the Linux
/// console's glyphs on TERM=linux.
@Suite struct GlyphTests {
    @Test func theLevelComesFromTheLocaleThenTERMThenTheConfig() {
        #expect(GlyphSupport.detect(term: "xterm-256color", codeset: "UTF-8") == .unicode)
        #expect(GlyphSupport.detect(term: "xterm-256color", codeset: "utf8") == .unicode)
        #expect(GlyphSupport.detect(term: "linux", codeset: "UTF-8") == .console)
        #expect(GlyphSupport.detect(term: "xterm", codeset: "ANSI_X3.4-1968") == .ascii)
        #expect(GlyphSupport.detect(term: "xterm", codeset: "ISO-8859-1") == .ascii)
        #expect(GlyphSupport.detect(term: "linux", codeset: "UTF-8", override: "unicode") == .unicode)
        #expect(GlyphSupport.detect(term: "xterm", codeset: "UTF-8", override: "ASCII") == .ascii)
        #expect(GlyphSupport.detect(term: "xterm", codeset: "UTF-8", override: "nonsense") == .unicode)
    }

    @Test func theFourSeveritiesAreFourMarksAtEveryLevel() {
        let symbols = Severity.allCases.map { Theme.severitySymbol($0) }
        #expect(Set(symbols).count == 4)
        for level in GlyphSupport.allCases {
            let shown = symbols.map { level.replacement(for: $0, width: 1) ?? $0 }
            #expect(Set(shown).count == 4, "\(level): \(shown)")
        }
        #expect(symbols.map { GlyphSupport.ascii.replacement(for: $0, width: 1) ?? $0 } == ["X", "!", "*", "."].reversed())
    }

    @Test func standInsKeepTheirWidth() {
        #expect(GlyphSupport.ascii.replacement(for: "🔓", width: 2) == "  ")
        #expect(GlyphSupport.ascii.replacement(for: "東", width: 2) == "??")
        #expect(GlyphSupport.console.replacement(for: "東", width: 2) == "  ")
        #expect(GlyphSupport.console.replacement(for: "╭", width: 1) == "┌")
        #expect(GlyphSupport.console.replacement(for: "é", width: 1) == nil)  // the console's fonts have accents
        #expect(GlyphSupport.ascii.replacement(for: "é", width: 1) == "?")
        #expect(GlyphSupport.ascii.replacement(for: "⠋", width: 1) == GlyphSupport.spinner[0x280B % 4])
        #expect(GlyphSupport.unicode.replacement(for: "‼", width: 1) == nil)
    }

    @Test(arguments: [GlyphSupport.ascii, .console])
    func everyCellIsWhatTheTerminalShows(level: GlyphSupport) async throws {
        let f = try AppFixture(width: 80, height: 24)
        await f.press(.char("r"))
        let unicode = AppView.render(f.state)
        let frame = AppView.render(f.state, colors: false, glyphs: level)
        for y in 0..<frame.height {
            for x in 0..<frame.width where !frame[x, y].isContinuation {
                let cell = frame[x, y]
                let ascii = cell.grapheme.unicodeScalars.allSatisfy(\.isASCII)
                let settled = level.replacement(for: cell.grapheme, width: cell.width) == nil
                if level == .ascii { #expect(ascii, "\(cell.grapheme) at \(x),\(y)") }
                #expect(settled, "\(cell.grapheme) at \(x),\(y)")
            }
        }
        #expect(frame.width == unicode.width && frame.textDump().split(separator: "\n").count == unicode.textDump().split(separator: "\n").count)
        // A footer's "↑↓ move" is not "^v move" (Ctrl-V) when narrowed: the keys that move the same way.
        await f.press(.char(":"))
        let palette = AppView.render(f.state, colors: false, glyphs: level).textDump()
        #expect(palette.contains("kj move") && !palette.contains("^v"), "\(palette)")
        Snapshot.assert(frame, named: "recommendations-\(level.rawValue)")
    }
}
