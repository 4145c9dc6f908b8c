import Foundation
import Testing

/// Attachments through sync, with the real binary and git: a file attached
/// on one machine arrives whole on the others (clone and sync), once in the
/// remote however many entries hold it; files attached on two machines at
/// once are both kept; a file taken away goes everywhere; a re-key's
/// rewritten remote still carries the files.
@Suite struct SyncFilesTests {
    static let bytes = Data((0..<(2 << 20) + 99).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 13) })

    func file(_ m: SyncCommandTests.Machines, _ name: String, _ data: Data) throws -> String {
        let url = m.dir.appendingPathComponent(name)
        try data.write(to: url)
        return url.path
    }

    func get(_ m: SyncCommandTests.Machines, _ machine: String, _ entry: String, _ name: String, stdin: String = "master\n") throws -> Data? {
        let out = m.dir.appendingPathComponent("\(machine)-\(UUID().uuidString)").path
        let got = try m.run(machine, ["attachment", "get", entry, name, "--out", out], stdin: stdin)
        guard got.status == 0 else { return nil }
        return FileManager.default.contents(atPath: out)
    }

    @Test func filesTravelWithTheirEntries() throws {
        let m = try SyncCommandTests.Machines()
        try m.create("laptop", ["Mail", "Bank"])
        let codes = try file(m, "codes.pdf", Self.bytes)
        #expect(try m.run("laptop", ["attach", "Mail", codes]).status == 0)
        #expect(try m.run("laptop", ["attach", "Bank", codes, "--name", "same.pdf"]).status == 0)
        #expect(try m.run("laptop", ["sync", "init", m.remote, "--name", "laptop"]).status == 0)
        // One set of objects for the file two entries hold: three chunks of a mebibyte.
        let listed = try m.git(["ls-tree", "-r", "--name-only", "main"], in: m.remote).stdout.split(separator: "\n").filter { $0.hasPrefix("files/") }
        #expect(listed.count == 3, "\(listed)")
        #expect(try m.run("desktop", ["sync", "clone", m.remote, "--name", "desktop"]).status == 0)
        #expect(try get(m, "desktop", "Mail", "codes.pdf") == Self.bytes && (try get(m, "desktop", "Bank", "same.pdf")) == Self.bytes)

        // Both machines attach a file to Mail before either syncs: both files are kept.
        #expect(try m.run("laptop", ["attach", "Mail", try file(m, "a.txt", Data("from the laptop".utf8))]).status == 0)
        #expect(try m.run("desktop", ["attach", "Mail", try file(m, "b.txt", Data("from the desktop".utf8))]).status == 0)
        #expect(try m.run("laptop", ["sync"]).status == 0)
        #expect(try m.run("desktop", ["sync"]).status == 0)
        #expect(try m.run("laptop", ["sync"]).status == 0)
        for machine in ["laptop", "desktop"] {
            let names = try m.run(machine, ["attachment", "list", "Mail"]).stdout.split(separator: "\n").map { String($0.split(separator: "\t")[0]) }.sorted()
            #expect(names == ["a.txt", "b.txt", "codes.pdf"], "\(machine)")
            #expect(try get(m, machine, "Mail", "b.txt") == Data("from the desktop".utf8), "\(machine)")
        }

        // Taken away on one machine, gone on the other.
        #expect(try m.run("desktop", ["attachment", "rm", "Mail", "a.txt"]).status == 0)
        #expect(try m.run("desktop", ["sync"]).status == 0)
        #expect(try m.run("laptop", ["sync"]).status == 0)
        #expect(try get(m, "laptop", "Mail", "a.txt") == nil && (try get(m, "laptop", "Mail", "codes.pdf")) == Self.bytes)

        // A new master password on the laptop: the remote is written afresh, the files with it.
        #expect(try m.run("laptop", ["passwd", "--i-know-this-is-weak"], stdin: "master\nnew-master\nnew-master\n").status == 0)
        #expect(try m.run("laptop", ["sync"], stdin: "new-master\n").status == 0)
        #expect(try m.run("phone", ["sync", "clone", m.remote, "--name", "phone"], stdin: "new-master\n").status == 0)
        #expect(try get(m, "phone", "Mail", "codes.pdf", stdin: "new-master\n") == Self.bytes)
        #expect(try get(m, "phone", "Bank", "same.pdf", stdin: "new-master\n") == Self.bytes)
    }
}
