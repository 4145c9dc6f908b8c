import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import BulwarkCore

/// The sync's table of what each entry was at the last sync, kept by
/// bucket in an append-only file: a save writes what changed, a kill
/// leaves the state it had, a damaged bucket is named.
@Suite struct KnownTableTests {
    final class Setup {
        let dir = TemporaryDirectory()
        let vault: Vault
        var paths: SyncState.Paths { SyncState.Paths(vault: vault.path) }

        init() throws {
            vault = try Vault.create(at: dir.file("vault.db"), masterPassword: "master", parameters: testParameters)
        }

        /// A state whose table knows `count` entries (spread over the buckets as their files are).
        func state(_ count: Int) -> SyncState {
            let fileOf = SyncState.fileOf(vault)
            var all: [String: SyncState.Known] = [:]
            for i in 0..<count {
                let id = "entry-\(i)"
                all[id] = SyncState.Known(vector: VersionVector(["m1": Int64(i + 1)]), digest: String(repeating: "d", count: 64), file: fileOf(id))
            }
            var state = SyncState(remote: "/r.git", machineName: "laptop")
            state.known = KnownTable(all, fileOf: fileOf)
            return state
        }

        func knownFile(_ state: SyncState) -> URL { paths.directory.appendingPathComponent(state.knownName ?? "none") }
        func size(_ url: URL) -> Int { ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int) ?? -1 }
    }

    @Test func aSaveWritesOnlyTheBucketsThatChanged() throws {
        let s = try Setup()
        var state = s.state(2000)
        try state.save(for: s.vault)
        let whole = s.size(s.knownFile(state))
        // One place a bucket the entries' files fall in (random names: nearly all 256 of them).
        let buckets = Set((0..<2000).map { state.known.bucket(of: "entry-\($0)") })
        #expect(state.knownName == "known-1" && Set(state.knownPlaces.keys) == buckets && whole > 100_000)

        var loaded = try #require(try SyncState.load(for: s.vault))
        var changed = try #require(try loaded.known.known("entry-7"))
        changed.vector = changed.vector.bumped("m2")
        try loaded.known.set("entry-7", changed)
        #expect(loaded.known.changed == [loaded.known.bucket(of: "entry-7")])
        try loaded.save(for: s.vault)
        let grown = s.size(s.knownFile(loaded)) - whole
        #expect(loaded.knownName == "known-1" && grown > 0 && grown < whole / 100, "one bucket appended: \(grown) bytes")

        var again = try #require(try SyncState.load(for: s.vault))
        #expect(try again.known.known("entry-7")?.vector == changed.vector)
        #expect(try again.known.all().count == 2000)
    }

    /// A save killed after it appended its buckets and before the state was
    /// renamed over leaves bytes past every place: the old state reads as it was.
    @Test func aKilledSaveLeavesTheStateItHad() throws {
        let s = try Setup()
        var state = s.state(300)
        try state.save(for: s.vault)
        let before = try #require(try SyncState.load(for: s.vault))
        let handle = try FileHandle(forWritingTo: s.knownFile(state))
        handle.seekToEndOfFile()
        handle.write(Data(repeating: 0xAB, count: 5000))
        try handle.close()
        var after = try #require(try SyncState.load(for: s.vault))
        #expect(after == before)
        try after.known.set("entry-1", nil)
        try after.save(for: s.vault)
        var reread = try #require(try SyncState.load(for: s.vault))
        #expect(try reread.known.known("entry-1") == nil && reread.known.all().count == 299)
    }

    @Test func aFileMostlyOfDeadBytesIsWrittenAfreshAndTheOldOneRemoved() throws {
        let s = try Setup()
        var state = s.state(3000)
        try state.save(for: s.vault)
        // Every bucket changed, three times over: the live table is a third of the file, or less.
        for round in 0..<3 {
            var next = try #require(try SyncState.load(for: s.vault))
            for (id, known) in try next.known.all() {
                var changed = known
                changed.vector = changed.vector.bumped("round\(round)")
                try next.known.set(id, changed)
            }
            try next.save(for: s.vault)
            state = next
        }
        #expect(state.knownName == "known-2")
        let names = try FileManager.default.contentsOfDirectory(atPath: s.paths.directory.path).filter { $0.hasPrefix("known-") }
        #expect(names == ["known-2"])
        var reread = try #require(try SyncState.load(for: s.vault))
        #expect(try reread.known.known("entry-42")?.vector.canonical.contains("round2") == true)
    }

    @Test func anAlteredBucketIsNamedAndNothingIsGuessed() throws {
        let s = try Setup()
        var state = s.state(500)
        try state.save(for: s.vault)
        let bucket = state.known.bucket(of: "entry-3")
        let place = try #require(state.knownPlaces[bucket])
        // The byte's bits flipped, not a byte written: the bucket is sealed
        // with a fresh nonce, so any set byte is already there once in 256
        // runs (found in make test: nothing altered, nothing thrown).
        let fd = open(s.knownFile(state).path, O_RDWR)
        let middle = off_t(place.offset + place.length / 2)
        var byte: UInt8 = 0
        #expect(pread(fd, &byte, 1, middle) == 1)
        byte ^= 0xFF
        #expect(pwrite(fd, &byte, 1, middle) == 1)
        close(fd)
        var loaded = try #require(try SyncState.load(for: s.vault))
        #expect(throws: VaultError.damaged("the sync state's table \(s.knownFile(state).path): bucket \(bucket) is cut short or altered; `bulwark sync init` links the vault again")) {
            try loaded.known.known("entry-3")
        }
    }

    /// A state an older bulwark wrote carries the whole table after its JSON:
    /// it is read whole, and the next save writes it by bucket.
    @Test func aStateOfTheFirstFormatIsReadAndWrittenByBucket() throws {
        let s = try Setup()
        let fresh = s.state(400)
        let all = try #require(fresh.known.allEntries())
        var table: [[UInt8]] = []
        for (id, item) in all {
            table += [Array(id.utf8), Array(item.file.utf8), Array(item.digest.utf8), Array(item.canonical.utf8), []]
        }
        let json = try JSONEncoder().encode(fresh)
        let plain = FieldCoding.encode(parts: [Array(json), FieldCoding.encode(parts: table)])
        try FileManager.default.createDirectory(at: s.paths.directory, withIntermediateDirectories: true)
        try Data(s.vault.sealed(plain, purpose: "sync-state")).write(to: s.paths.state)

        var loaded = try #require(try SyncState.load(for: s.vault))
        #expect(loaded.knownName == nil && loaded.known.allEntries() == all)
        try loaded.save(for: s.vault)
        #expect(loaded.knownName == "known-1")
        let reread = try #require(try SyncState.load(for: s.vault))
        #expect(reread.known.allEntries() == all)
    }
}
