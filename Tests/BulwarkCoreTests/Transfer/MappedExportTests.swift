import Foundation
import Testing
@testable import BulwarkCore

/// An export read through a mapping whose pages are given back behind the
/// reader: what is read again afterwards (a second pass, an error's line)
/// is still the file's, and what cannot be mapped is read as before.
@Suite struct MappedExportTests {
    static func file(_ bytes: [UInt8]) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("mapped-\(UUID().uuidString)")
        try Data(bytes).write(to: url)
        return url
    }

    @Test func pagesGivenBackAreReadAgainFromTheFile() throws {
        let bytes = (0..<(3 * MappedExport.step + 12_345)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 12) }
        let url = try Self.file(bytes)
        defer { try? FileManager.default.removeItem(at: url) }
        let mapped = try #require(MappedExport(path: url.path))
        let copy = mapped.data
        copy.withUnsafeBytes { raw in
            // Twice through, as Proton Pass's and Enpass's readers may go: the second pass starts again behind the first.
            for _ in 0..<2 {
                #expect(MappedExport.givenBack(raw.baseAddress!) == 0 || MappedExport.givenBack(raw.baseAddress!) == 2 * MappedExport.step)
                for offset in stride(from: 0, to: raw.count, by: 65_536) { MappedExport.passed(raw.baseAddress! + offset) }
                #expect(MappedExport.givenBack(raw.baseAddress!) == 2 * MappedExport.step)  // whole steps, a step behind the reader
            }
        }
        #expect(Array(copy) == bytes)
        #expect(MappedExport.givenBack(bytes.withUnsafeBytes { $0.baseAddress! }) == nil)  // not a mapping of ours
    }

    @Test func aJSONExportReadThroughAMappingIsReadWhole() throws {
        let notes = String(repeating: "a note long enough to fill pages ", count: 14)
        let items = (0..<20_000).map { #"{"id": "\#($0)", "type": 1, "name": "Account \#($0)", "notes": "\#(notes)", "login": {"username": "u\#($0)", "password": "p\#($0)"}}"# }
        let url = try Self.file(Array(#"{"encrypted": false, "items": ["#.utf8) + Array(items.joined(separator: ",\n").utf8) + Array("]}".utf8))
        defer { try? FileManager.default.removeItem(at: url) }
        let data = try #require(MappedExport(path: url.path)).data
        #expect(data.count > 2 * MappedExport.step)
        let result = try Importer.read(data, format: .bitwardenJSON, existing: [], now: Date(timeIntervalSince1970: 1_700_000_000))
        #expect(result.entries.count == 20_000 && result.entries.last?.password == "p19999")
    }

    @Test func whatCannotBeMappedIsLeftToAPlainRead() throws {
        let empty = try Self.file([])
        defer { try? FileManager.default.removeItem(at: empty) }
        #expect(MappedExport(path: empty.path) == nil)
        #expect(MappedExport(path: FileManager.default.temporaryDirectory.path) == nil)
        #expect(MappedExport(path: "/nonexistent/export.json") == nil)
        #expect(MappedExport(path: "/dev/null") == nil)  // not a regular file
    }
}
