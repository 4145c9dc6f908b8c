import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import BulwarkCore

/// The pieces that let a listing or an export of 100,000 entries be
/// written as it goes: the JSON stream, RFC 3339 times on bytes, entry ids.
@Suite struct StreamingOutputTests {
    static func text(terminalSafe: Bool = false, _ body: (inout JSONWriter) -> Void) -> String {
        let sink = ByteSink(descriptor: nil)
        var json = JSONWriter(terminalSafe: terminalSafe)
        body(&json)
        json.move(to: sink)
        return String(decoding: sink.bytes, as: UTF8.self)
    }

    @Test func nestedValuesArePrettyPrintedAsBefore() throws {
        let written = Self.text { json in
            json.beginObject()
            json.key("a"); json.string("x")
            json.key("empty"); json.strings([])
            json.key("list")
            json.beginArray()
            json.int(1)
            json.value(.object([("b", .bool(true)), ("c", .null)]))
            json.endArray()
            json.key("none"); json.beginObject(); json.endObject()
            json.endObject()
        }
        #expect(written == """
        {
          "a" : "x",
          "empty" : [],
          "list" : [
            1,
            {
              "b" : true,
              "c" : null
            }
          ],
          "none" : {}
        }
        """)
        // The same document as JSONSerialization reads it.
        let parsed = try JSONSerialization.jsonObject(with: Data(written.utf8)) as! [String: Any]
        #expect(parsed["a"] as? String == "x" && (parsed["list"] as! [Any]).count == 2)
    }

    @Test func stringsAreEscapedAsJSONRequires() throws {
        let tricky = "quote \" backslash \\ newline \n tab \t nul \u{0} bell \u{7} é 🔑"
        let written = Self.text { $0.string(tricky) }
        #expect(written == #""quote \" backslash \\ newline \n tab \t nul \u0000 bell \u0007 é 🔑""#)
        #expect(try JSONSerialization.jsonObject(with: Data(written.utf8), options: .fragmentsAllowed) as? String == tricky)
    }

    /// On a terminal, characters it could act on or hide become \u escapes
    /// (the same rule as TerminalText.jsonEscaped), and the value is unchanged.
    @Test func terminalSafeEscapesWhatATerminalWouldActOn() throws {
        let hostile = "a\u{1B}[2Jb\u{9B}c\u{202E}d\u{2028}e\u{7F}"
        let safe = Self.text(terminalSafe: true) { $0.string(hostile) }
        #expect(safe == #""a\u001b[2Jb\u009bc\u202ed\u2028e\u007f""#)
        #expect(try JSONSerialization.jsonObject(with: Data(safe.utf8), options: .fragmentsAllowed) as? String == hostile)
        #expect(safe.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value < 0x7F })
    }

    @Test func aFileDescriptorSinkWritesInBlocksAndSaysWhenItFails() throws {
        var pipe: [Int32] = [0, 0]
        #expect(Glibc.pipe(&pipe) == 0)
        Glibc.close(pipe[0])  // nobody reads: the write fails (EPIPE)
        signal(SIGPIPE, SIG_IGN)
        let sink = ByteSink(descriptor: pipe[1])
        sink.write("hello")
        #expect(sink.flush() == false && sink.failed)
        Glibc.close(pipe[1])
    }

    @Test(arguments: [
        ("2024-05-06T07:08:09Z", 1_714_979_289.0),
        ("2024-05-06T07:08:09.250Z", 1_714_979_289.25),
        ("2024-05-06T09:08:09+02:00", 1_714_979_289.0),
        ("2024-05-06T02:08:09-05:00", 1_714_979_289.0),
        ("1970-01-01T00:00:00Z", 0.0),
    ])
    func rfc3339TimesParse(text: String, seconds: Double) {
        #expect(ISODate.parse(text) == Date(timeIntervalSince1970: seconds))
    }

    @Test(arguments: ["", "2024-05-06", "2024-13-06T07:08:09Z", "2024-05-06T07:08:09", "2024-05-06T07:08:09Zjunk", "2024-05-06T07:08:09.Z",
                      "２０２４-05-06T07:08:09Z"])
    func malformedTimesAreNil(text: String) {
        #expect(ISODate.parse(text) == nil)
    }

    @Test func timesAreWrittenAsFoundationWroteThem() {
        let date = Date(timeIntervalSince1970: 1_714_979_289.25)
        #expect(ISODate.string(date) == "2024-05-06T07:08:09Z")
        #expect(ISODate.string(date, milliseconds: true) == "2024-05-06T07:08:09.250Z")
        #expect(ISODate.string(Date(timeIntervalSince1970: 0.9996), milliseconds: true) == "1970-01-01T00:00:01.000Z")
        let formatter = ISO8601DateFormatter()
        let day = 86_400.0
        for seconds in stride(from: -day * 10_950, to: day * 21_900, by: day * 97 + 3_671) {
            let date = Date(timeIntervalSince1970: seconds)
            #expect(ISODate.string(date) == formatter.string(from: date))
            #expect(ISODate.parse(ISODate.string(date)) == date)
        }
    }

    @Test func entryIDsAreVersion4UUIDsInLowerCase() {
        let ids = (0..<1000).map { _ in EntryID.random() }
        #expect(Set(ids).count == 1000)
        for id in ids {
            let uuid = UUID(uuidString: id)
            #expect(uuid != nil && id == id.lowercased() && id.count == 36)
            #expect(Array(id)[14] == "4" && "89ab".contains(Array(id)[19]))
        }
    }
}
