import Foundation
import Testing
@testable import BulwarkCore

/// The manifest's plaintext: raw listings and root read back equal, the
/// first format (JSON) is still read, and a listing that is not whole is refused.
@Suite struct SyncCodingTests {
    static let listing: [String: SyncRepository.Listed] = [
        String(repeating: "ab", count: 16): .init(vector: "m1:3,m2:1", digest: String(repeating: "0f", count: 16)),
        String(repeating: "cd", count: 16): .init(vector: "m2:7", digest: String(repeating: "e1", count: 16), tombstone: 12,
                                                  pushed: Date(timeIntervalSince1970: 1_800_000_000.5)),
    ]

    @Test func aListingReadsBackEqualAndIsSmallerThanItsJSON() throws {
        let coded = SyncRepository.encodeListing(Self.listing)
        #expect(SyncRepository.decodeListing(coded) == Self.listing)
        // A bucket's worth (as at 100,000 entries): under half of the JSON.
        var bucket: [String: SyncRepository.Listed] = [:]
        for i in 0..<390 {
            bucket[Array(Digest.sha256(Array("file \(i)".utf8)).prefix(16)).hex] = .init(vector: "a1b2c3d4:\(i),e5f6a7b8:3", digest: SyncRepository.digest([UInt8(i & 255)]))
        }
        let raw = SyncRepository.encodeListing(bucket).count, json = try JSONEncoder().encode(bucket).count
        #expect(raw * 2 < json, "\(raw) bytes against \(json)")
        #expect(SyncRepository.decodeListing(SyncRepository.encodeListing(bucket)) == bucket)
        // The first format, JSON, is still read.
        #expect(SyncRepository.decodeListing(Array(try JSONEncoder().encode(Self.listing))) == Self.listing)
        // Cut short: refused.
        #expect(SyncRepository.decodeListing(Array(coded.dropLast(3))) == nil)
        #expect(SyncRepository.decodeListing(Array(coded.dropLast(20))) == nil)
    }

    @Test func aDigestIsSixteenBytesAndAFullOneStillMatches() {
        let sealed: [UInt8] = Array("sealed bytes".utf8)
        #expect(SyncRepository.digest(sealed).count == 32)
        #expect(SyncRepository.matches(sealed, SyncRepository.digest(sealed)))
        #expect(SyncRepository.matches(sealed, Digest.sha256(sealed).hex))
        #expect(!SyncRepository.matches(sealed, SyncRepository.digest(Array("other".utf8))))
        #expect(!SyncRepository.matches(sealed, String(Digest.sha256(sealed).hex.prefix(8))))
    }

    @Test func aRootReadsBackEqualWithItsBucketsRaw() throws {
        let root = SyncRepository.Root(format: 1, sequence: 42, header: String(repeating: "11", count: 32),
                                       buckets: ["00": String(repeating: "aa", count: 16), "ff": String(repeating: "bb", count: 16)],
                                       machines: ["m1": SyncMachine(name: "laptop", lastSync: Date(timeIntervalSince1970: 1_800_000_000), seen: 41, counter: 9)],
                                       collected: nil, tombstoneBuckets: ["ff"], newestTombstone: 40)
        let coded = try SyncRepository.encodeRoot(root)
        let back = try #require(SyncRepository.decodeRoot(coded))
        #expect(back.sequence == 42 && back.buckets == root.buckets && back.machines == root.machines && back.tombstoneBuckets == ["ff"])
        #expect(SyncRepository.decodeRoot(Array(coded.dropLast(1))) == nil)
    }
}
