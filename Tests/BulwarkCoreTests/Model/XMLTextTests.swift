import Testing
@testable import BulwarkCore

/// XML's four escapes, byte by byte: a `<` that Swift sees inside one
/// Character with a combining mark is escaped too, and text with none of
/// the four comes back as it was.
@Suite struct XMLTextTests {
    @Test func theFourAreEscapedWhereverTheyStand() {
        #expect(XMLText.escaped(#"a & b < c > "d""#) == "a &amp; b &lt; c &gt; &quot;d&quot;")
        #expect(XMLText.escaped("<\u{0338}x") == "&lt;\u{0338}x")
        #expect(XMLText.escaped("plain ünïcödé 🔑") == "plain ünïcödé 🔑")
    }

    @Test func aKeyOrValueXMLCannotCarryIsSeen() {
        #expect(KDBXXMLWriter.isXMLSafe("tab\tand\nline"))
        #expect(!KDBXXMLWriter.isXMLSafe("bare\rreturn") && !KDBXXMLWriter.isXMLSafe("crlf\r\n") && !KDBXXMLWriter.isXMLSafe("bell\u{7}"))
        #expect(!KDBXXMLWriter.isXMLSafe("\u{FFFE}"))
        #expect(KDBXXMLWriter.xmlSafeKey("a\u{1}b\r") == "a\u{FFFD}b\u{FFFD}" && KDBXXMLWriter.xmlSafeKey("Key") == "Key")
    }
}
