import Testing
@testable import BulwarkCore

@Suite struct ByteSearchTests {
    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test func substring() {
        #expect(ByteSearch.contains(Self.bytes("northwind bank"), Self.bytes("bank")))
        #expect(ByteSearch.contains(Self.bytes("northwind bank"), Self.bytes("north")))
        #expect(ByteSearch.contains(Self.bytes("abc"), []))
        #expect(!ByteSearch.contains(Self.bytes("ban"), Self.bytes("bank")))
        #expect(!ByteSearch.contains(Self.bytes("northwind"), Self.bytes("wine")))
        #expect(ByteSearch.contains(Self.bytes("crème"), Self.bytes("è")))
    }

    @Test func inOrder() {
        #expect(ByteSearch.containsInOrder(Self.bytes("northwind bank"), Self.bytes("nwbk")))
        #expect(!ByteSearch.containsInOrder(Self.bytes("northwind bank"), Self.bytes("kb")))
        #expect(ByteSearch.containsInOrder(Self.bytes("x"), []))
        // è (C3 A8) must appear whole: é (C3 A9) then ¨-less bytes do not make one.
        #expect(!ByteSearch.containsInOrder(Self.bytes("é\u{A8}"), Self.bytes("è")))
        #expect(ByteSearch.containsInOrder(Self.bytes("crème"), Self.bytes("crme")))
        #expect(!ByteSearch.containsInOrder(Self.bytes("crème"), Self.bytes("creme")))
        #expect(ByteSearch.containsInOrder(Self.bytes("café crème"), Self.bytes("cè")))
        #expect(!ByteSearch.containsInOrder(Self.bytes("cafe"), Self.bytes("é")))
    }
}
