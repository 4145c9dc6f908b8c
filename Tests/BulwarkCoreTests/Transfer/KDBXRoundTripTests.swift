import Foundation
import Testing
@testable import BulwarkCore

/// bulwark → KDBX 4 → bulwark, in the core (cheap Argon2), for what the
/// end-to-end test against keepassxc-cli does not reach.
@Suite struct KDBXRoundTripTests {
    static var cheap: KDBXExport.Settings {
        var settings = KDBXExport.Settings()
        settings.memoryMiB = 8
        settings.iterations = 2
        return settings
    }

    @Test func repeatedAndReservedFieldNamesStayUniqueAndNothingIsLost() throws {
        var entry = Entry(title: "Bank", urls: ["https://bank.example"], username: "jane", password: "pw-1", notes: "n", tags: ["Money/Banks", "x"])
        entry.fields = [CustomField(name: "PIN", value: "1111", hidden: true), CustomField(name: "PIN", value: "2222"),
                        CustomField(name: "Notes", value: "a field called Notes"), CustomField(name: "bad\u{1}key", value: "v")]
        let data = try KDBXExport.write([entry], password: "pw", settings: Self.cheap)
        let read = try KDBXImport.read(data, password: "pw", keyFile: nil, now: Date())
        let back = try #require(read.entries.first)
        #expect(back.fields == [CustomField(name: "PIN", value: "1111", hidden: true), CustomField(name: "PIN (2)", value: "2222"),
                                CustomField(name: "Notes (2)", value: "a field called Notes"), CustomField(name: "bad\u{FFFD}key", value: "v")])
        #expect(back.notes == "n" && back.tags == ["Money/Banks", "x"] && back.password == "pw-1")
        #expect(throws: ImportError.self) { try KDBXImport.read(data, password: "not pw", keyFile: nil, now: Date()) }
    }

    @Test func aLargeVaultSpansSeveralBlocks() throws {
        // Random notes, so that gzip leaves more than one 1 MiB block.
        let entries = (0..<3_000).map { Entry(title: "E\($0)", username: "u\($0)", password: String(repeating: "p\($0)", count: 40),
                                               notes: (0..<20).map { _ in EntryID.random() }.joined()) }
        let data = try KDBXExport.write(entries, password: "pw", settings: Self.cheap)
        #expect(data.count > 1_200_000)
        let read = try KDBXImport.read(data, password: "pw", keyFile: nil, now: Date())
        #expect(read.entries.count == 3_000 && read.entries.last?.password == String(repeating: "p2999", count: 40))
        #expect(read.entries.map(\.notes) == entries.map(\.notes))
    }
}
