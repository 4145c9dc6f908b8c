import Foundation
import Testing
@testable import BulwarkCore

/// The reader behind CXF import and JSON detection.
@Suite struct JSONStreamTests {
    @Test func itemsAtTheStreamedPathsArriveOneAtATimeAndAreLeftOut() throws {
        let text = #"{"a":[1,2],"accounts":[{"items":[{"x":1},{"x":2}],"name":"one"},{"items":[{"x":3}]}],"items":[{"y":"\u00e9\ud83d\ude00\n"}]}"#
        var seen: [(JSONStream.Path, Int)] = []
        var top: [String] = []
        let root = try JSONStream.parse(Data(text.utf8), streaming: [["items"], ["accounts", "*", "items"]]) { path, value in
            let object = value as? JSONObject
            if let x = object?["x"] as? Int { seen.append((path, x)) }
            if let y = object?["y"] as? String { top.append(y) }
        }
        #expect(seen.map(\.0) == [["accounts", "0", "items"], ["accounts", "0", "items"], ["accounts", "1", "items"]] && seen.map(\.1) == [1, 2, 3])
        #expect(top == ["é😀\n"])
        let object = try #require(root as? JSONObject)
        #expect(object["a"] as? [Any] != nil && (object["a"] as? [Int]) == [1, 2] && (object["items"] as? [Any])?.isEmpty == true)
        #expect(((object["accounts"] as? [Any])?.first as? JSONObject)?["name"] as? String == "one")
    }

    @Test func badJSONIsRefusedWhereItIsWrong() {
        for (text, message) in [(#"{"a":1,}"#, "expected a member's name"), (#"{"a":01}"#, "a number with a leading zero"),
                                (#"{"a":"x"#, "a string is not closed"), (#"[1] 2"#, "unexpected text after the document"),
                                (String(repeating: "[", count: 300), "nested more than 256 deep")] {
            #expect(throws: JSONStream.Failure.self) { try JSONStream.parse(Data(text.utf8)) }
            do { _ = try JSONStream.parse(Data(text.utf8)) } catch let failure as JSONStream.Failure { #expect(failure.message == message) } catch {}
        }
    }

    @Test func aBitwardenExportIsNotTakenForCXF() {
        let bitwarden = Data(#"{"encrypted":false,"folders":[],"items":[{"id":"1","type":1,"name":"A","login":{"username":"u"}}]}"#.utf8)
        #expect(ImportFormat.detect(bitwarden) == .bitwardenJSON)
        #expect(throws: ImportError(line: nil, message: CXFImport.notADocument)) { try Importer.read(bitwarden, format: .cxf, existing: []) }
    }

    /// A first look at a large export reads its items for their syntax only, and still refuses bad ones.
    @Test func skippedArraysAreCheckedButNotKept() throws {
        let root = try JSONStream.parse(Data(#"{"encrypted":false,"items":[{"a":[1,{"b":"\u00e9"}]},true],"folders":[{"id":"f"}]}"#.utf8), skipping: [["items"]])
        let object = try #require(root as? JSONObject)
        #expect((object["items"] as? [Any])?.isEmpty == true && object["encrypted"] as? Bool == false)
        #expect(((object["folders"] as? [Any])?.first as? JSONObject)?["id"] as? String == "f")
        for bad in [#"{"items":[{"a":}]}"#, #"{"items":["\x"]}"#, #"{"items":[1,]}"#] {
            #expect(throws: JSONStream.Failure.self) { try JSONStream.parse(Data(bad.utf8), skipping: [["items"]]) }
        }
    }

    /// The reader's fast paths (integers without a String, names given
    /// again from the last one of their length and first byte, runs of
    /// spaces eight at a time) read what the slow ones would: numbers at
    /// their edges, names that share a slot, escaped and empty names.
    @Test func theFastPathsReadWhatTheSlowOnesWould() throws {
        let text = "{\r\n\t\"ab\": 7,          \"ac\": -0,\"ad\":-12,\"ab\\u0021\":123456789012345678,"
            + "\"big\": 1234567890123456789, \"e\": 1e3, \"f\": 2.5, \"z\": 0, \"\": [ ],                 \"ab\": [{\"ab\":1,\"ac\":{}},\"ac\"] }"
        let object = try #require(try JSONStream.parse(Data(text.utf8)) as? JSONObject)
        #expect(object.keys == ["ab", "ac", "ad", "ab!", "big", "e", "f", "z", "", "ab"])
        #expect(object["ac"] as? Int == 0 && object["ad"] as? Int == -12 && object["ab!"] as? Int == 123456789012345678)
        #expect(object["big"] as? Int == 1234567890123456789 && object["e"] as? Double == 1000 && object["f"] as? Double == 2.5 && object["z"] as? Int == 0)
        #expect((object[""] as? [Any])?.isEmpty == true)
        let last = try #require(object["ab"] as? [Any])
        #expect((last.first as? JSONObject)?.keys == ["ab", "ac"] && last.last as? String == "ac")
        for (bad, message) in [(#"{"a":-}"#, "not a JSON value"), (#"{"a":00}"#, "a number with a leading zero"), (#"{"a":1.}"#, "a number with no digits after its point"),
                               (#"{"ab":1,"ac":2,"ab":[{"ab":}]}"#, "not a JSON value")] {
            do { _ = try JSONStream.parse(Data(bad.utf8)); Issue.record("\(bad) was read") } catch let failure as JSONStream.Failure { #expect(failure.message == message, "\(bad)") }
        }
    }
}
