import Foundation
import Testing
@testable import BulwarkCore


@Suite struct PwnedPasswordsFileTests {
    static func randomDigest(_ rng: inout SplitMix64) -> [UInt8] { (0..<20).map { _ in UInt8.random(in: 0...255, using: &rng) } }

    static func text(_ lines: [([UInt8], Int)], crlf: Bool, trailingNewline: Bool) -> Data {
        let body = lines.map { String(decoding: PwnedPasswordsFile.upperHex($0.0), as: UTF8.self) + ":\($0.1)" }
            .joined(separator: crlf ? "\r\n" : "\n")
        return Data((body + (trailingNewline ? (crlf ? "\r\n" : "\n") : "")).utf8)
    }

    /// Property: for random sorted corpora of 1 to 300 lines, in every
    /// combination of line end and final newline, the binary search agrees
    /// with set membership for every present hash (the first and last lines
    /// included, with their counts) and for absent ones (below the first,
    /// above the last, and in between).
    @Test(arguments: [false, true], [false, true])
    func binarySearchAgreesWithSetMembership(crlf: Bool, trailingNewline: Bool) throws {
        var rng = SplitMix64(seed: crlf ? 7 : 11)
        for round in 0..<150 {
            let size = round < 3 ? round + 1 : Int.random(in: 1...300, using: &rng)
            var table: [[UInt8]: Int] = [:]
            while table.count < size { table[Self.randomDigest(&rng)] = Int.random(in: 1...5_000_000, using: &rng) }
            let lines = table.sorted { $0.key.lexicographicallyPrecedes($1.key) }.map { ($0.key, $0.value) }
            let data = Self.text(lines, crlf: crlf, trailingNewline: trailingNewline)
            // Odd rounds read the file whole and bisect the index; even ones search the bytes.
            let corpus = try PwnedPasswordsFile(name: "round \(round)", data: data,
                                                wholeReadLimit: round % 2 == 1 ? PwnedPasswordsFile.wholeReadLimit : 0)
            for (digest, count) in lines { #expect(try corpus.count(ofSHA1: digest) == count, "round \(round)") }
            var absent = (0..<50).map { _ in Self.randomDigest(&rng) }.filter { table[$0] == nil }
            absent += [[UInt8](repeating: 0, count: 20), [UInt8](repeating: 0xFF, count: 20)].filter { table[$0] == nil }
            // Neighbours of present hashes: one more or one less in the last byte.
            for (digest, _) in lines.prefix(5) + lines.suffix(5) {
                for delta in [-1, 1] {
                    var near = digest
                    near[19] = UInt8(truncatingIfNeeded: Int(near[19]) + delta)
                    if table[near] == nil { absent.append(near) }
                }
            }
            for digest in absent { #expect(try corpus.count(ofSHA1: digest) == nil, "round \(round)") }
        }
    }

    /// Larger files, where the first probes are interpolated: uniform
    /// hashes, and skewed ones (clustered in a few narrow bands, or all
    /// sharing their first 60 bits) that make interpolation guess badly.
    @Test(arguments: ["uniform", "clustered", "shared-prefix"])
    func interpolatedProbesStillFindEverything(distribution: String) throws {
        var rng = SplitMix64(seed: 99)
        for round in 0..<3 {
            var table: [[UInt8]: Int] = [:]
            while table.count < 4000 + round * 3000 {
                var digest = Self.randomDigest(&rng)
                switch distribution {
                case "clustered": digest[0] = [0x00, 0x01, 0x7F, 0xFE][Int.random(in: 0..<4, using: &rng)]
                case "shared-prefix": for i in 0..<7 { digest[i] = 0xA5 }; digest[7] &= 0x0F
                default: break
                }
                table[digest] = Int.random(in: 1...99, using: &rng)
            }
            let lines = table.sorted { $0.key.lexicographicallyPrecedes($1.key) }.map { ($0.key, $0.value) }
            let corpus = try PwnedPasswordsFile(name: "\(distribution) \(round)", data: Self.text(lines, crlf: round % 2 == 0, trailingNewline: round < 2),
                                                wholeReadLimit: 0)
            for (digest, count) in lines { #expect(try corpus.count(ofSHA1: digest) == count) }
            for _ in 0..<2000 {
                var digest = lines.randomElement(using: &rng)!.0
                digest[19] ^= UInt8.random(in: 1...255, using: &rng)
                #expect(try corpus.count(ofSHA1: digest) == table[digest])
            }
        }
    }

    @Test func lowerCaseHexIsReadToo() throws {
        let corpus = try PwnedPasswordsFile(name: "lower", data: Data("0000000000000000000000000000000000000a0b:3\nffffffffffffffffffffffffffffffffffffffff:9\n".utf8))
        var digest = [UInt8](repeating: 0, count: 20)
        digest[18] = 0x0A; digest[19] = 0x0B
        #expect(try corpus.count(ofSHA1: digest) == 3)
        #expect(try corpus.count(ofSHA1: [UInt8](repeating: 0xFF, count: 20)) == 9)
    }

    @Test(arguments: [
        ("", "the file has no lines"),
        ("\r\n\n", "the file has no lines"),
        ("FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF:1\n0000000000000000000000000000000000000000:1\n", "the lines are not sorted by hash"),
        ("0000000000000000000000000000000000000000 1\n", "expected 40 hex digits and ':'"),
        ("000000000000000000000000000000000000000G:1\n", "expected a hex digit"),
        ("0000000000000000000000000000000000000000:\n", "expected a count"),
        ("0000000000000000000000000000000000000000:12x\n", "expected a count"),
        ("0000000000000000000000000000000000000001:1\r0000000000000000000000000000000000000002:1\n", "expected the end of the line"),
        ("0000000000000000000000000000000000000001:1\n0000000000000000000000000000000000000001:2\n", "the hash appears twice"),
    ])
    func malformedFilesAreRefusedWithTheReason(text: String, reason: String) {
        #expect(throws: PwnedPasswordsFile.FormatError.self) { try PwnedPasswordsFile(name: "x", data: Data(text.utf8)) }
        do { _ = try PwnedPasswordsFile(name: "x", data: Data(text.utf8)) } catch let error as PwnedPasswordsFile.FormatError {
            #expect(error.reason == reason)
        } catch { Issue.record("\(error)") }
    }

    @Test func aSmallFileIsCheckedWholeOnLoad() throws {
        let bad = "0000000000000000000000000000000000000001:1\nnot a line at all, but long enough to be read as one\nFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF:2\n"
        #expect(throws: PwnedPasswordsFile.FormatError(file: "small", offset: 43, reason: "expected 40 hex digits and ':'")) {
            try PwnedPasswordsFile(name: "small", data: Data(bad.utf8))
        }
        let unsorted = "0000000000000000000000000000000000000001:1\nC000000000000000000000000000000000000000:1\n8000000000000000000000000000000000000000:1\nFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF:2\n"
        #expect(throws: PwnedPasswordsFile.FormatError(file: "small", offset: 86, reason: "the lines are not sorted by hash")) {
            try PwnedPasswordsFile(name: "small", data: Data(unsorted.utf8))
        }
    }

    @Test func aBadLineMidFileIsReportedWhenASearchReachesIt() throws {
        let text = "0000000000000000000000000000000000000001:1\nnot a line at all, but long enough to be read as one\nFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF:2\n"
        let corpus = try PwnedPasswordsFile(name: "mid", data: Data(text.utf8), wholeReadLimit: 0)
        #expect(throws: PwnedPasswordsFile.FormatError(file: "mid", offset: 43, reason: "expected 40 hex digits and ':'")) {
            try corpus.count(ofSHA1: [UInt8](repeating: 0x80, count: 20))
        }
    }

    @Test func filesOnDiskAreMappedAndMissingOnesNamed() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("pwned.txt")
        try Data("5BAA61E4C9B93F3F0682250B6CF8331B7EE68FD8:52256179\r\n".utf8).write(to: path)
        let corpus = try BreachCorpus.load(paths: [path.path], includeBuiltIn: false)
        #expect(try corpus.lookup(password: "password") == BreachHit(count: 52256179, corpus: path.path))
        #expect(try corpus.lookup(password: "passw0rd") == nil)
        #expect(throws: PwnedPasswordsFile.FormatError(file: dir.file("absent.txt").path, offset: 0,
                                                       reason: "\(dir.file("absent.txt").path): no such file")) {
            try BreachCorpus.load(paths: [dir.file("absent.txt").path])
        }
        try Data().write(to: dir.file("empty.txt"))
        #expect(throws: PwnedPasswordsFile.FormatError.self) { try BreachCorpus.load(paths: [dir.file("empty.txt").path]) }
    }

    /// Many hashes at once answer as one at a time, in the order given:
    /// with gaps (nil), repeats, and hashes that share their first 8 bytes
    /// (the batch sorts by those, then by the rest).
    @Test func aBatchAnswersAsOneAtATime() throws {
        var rng = SplitMix64(seed: 0x5A1)
        var present = (0..<400).map { _ in Self.randomDigest(&rng) }
        for index in 0..<40 { present[index + 40].replaceSubrange(0..<8, with: present[index][0..<8]) }
        let lines = present.sorted { $0.lexicographicallyPrecedes($1) }.enumerated().map { ($1, $0 + 1) }
        let corpus = BreachCorpus(files: [try PwnedPasswordsFile(name: "batch", data: Self.text(lines, crlf: true, trailingNewline: true))])
        var asked: [[UInt8]?] = present.shuffled(using: &rng) + (0..<400).map { _ in Self.randomDigest(&rng) }
        for index in 0..<40 {
            var sibling = present[index]
            sibling[19] ^= 1  // the same first 8 bytes, absent
            asked.append(sibling)
            asked.append(present[index + 40])
        }
        asked += [nil, present[0], nil]
        asked.shuffle(using: &rng)
        let batch = try corpus.lookup(sha1s: asked)
        #expect(batch.count == asked.count)
        for (digest, hit) in zip(asked, batch) { #expect(hit == (try digest.flatMap { try corpus.lookup(sha1: $0) })) }
        #expect(batch.compactMap { $0 }.count == 400 + 40 + 1)
    }

    @Test func theBuiltInListHoldsTheCommonPasswordsOfThreeSources() throws {
        let corpus = try BreachCorpus.load(paths: [])
        let builtIn = BreachHit(count: 0, corpus: BreachCorpus.builtInName)
        // Openwall's, zxcvbn's and Django's, and a lower-case word capitalised as sign-up rules push people to.
        for common in ["123456", "password", "qwerty", "letmein", "monkey", "hunter2", "monkey123", "qwerty123", "Password1", "Hunter2"] {
            #expect(try corpus.lookup(password: common) == builtIn, "\(common)")
        }
        for uncommon in ["cytxup-Gyszi6-vozzab", "hunter2!x", "HUNTER2", ""] {
            #expect(try corpus.lookup(password: uncommon) == nil, "\(uncommon)")
        }
        // The table is sorted and whole: every source's size, and the distinct passwords kept.
        let list = CommonPasswordList.builtIn
        #expect(list.sources.map(\.passwords) == [3546, 30000, 19640])
        #expect(list.count == 76830)
        #expect(list.summary == "the built-in list of 76,830 common passwords (Openwall 3,546, zxcvbn 30,000, Django 19,640, each lower-case one also capitalised)")
        // Left out, the list finds nothing; a corpus file's count still wins over it.
        #expect(try BreachCorpus(files: []).lookup(password: "hunter2") == nil)
        let digest = Digest.sha1(Array("hunter2".utf8))
        let hex = digest.map { String(format: "%02X", $0) }.joined()
        let file = try PwnedPasswordsFile(name: "pwned.txt", data: Data("\(hex):17\r\n".utf8))
        #expect(try corpus.adding(file).lookup(password: "hunter2") == BreachHit(count: 17, corpus: "pwned.txt"))
        #expect(corpus.adding(file).names == [BreachCorpus.builtInName, "pwned.txt"])
    }
}
