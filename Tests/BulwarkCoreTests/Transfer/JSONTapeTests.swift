import Foundation
import Testing
@testable import BulwarkCore

/// The flat, in-place reading of an item (`JSONTape`) and the index that
/// finds a large export's items before they are read (`JSONItemIndex`).
@Suite struct JSONTapeTests {
    private func withTape<T>(_ text: String, _ body: (JSONTape) throws -> T) throws -> T {
        let bytes = Array(text.utf8)
        return try bytes.withUnsafeBufferPointer { buffer in
            var tape = JSONTape()
            try tape.read(buffer)
            return try body(tape)
        }
    }

    @Test func membersAreFoundAsJSONObjectFindsThem() throws {
        let text = #" {"a":1,"b":{"a":"inner"},"a":-20,"s":"t\u00e9\"x","n":1.50,"t":true,"f":false,"z":null,"e":"","l":[1,[2,3],{"q":4}]} "#
        try withTape(text) { tape in
            let root = tape.root
            #expect(tape.integer(root, "a") == -20)  // the last of a repeated name, as JSONObject keeps it
            #expect(tape.string(root, "s") == "té\"x")
            #expect(tape.text(root, "n") == "1.50" && tape.integer(root, "n") == nil)  // a number as written; not an integer
            #expect(tape.text(root, "t") == "true" && tape.text(root, "f") == "false" && tape.text(root, "z") == "" && tape.text(root, "missing") == "")
            #expect(tape.string(root, "e") == "" && tape.string(root, "n") == nil)
            let inner = try #require(tape.member(root, "b"))
            #expect(tape.string(inner, "a") == "inner" && tape.kind(inner) == .object)
            let list = try #require(tape.member(root, "l"))
            #expect(tape.count(list) == 3 && tape.elements(list).map { tape.kind($0) } == [.number, .array, .object])
            #expect(tape.integer(tape.elements(list)[2], "q") == 4)
            #expect(tape.member(list, "q") == nil && tape.elements(inner).isEmpty)
        }
    }

    @Test func anEscapedNameIsStillItsName() throws {
        try withTape(#"{"ti\u0074le":"T","x\"y":1}"#) { tape in
            #expect(tape.string(tape.root, "title") == "T" && tape.integer(tape.root, "x\"y") == 1)
        }
    }

    /// Strings are passed eight bytes at a time: a quote, a backslash, a
    /// control character or a multi-byte letter at every place of the
    /// first three words is still found there, and numbers (checked
    /// without being made) are taken and refused as the reader takes them.
    @Test func everyPlaceInAStringAndEveryNumberReadsAsTheReaderReadsIt() throws {
        var texts: [String] = []
        for length in 0..<24 {
            for at in 0..<max(length, 1) {
                for special in [#"\""#, #"\\"#, #"\n"#, #"\u00e9"#, "é", "\u{1}", "\u{1F}", "\u{7F}", " ", "~"] {
                    var letters = Array(repeating: "a", count: length)
                    if length > 0 { letters[at] = special }
                    texts.append("[\"" + letters.joined() + "\",1]")
                }
            }
        }
        texts.append(#"["unterminated"#)
        for run in 0..<20 {
            let spaces = String(repeating: " ", count: run)
            texts += ["[" + spaces + "\"a\"\n" + spaces + ",\t" + spaces + "2" + spaces + "]", spaces + "[\r\n" + spaces + "\"b\"" + spaces + "x]"]
        }
        for number in ["0", "-0", "7", "-12", "1.5", "-0.25e+3", "2E9", "1e-7", "123456789012345678901234", "01", "-", "1.", ".5", "1e", "1e+", "--1", "+1", "0x1", "1.5e3.2", "-01.0"] {
            texts.append("[" + number + "]")
            texts.append(#"{"n":"# + number + "}")
        }
        for text in texts {
            var readerMessage: String?, readerValue: Any?
            do { readerValue = try JSONStream.parse(Data(text.utf8)) } catch let failure as JSONStream.Failure { readerMessage = failure.message } catch {}
            let bytes = [UInt8](text.utf8)
            let (tapeMessage, tapeString): (String?, String?) = bytes.withUnsafeBufferPointer { buffer in
                var tape = JSONTape()
                do {
                    try tape.read(buffer)
                    return (nil, tape.kind(tape.root) == .array ? tape.elements(tape.root).first.flatMap { tape.string($0) } : nil)
                } catch let failure as JSONStream.Failure {
                    return (failure.message == "unexpected text after the value" ? "unexpected text after the document" : failure.message, nil)
                } catch { return ("\(error)", nil) }
            }
            #expect(tapeMessage == readerMessage, "\(text)")
            if let array = readerValue as? [Any], let first = array.first as? String { #expect(tapeString == first, "\(text)") }
        }
    }

    @Test func integersOutOfRangeAreNone() throws {
        try withTape(#"[9223372036854775807,9223372036854775808,-5,1e3]"#) { tape in
            #expect(tape.elements(tape.root).map { tape.integer($0) } == [Int.max, nil, -5, nil])
        }
    }

    /// The tape is checked by the same code as the reader: the same documents are refused, with the same words.
    @Test func whatTheReaderRefusesTheTapeRefuses() {
        for text in [#"{"a":1,}"#, #"{"a":01}"#, #"{"a":"x"#, #"[1] 2"#, String(repeating: "[", count: 300), #"{"a":"\q"}"#, "{\"a\":\"\u{1}\"}", ""] {
            var readerMessage: String?
            do { _ = try JSONStream.parse(Data(text.utf8)) } catch let failure as JSONStream.Failure { readerMessage = failure.message } catch {}
            let bytes = [UInt8](text.utf8)
            let tapeMessage: String? = bytes.withUnsafeBufferPointer { (buffer) -> String? in
                var tape = JSONTape()
                do { try tape.read(buffer); return nil } catch let failure as JSONStream.Failure {
                    return failure.message == "unexpected text after the value" ? "unexpected text after the document" : failure.message
                } catch { return "\(error)" }
            }
            #expect(readerMessage != nil && tapeMessage == readerMessage, "\(text)")
        }
    }

    @Test func theIndexFindsEachItemAndLeavesTheRest() throws {
        let text = #"{"folders":[{"uuid":"f"}],"items":[{"title":"A"}, {"title":"B","x":[1,"]"]} ],"other":{"items":[{"no":1}]}}"#
        let data = Data(text.utf8)
        let index = try JSONItemIndex.make(data, paths: [["items"]])
        #expect(index.items.map { String(decoding: data[$0.range], as: UTF8.self) } == [#"{"title":"A"}"#, #"{"title":"B","x":[1,"]"]}"#])
        #expect((index.root["items"] as? [Any])?.isEmpty == true && (index.root["folders"] as? [Any])?.count == 1)
        #expect(throws: ImportError(line: 2, message: "not valid JSON (expected : after a member's name)")) {
            try JSONItemIndex.make(Data("{\"items\":[{\"a\":1}\n,{\"a\" 2}]}".utf8), paths: [["items"]])
        }
    }

    /// An Enpass export read with its index made ahead (as `import` does beside the KDF) is the same as one read in one go.
    @Test func aPreparedEnpassReadIsTheSameRead() throws {
        let text = #"{"folders":[{"uuid":"w","title":"Work","parent_uuid":""}],"items":[{"title":"Mail","category":"login","folders":["w"],"createdAt":1700000000,"fields":[{"type":"username","value":"jane","label":"Username"},{"type":"password","value":"pw1","label":"Password","sensitive":1},{"type":"text","label":"PIN","value":"1234","sensitive":1}]},{"title":"Gone","trashed":1}]}"#
        let data = Data(text.utf8)
        let prepared = try #require(ImportPreparation.make(data, format: .enpassJSON))
        let now = Date(timeIntervalSince1970: 1)
        let once = try Importer.parse(data, format: .enpassJSON, now: now), ahead = try Importer.parse(data, format: .enpassJSON, now: now, prepared: prepared)
        #expect(once.candidates.map(\.title) == ["Mail"] && ahead.candidates.map(\.title) == ["Mail"])
        let entry = try #require(ahead.candidates.first)
        #expect(entry.username == "jane" && entry.password == "pw1" && entry.tags == ["Work"])
        #expect(entry.fields.map { "\($0.name)=\($0.value) \($0.hidden)" } == ["PIN=1234 true"])
        #expect(ahead.result.inTrash == 1 && once.result.inTrash == 1)
        #expect(ImportPreparation.make(data, format: .chromeCSV) == nil && ImportPreparation.make(Data("{".utf8), format: .enpassJSON) == nil)
    }

    /// CXF (a Header of accounts with collections, a bare Account) and
    /// Bitwarden JSON (plain and password-protected) read with their
    /// index made ahead are the same reads as in one go.
    @Test func aPreparedCXFOrBitwardenReadIsTheSameRead() throws {
        let plain = BitwardenJSON.write([
            Entry(title: "Mail", urls: ["https://mail.example"], username: "jane", password: "pw1", tags: ["Work"]),
            Entry(title: "Bank", username: "j", password: "pw2", tags: ["Money", "Favorites"], kind: .login),
            Entry(title: "Memo", notes: "n", kind: .secureNote),
        ])
        let files: [(Data, ImportFormat, [String])] = [
            (try ProtectedAndZippedImportTests.fixture("cxf-keepassxc.json"), .cxf, ["Forum", "Router"]),
            (try ProtectedAndZippedImportTests.fixture("cxf-bitwarden.json"), .cxf, []),
            (plain, .bitwardenJSON, ["Mail", "Bank", "Memo"]),
            (try ProtectedAndZippedImportTests.fixture("bitwarden-pbkdf2.json"), .bitwardenJSON, []),
        ]
        let now = Date(timeIntervalSince1970: 1)
        func seen(_ parsed: Importer.Parsed) -> [String] {
            parsed.candidates.map { "\($0.title) \($0.username) \($0.password ?? "-") \($0.tags) \($0.fields.map(\.name)) \($0.passkeys.count) \($0.kind)" }
                + parsed.result.rowNotes + parsed.result.notHeld + parsed.result.keptAside + ["trash \(parsed.result.inTrash)"]
        }
        for (data, format, titles) in files {
            let prepared = try #require(ImportPreparation.make(data, format: format))
            let password = format == .bitwardenJSON && BitwardenEncryption.isPasswordProtected(data) ? "correct horse battery staple" : nil
            let once = try Importer.parse(data, format: format, now: now, filePassword: password)
            let ahead = try Importer.parse(data, format: format, now: now, filePassword: password, prepared: prepared)
            #expect(!once.candidates.isEmpty && seen(once) == seen(ahead))
            if !titles.isEmpty { #expect(ahead.candidates.map(\.title) == titles) }
        }
        // A ZIP archive (CXF's or Bitwarden's with attachments) is read as it always was, after the unlock.
        #expect(ImportPreparation.make(try ProtectedAndZippedImportTests.fixture("cxf-archive.zip"), format: .cxf) == nil)
    }
}
