import Foundation
import Testing
@testable import BulwarkCore

/// Numbers and sizes a hostile or broken export can carry: every one is
/// range-checked, refused with a message that names it, never a trap.
@Suite struct ImportBoundsTests {
    static func int64(_ value: Int64) -> String { Data(ByteReader.le(UInt64(bitPattern: value), 8)).base64EncodedString() }

    /// A KDBX 4 time of Int64.min ended the import with SIGILL (an
    /// overflowing subtraction); now a time outside years 1 to 9999 is no time.
    @Test func aKDBXTimeOutsideYearsOneTo9999IsNoTime() {
        for value in [Int64.min, -1, Int64.max, KDBXDocument.maximumSeconds + 1] {
            #expect(KDBXDocument.time(Self.int64(value)) == nil, "\(value)")
        }
        #expect(KDBXDocument.time(Self.int64(0)) == Date(timeIntervalSince1970: -62_135_596_800))
        #expect(KDBXDocument.time(Self.int64(KDBXDocument.maximumSeconds)) == Date(timeIntervalSince1970: 253_402_300_799))
        #expect(KDBXDocument.time(Self.int64(62_135_596_800 + 1_700_000_000)) == Date(timeIntervalSince1970: 1_700_000_000))
    }

    /// 1Password's times likewise: seconds, or milliseconds past 10^11; past year 9999 none.
    @Test func a1PasswordTimePastYear9999IsNoTime() {
        func seconds(_ n: Int) -> Date? { OnePasswordPUX.seconds(NSNumber(value: n)) }  // as JSONSerialization gives them
        #expect(seconds(1_700_000_000) == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(seconds(1_700_000_000_000) == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(seconds(Int.max) == nil && seconds(-5) == nil && seconds(300_000_000_000_000) == nil && seconds(99_999_999_999) != nil)
    }

    /// The same through a whole file, by the fuzz target that now starts at the times.
    @Test func aWholeKDBXFileWithTheWorstTimesImports() {
        let times = [Int64.min, Int64.max, -1, 0, 1].flatMap { ByteReader.le(UInt64(bitPattern: $0), 8) }
        #expect(FuzzChecks.kdbxFile(times + Array("<String><Key>Title</Key><Value>A</Value></String>".utf8)) == nil)
    }

    /// One element with many attributes took libxml2 seconds (each checked
    /// against every earlier one): more than 16 is refused before it parses.
    @Test func anElementWithManyAttributesIsRefusedAtOnce() throws {
        let many = "<KeePassFile " + (0..<200_000).map { "a\($0)=\"\"" }.joined(separator: " ") + "></KeePassFile>"
        let start = Date()
        #expect(throws: ImportError(line: nil, message: "the database's XML is malformed (an element with more than 16 attributes)")) {
            try KDBXDocument.read(Array(many.utf8), stream: try KDBXHostileTests.stream())
        }
        #expect(Date().timeIntervalSince(start) < 5)  // generous: it was 8 s, it is milliseconds
        let sixteen = "<a " + (0..<16).map { "a\($0)=\"\"" }.joined(separator: " ") + "/>"
        #expect(XMLShape.check(Array(sixteen.utf8), depthLimit: 8) == nil)
    }

    /// A small file can carry a huge value (a 408 KB KDBX held a 400 MiB
    /// note): a value over 4 MiB, or an entry over 16 MiB, is refused by
    /// name, or left out and named with --skip-bad-rows.
    @Test func aValueOverItsLimitIsRefusedOrLeftOutByName() throws {
        let note = String(repeating: "n", count: ImportLimits.valueBytes + 1)
        let csv = "name,url,username,password,note\nSmall,https://a.example,jane,pw,fine\nHeavy,https://b.example,jane,pw,\(note)\n"
        #expect(throws: ImportError(line: nil, message: "item 2 (Heavy): its notes are 4.0 MiB, over the 4 MiB one imported value may hold (--skip-bad-rows imports the rest)")) {
            try Importer.read(Data(csv.utf8), format: .chromeCSV, existing: [])
        }
        let skipped = try Importer.read(Data(csv.utf8), format: .chromeCSV, existing: [], skipBadRows: true)
        #expect(skipped.entries.map(\.title) == ["Small"])
        #expect(skipped.rowNotes == ["item 2 (Heavy) left out: its notes are 4.0 MiB, over the 4 MiB one imported value may hold"])
        // Five values of 3.5 MiB each: every one under the value limit, the entry over its own.
        var entry = Entry(title: "Wide", password: "p")
        entry.fields = (0..<5).map { CustomField(name: "f\($0)", value: String(repeating: "v", count: 7 << 19)) }
        #expect(ImportLimits.problem(entry) == "its values are 17.5 MiB in all, over the 16 MiB one imported entry may hold")
        #expect(ImportLimits.problem(Entry(title: "Fine", password: "p", notes: String(repeating: "n", count: ImportLimits.valueBytes))) == nil)
    }
}
