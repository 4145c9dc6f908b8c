import Foundation
import Testing
@testable import BulwarkCore

/// A remote that cannot be trusted: each tampering is caught, named and
/// refused, and nothing local changes (the vault, and what the machine knows).
@Suite struct SyncHostileRemoteTests {
    typealias F = SyncFixture

    /// Two machines in sync with two entries (Mail in its second version);
    /// `tamper` plays the host in a clone of the remote and returns the
    /// refusal it expects; the desktop's next two syncs must fail with it
    /// and change nothing.
    func refuses(tamper: (SyncFixture, URL) throws -> String) throws {
        let f = try SyncFixture()
        let laptop = try f.first(entries: [F.entry("Mail"), F.entry("Bank")])
        let desktop = try f.clone("desktop")
        try F.edit(laptop, "Mail", at: 10) { $0.notes = "second version" }
        try laptop.sync()
        try desktop.sync()
        let entriesBefore = desktop.vault.entries, stateBefore = try SyncState.load(for: desktop.vault)
        var expected = ""
        try f.hostile { scratch in expected = try tamper(f, scratch) }
        for _ in 0..<2 {
            #expect(throws: SyncError.untrusted(expected)) { try desktop.sync() }
            #expect(desktop.vault.entries == entriesBefore)
            #expect(try SyncState.load(for: desktop.vault) == stateBefore)
        }
    }

    static func entryFiles(_ scratch: URL) throws -> [String] {
        try FileManager.default.subpathsOfDirectory(atPath: scratch.appendingPathComponent("entries").path)
            .filter { $0.contains("/") }.sorted().map { "entries/" + $0 }
    }

    static func fileID(_ path: String) -> String { String(path.split(separator: "/").last!) }

    @Test func aRollbackToAnOlderCommitIsRefused() throws {
        try refuses { f, scratch in
            try f.git.must(["reset", "-q", "--hard", "HEAD~1"], in: scratch, "reset")
            return "the remote was rolled back: its manifest is at 2, this machine saw 3"
        }
    }

    @Test func anEntryDroppedWithoutATombstoneIsRefused() throws {
        try refuses { f, scratch in
            let dropped = try Self.entryFiles(scratch)[0]
            try f.git.must(["rm", "-q", dropped], in: scratch, "rm")
            return "the entry file \(Self.fileID(dropped)) is missing (dropped without a tombstone)"
        }
    }

    @Test func twoEntriesFilesSwappedAreRefused() throws {
        try refuses { _, scratch in
            let files = try Self.entryFiles(scratch)
            let a = scratch.appendingPathComponent(files[0]), b = scratch.appendingPathComponent(files[1])
            let (first, second) = (try Data(contentsOf: a), try Data(contentsOf: b))
            try second.write(to: a)
            try first.write(to: b)
            return "the entry file \(Self.fileID(files[0])) is not the version the manifest lists (replayed or altered)"
        }
    }

    @Test func anOldVersionReplayedIsRefused() throws {
        try refuses { f, scratch in
            // Mail's file as its first version was, put back.
            // The last commit that changed an entry file (Mail's second version), and the file before it.
            let last = try f.git.must(["log", "-n", "1", "--format=%H", "--", "entries"], in: scratch, "log")
                .trimmingCharacters(in: .whitespacesAndNewlines)
            let changed = try f.git.must(["diff", "--name-only", "\(last)~1", last, "--", "entries"], in: scratch, "diff")
                .split(separator: "\n").map(String.init)
            let mail = try #require(changed.first)
            let old = try f.git.run(["show", "\(last)~1:\(mail)"], in: scratch)
            try old.data.write(to: scratch.appendingPathComponent(mail))
            return "the entry file \(Self.fileID(mail)) is not the version the manifest lists (replayed or altered)"
        }
    }

    @Test func aFileThatDoesNotOpenIsRefused() throws {
        try refuses { _, scratch in
            let file = try Self.entryFiles(scratch)[1]
            var bytes = try Data(contentsOf: scratch.appendingPathComponent(file))
            bytes[bytes.count / 2] ^= 0x01
            try bytes.write(to: scratch.appendingPathComponent(file))
            return "the entry file \(Self.fileID(file)) is not the version the manifest lists (replayed or altered)"
        }
    }

    @Test func aManifestBucketThatDoesNotMatchIsRefused() throws {
        try refuses { _, scratch in
            let bucket = try FileManager.default.contentsOfDirectory(atPath: scratch.appendingPathComponent("manifest").path)
                .filter { $0 != "root" }.sorted()[0]
            let path = scratch.appendingPathComponent("manifest/\(bucket)")
            var bytes = try Data(contentsOf: path)
            bytes[0] ^= 0xFF
            try bytes.write(to: path)
            return "the manifest bucket \(bucket) is not the one the root lists"
        }
    }

    @Test func anAlteredRootIsRefused() throws {
        try refuses { _, scratch in
            let path = scratch.appendingPathComponent("manifest/root")
            var bytes = try Data(contentsOf: path)
            bytes[bytes.count - 1] ^= 0x01
            try bytes.write(to: path)
            return "the manifest root does not open (altered, or sealed under another key)"
        }
    }

    @Test func aFileTheManifestDoesNotListIsRefused() throws {
        try refuses { f, scratch in
            let file = try Self.entryFiles(scratch)[0]
            let stray = (file as NSString).deletingLastPathComponent + "/" + String(repeating: "0", count: 32)
            try Data(contentsOf: scratch.appendingPathComponent(file)).write(to: scratch.appendingPathComponent(stray))
            try f.git.must(["add", stray], in: scratch, "add")
            return "the entry file \(String(repeating: "0", count: 32)) is not in the manifest"
        }
    }

    @Test func anAlteredHeaderIsRefused() throws {
        try refuses { _, scratch in
            let path = scratch.appendingPathComponent(SyncHeader.fileName)
            let text = try String(contentsOf: path, encoding: .utf8)
            try text.replacingOccurrences(of: "\"format\" : 1", with: "\"format\" : 1 ").write(to: path, atomically: true, encoding: .utf8)
            return "bulwark-sync.json is not the header the manifest was sealed with"
        }
    }
}
