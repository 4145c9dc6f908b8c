import Testing
@testable import BulwarkCore

@Suite struct CSVTests {
    @Test func quotedFieldsWithCommasQuotesAndNewlines() throws {
        let text = "\u{FEFF}a,b,c\r\n\"x, y\",\"say \"\"hi\"\"\",\"two\r\nlines\"\r\nplain,,é中\n"
        let records = try CSV.parse(text)
        #expect(records.map(\.fields) == [["a", "b", "c"], ["x, y", "say \"hi\"", "two\r\nlines"], ["plain", "", "é中"]])
        #expect(records.map(\.line) == [1, 2, 4])
    }

    @Test func blankLinesAreNotRecordsButAnEmptyQuotedFieldIs() throws {
        #expect(try CSV.parse("a\n\nb\n").map(\.fields) == [["a"], ["b"]])
        #expect(try CSV.parse("\"\"\n").map(\.fields) == [[""]])
        #expect(try CSV.parse("a,b").map(\.fields) == [["a", "b"]])
    }

    @Test func malformedInputNamesTheLine() {
        #expect(throws: CSV.ParseError(line: 2, message: "a quoted field is never closed")) { try CSV.parse("a,b\n\"open,\nmore\n") }
        #expect(throws: CSV.ParseError(line: 1, message: "a quote inside an unquoted field")) { try CSV.parse("ab\"c,d\n") }
        #expect(throws: CSV.ParseError(line: 3, message: "unexpected text after a closing quote")) { try CSV.parse("a\nb\n\"c\"d\n") }
    }

    @Test func writeQuotesOnlyWhatNeedsIt() throws {
        let rows = [["Title", "Notes"], ["a,b", "say \"hi\"\nbye"], ["plain", ""]]
        let text = CSV.write(rows)
        #expect(text == "Title,Notes\r\n\"a,b\",\"say \"\"hi\"\"\nbye\"\r\nplain,\r\n")
        #expect(try CSV.parse(text).map(\.fields) == rows)
    }
}
