import Foundation
import Testing
@testable import BulwarkCore

/// The range API's answers read as Have I Been Pwned writes them, and the
/// sealed cache of them.
@Suite struct PwnedRangeTests {
    let dir = TemporaryDirectory()

    @Test func paddingIsDroppedAndEitherLineEndIsRead() throws {
        let body = "0018A45C4D1DEF81644B54AB7F969B88D65:3\r\n00D4F6E8FA6EECAD2A3AA415EEC418D38EC:0\r\n011053FD0102E94D6AE2F8B83D76FAF94F6:12345678\n"
        #expect(try PwnedRange.parse(Data(body.utf8)) == ["0018A45C4D1DEF81644B54AB7F969B88D65": 3, "011053FD0102E94D6AE2F8B83D76FAF94F6": 12_345_678])
        #expect(try PwnedRange.parse(Data()) == [:])
        #expect(try PwnedRange.parse(Data("0018a45c4d1def81644b54ab7f969b88d65:1".utf8)) == ["0018A45C4D1DEF81644B54AB7F969B88D65": 1])
    }

    @Test(arguments: [
        ("<html>rate limited</html>", 1),
        ("0018A45C4D1DEF81644B54AB7F969B88D65:3\r\n0018A45C4D1DEF81644B54AB7F969B88D6:3\r\n", 2),   // 34 digits
        ("0018A45C4D1DEF81644B54AB7F969B88D65;3", 1),
        ("0018A45C4D1DEF81644B54AB7F969B88D6Z:3", 1),
        ("0018A45C4D1DEF81644B54AB7F969B88D65:-3", 1),
        ("0018A45C4D1DEF81644B54AB7F969B88D65:", 1),
    ])
    func aBodyThatIsNotARangeIsRefusedWhole(body: String, line: Int) {
        #expect(throws: PwnedRange.MalformedAnswer(line: line, reason: "expected 35 hex digits, ':' and a count")) {
            try PwnedRange.parse(Data(body.utf8))
        }
    }

    @Test func theHitsBecomeACorpus() throws {
        let sha1 = Digest.sha1(Array("password".utf8))  // 5BAA61E4C9B93F3F0682250B6CF8331B7EE68FD8
        #expect(PwnedRange.prefix(of: sha1) == "5BAA6" && PwnedRange.suffix(of: sha1) == "1E4C9B93F3F0682250B6CF8331B7EE68FD8")
        let other = Digest.sha1(Array("not in the range".utf8))
        let corpus = try #require(PwnedRange.corpus(named: "online", sha1s: [sha1, other],
                                                    ranges: ["5BAA6": ["1E4C9B93F3F0682250B6CF8331B7EE68FD8": 10_434_004]]))
        #expect(try BreachCorpus(files: [corpus]).lookup(password: "password") == BreachHit(count: 10_434_004, corpus: "online"))
        #expect(try BreachCorpus(files: [corpus]).lookup(password: "not in the range") == nil)
        #expect(PwnedRange.corpus(named: "online", sha1s: [other], ranges: [:]) == nil)
    }

    @Test func theCacheIsSealedToItsVaultAndAges() throws {
        let vault = try Vault.create(at: dir.file("vault.db"), masterPassword: "m", parameters: testParameters)
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        var cache = RangeCache.load(for: vault, in: dir.file("cache"), now: now)
        #expect(cache.ranges.isEmpty)
        cache.keep(["1E4C9B93F3F0682250B6CF8331B7EE68FD8": 10], for: "5BAA6", fetched: now)
        cache.keep([:], for: "00000", fetched: now.addingTimeInterval(-6 * 86_400))
        cache.keep([:], for: "FFFFF", fetched: now.addingTimeInterval(-8 * 86_400))
        try cache.save(for: vault)
        let bytes = try Data(contentsOf: cache.file)
        #expect(bytes.range(of: Data("5BAA6".utf8)) == nil && bytes.range(of: Data("1E4C9B".utf8)) == nil)

        let again = RangeCache.load(for: vault, in: dir.file("cache"), now: now)
        #expect(again.answered(["5BAA6", "00000", "FFFFF", "12345"]) == ["5BAA6": ["1E4C9B93F3F0682250B6CF8331B7EE68FD8": 10], "00000": [:]])
        // A day later the six-day-old answer is past the week.
        #expect(RangeCache.load(for: vault, in: dir.file("cache"), now: now.addingTimeInterval(86_400)).answered(["00000"]) == [:])

        // Another vault (another key) reads it as empty; so does a damaged file.
        let other = try Vault.create(at: dir.file("other.db"), masterPassword: "m", parameters: testParameters)
        try FileManager.default.copyItem(at: cache.file, to: dir.file("cache").appendingPathComponent("pwned-ranges-\(other.shortID).sealed"))
        #expect(RangeCache.load(for: other, in: dir.file("cache"), now: now).ranges.isEmpty)
        var damaged = bytes
        damaged[damaged.count / 2] ^= 1
        try damaged.write(to: cache.file)
        #expect(RangeCache.load(for: vault, in: dir.file("cache"), now: now).ranges.isEmpty)
    }
}
