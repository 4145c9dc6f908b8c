import Foundation
import Testing
@testable import BulwarkCore

/// Hostile text is shown, never acted on or hidden.
@Suite struct TerminalTextTests {
    @Test(arguments: [
        ("plain title", "plain title"),
        ("\u{1B}]52;c;cHduZWQ=\u{07}", "\\e]52;c;cHduZWQ=\\x07"),            // OSC 52: writes the clipboard
        ("\u{1B}]0;owned\u{1B}\\", "\\e]0;owned\\e\\"),                      // OSC 0: the window title
        ("\u{1B}[2J\u{1B}[H", "\\e[2J\\e[H"),                                // CSI: clears the screen
        ("a\u{9B}2Jb", "a<U+009B>2Jb"),                                      // C1 CSI
        ("pay\u{200B}pal", "pay<U+200B>pal"),                                // a lookalike
        ("\u{202E}lanif.exe", "<U+202E>lanif.exe"),                          // bidi override
        ("x\u{2066}y\u{2069}", "x<U+2066>y<U+2069>"),
        ("soft\u{AD}hyphen\u{FEFF}", "soft<U+00AD>hyphen<U+FEFF>"),
        ("line\nbreak\rand\ttab\u{7F}", "line\\nbreak\\rand\\ttab\\x7F"),
        ("👩‍💻 kept, 日本語 kept, ‼ ─ ✓", "👩‍💻 kept, 日本語 kept, ‼ ─ ✓"),   // a joiner inside an emoji is part of it
        ("a\u{200D}b", "a<U+200D>b"),
        ("tag\u{E0041}", "tag<U+E0041>"),
    ])
    func everyControlAndInvisibleCharacterIsMadeVisible(input: String, shown: String) {
        #expect(TerminalText.visible(input) == shown)
    }

    @Test func linesKeepLineFeedsAndTabsButNothingElse() {
        #expect(TerminalText.visible("two\nlines\tand\u{1B}[31m", lines: true) == "two\nlines\tand\\e[31m")
        #expect(TerminalText.visible("cr\r\n", lines: true) == "cr\\r\n")
    }

    @Test func jsonEscapesWhatJSONSerializationLeavesRaw() throws {
        let data = try JSONSerialization.data(withJSONObject: ["t": "a\u{9B}b\u{202E}c\u{2028}d\u{7F}e😀"])
        let escaped = TerminalText.jsonEscaped(String(decoding: data, as: UTF8.self))
        #expect(escaped == #"{"t":"a\u009bb\u202ec\u2028d\u007fe😀"}"#)
        let back = try JSONSerialization.jsonObject(with: Data(escaped.utf8)) as? [String: String]
        #expect(back?["t"] == "a\u{9B}b\u{202E}c\u{2028}d\u{7F}e😀")
    }
}
