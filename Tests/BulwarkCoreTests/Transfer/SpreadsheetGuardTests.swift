import Foundation
import Testing
@testable import BulwarkCore

/// bulwark's Apple CSV export guards cells from spreadsheets; its import
/// reads back exactly what was written (`-Xy9+abc` came back `'-Xy9+abc`).
@Suite struct SpreadsheetGuardTests {
    static let tricky = ["-Xy9+abc", "=SUM(A1)", "+1", "@home", "\tTab", "\rCR", "'-x", "''=y", "'", "''", "'a", "a-b", "normal", "'''@", "", "''a"]

    @Test func everyValueReadsBackExactly() throws {
        for value in Self.tricky {
            let entry = Entry(title: value.isEmpty ? "empty" : value, urls: ["https://a.example"], username: value, password: value, notes: value)
            let (data, guarded) = Exporter.write([entry], format: .appleCSV, spreadsheetSafe: true)
            let back = try Importer.read(data, format: .appleCSV, existing: [])
            let read = try #require(back.entries.first, "\(value)")
            #expect(read.username == value && read.password == value && read.notes == value, "\(value.debugDescription) read as \(read.password.debugDescription)")
            #expect(guarded.isEmpty == !SpreadsheetGuard.needsGuard(value), "\(value.debugDescription)")
        }
    }

    @Test func aGuardedCellIsNamedAndRawCellsKeepsItsQuote() throws {
        let entry = Entry(title: "Shiny", urls: ["https://shiny.example"], username: "jane", password: "-Xy9+abc")
        let (data, guarded) = Exporter.write([entry], format: .appleCSV, spreadsheetSafe: true)
        #expect(guarded == [Exporter.GuardedCell(title: "Shiny", column: "Password")])
        #expect(String(decoding: data, as: UTF8.self).contains(",'-Xy9+abc,"))
        let back = try Importer.read(data, format: .appleCSV, existing: [])
        #expect(back.entries[0].password == "-Xy9+abc")
        #expect(back.rowNotes == ["1 cell began with ' before = + - @ or a tab, as bulwark's export guards a cell from spreadsheets: read without the ' (--raw-cells keeps it)"])
        let raw = try Importer.read(data, format: .appleCSV, existing: [], rawCells: true)
        #expect(raw.entries[0].password == "'-Xy9+abc" && raw.rowNotes.isEmpty)
        // Other formats never had the guard: a Chrome cell is read as it is.
        let chrome = try Importer.read(Data("name,url,username,password\nA,https://a.example,u,'-x\n".utf8), format: .chromeCSV, existing: [])
        #expect(chrome.entries[0].password == "'-x")
    }
}
