import Foundation
import Testing
@testable import BulwarkCore

@Suite struct StrengthMemoTests {
    static func memo() -> StrengthMemo {
        var memo = StrengthMemo()
        memo[StrengthMemo.key(password: "letmein", accountWords: [])] = Strength(bits: 4.5, pattern: .commonPassword)
        memo[StrengthMemo.key(password: "cytxup-Gyszi6-vozzab", accountWords: ["jane"])] = Strength(bits: 71.25, pattern: nil)
        memo[StrengthMemo.key(password: "alice1990", accountWords: ["alice"])] = Strength(bits: 12, pattern: .containsAccountName)
        return memo
    }

    /// Where an entry's estimate is kept: its password with the account
    /// words that can change the estimate.
    static func key(of entry: Entry) -> StrengthMemo.Key? {
        PasswordFacts.Inputs(entry, AccountProfile(entry, sharing: SharedCredentials(), services: nil)).flatMap(PasswordFacts.memoKey)
    }

    /// One estimate per such key, however many accounts share it.
    static func distinctEstimates(_ entries: [Entry]) -> Int { Set(entries.compactMap(key(of:))).count }

    @Test func encodingRoundTripsAndIsCanonical() throws {
        let memo = Self.memo()
        let bytes = memo.encoded()
        #expect(bytes.count == 4 + 3 * 25)
        #expect(Array(bytes.prefix(4)) == Array("BSM1".utf8))
        #expect(StrengthMemo(decoding: bytes) == memo)
        // Built in another order, it encodes to the same bytes.
        var reversed = StrengthMemo()
        for (key, strength) in memo.estimates.reversed() { reversed[key] = strength }
        #expect(reversed.encoded() == bytes)
        #expect(StrengthMemo(decoding: StrengthMemo().encoded()) == StrengthMemo())
    }

    @Test func anythingDamagedIsDroppedWhole() {
        let bytes = Self.memo().encoded()
        #expect(StrengthMemo(decoding: []) == nil)
        #expect(StrengthMemo(decoding: Array(bytes.dropLast())) == nil)            // cut short
        #expect(StrengthMemo(decoding: Array("BSM2".utf8) + bytes.dropFirst(4)) == nil)  // another version
        var badPattern = bytes
        badPattern[4 + 24] = UInt8(WeakPattern.allCases.count + 1)
        #expect(StrengthMemo(decoding: badPattern) == nil)
        var notANumber = bytes
        withUnsafeBytes(of: Double.nan.bitPattern.littleEndian) { notANumber.replaceSubrange((4 + 16)..<(4 + 24), with: $0) }
        #expect(StrengthMemo(decoding: notANumber) == nil)
        let duplicated = bytes + bytes[4..<29]
        #expect(StrengthMemo(decoding: duplicated) == nil)
    }

    /// A floor is kept as one (mark 255) and serves only a weak line it clears.
    @Test func aFloorIsKeptAsAFloor() throws {
        var memo = StrengthMemo()
        let key = StrengthMemo.key(password: "cytxup-Gyszi6-vozzab", accountWords: [])
        memo[key] = Strength(bits: 52.5, pattern: nil, isFloor: true)
        let bytes = memo.encoded()
        #expect(bytes.count == 4 + 25 && bytes.last == 255)
        let decoded = try #require(StrengthMemo(decoding: bytes))
        #expect(decoded == memo && decoded[key]?.isFloor == true)
        #expect(decoded.strength(key, weakBelow: 35) == Strength(bits: 52.5, pattern: nil, isFloor: true))
        #expect(decoded.strength(key, weakBelow: 52.5) == nil)   // not clear of the line: judged again
        #expect(decoded.strength(key, weakBelow: 60) == nil)
        // An estimate serves any line.
        let exact = StrengthMemo.key(password: "letmein", accountWords: [])
        memo[exact] = Strength(bits: 4.5, pattern: .commonPassword)
        #expect(memo.strength(exact, weakBelow: 60) == Strength(bits: 4.5, pattern: .commonPassword))
    }

    /// Analysed at the usual line, generated passwords are cleared by their
    /// floor and remembered so; at a line above their floors, the same memo
    /// does not serve and zxcvbn measures them, finding them weak there.
    @Test func floorsClearTheLineAndAHigherLineMeasuresAgain() throws {
        let dir = TemporaryDirectory()
        let entries = (0..<9).map { SecurityAnalyzerTests.entry("g\($0)", "Site \($0)", "https://site\($0).example", password: SecurityAnalyzerTests.strong($0)) }
        let usual = SecurityAnalyzer(breaches: try SecurityAnalyzerTests.corpus(dir), sharing: SecurityAnalyzerTests.shinyBackend, clock: { SecurityAnalyzerTests.now })
        try usual.load(entries)
        #expect(usual.measured == 9 && usual.floored == 9)
        #expect(usual.report().count(.weak) == 0)
        let memo = try #require(usual.takeStrengthMemo())
        let settings = AnalysisSettings(weakBelowBits: 200)
        let strict = SecurityAnalyzer(settings: settings, breaches: try SecurityAnalyzerTests.corpus(dir), memo: memo, clock: { SecurityAnalyzerTests.now })
        try strict.load(entries)
        #expect(strict.measured == 9 && strict.floored == 0)
        #expect(strict.report().count(.weak) == 9)
    }

    @Test func theKeyCoversThePasswordAndTheAccountWords() {
        let key = StrengthMemo.key(password: "alice1990", accountWords: ["alice"])
        #expect(key == StrengthMemo.key(password: "alice1990", accountWords: ["alice"]))
        #expect(key != StrengthMemo.key(password: "alice1991", accountWords: ["alice"]))
        #expect(key != StrengthMemo.key(password: "alice1990", accountWords: ["bob"]))
        #expect(key != StrengthMemo.key(password: "alice1990", accountWords: []))
        // Word boundaries count: ["ab", "c"] is not ["a", "bc"].
        #expect(StrengthMemo.key(password: "x", accountWords: ["ab", "c"]) != StrengthMemo.key(password: "x", accountWords: ["a", "bc"]))
        #expect(StrengthMemo.key(password: "a\0b", accountWords: []) != StrengthMemo.key(password: "a", accountWords: ["b"]))
    }

    /// What the memo holds is what zxcvbn said: a remembered estimate is
    /// used as it is, so the memo must never hold another password's.
    @Test func aRememberedEstimateIsUsedAndAnEditMeasuresAgain() throws {
        let dir = TemporaryDirectory()
        let entries = SecurityAnalyzerTests.planted
        let first = try SecurityAnalyzerTests.analyzer(dir, entries)
        let measuredFirst = first.measured
        // Each shared estimate measured once (the planted vault reuses passwords).
        #expect(measuredFirst == Self.distinctEstimates(entries))
        #expect(measuredFirst < entries.filter { $0.password != nil && !PINRules.isPIN($0) }.count)
        let memo = try #require(first.takeStrengthMemo())
        #expect(first.takeStrengthMemo() == nil)  // taken: nothing new until something changes
        // Taken, the memo is the vault's to keep: the analyzer let its copy go,
        // so an entry given the same password again is measured again.
        let unchanged = try #require(entries.first { $0.password != nil && !PINRules.isPIN($0) })
        var same = unchanged
        same.password = nil
        try first.update(same)
        try first.update(unchanged)
        #expect(first.measured == measuredFirst + 1)

        let second = SecurityAnalyzer(breaches: try SecurityAnalyzerTests.corpus(dir), sharing: SecurityAnalyzerTests.shinyBackend, memo: memo, clock: { SecurityAnalyzerTests.now })
        try second.load(entries)
        #expect(second.measured == 0)
        #expect(second.report() == first.report())
        #expect(second.takeStrengthMemo() == nil)

        var blog = entries.first { $0.id == "w1" }!
        let oldKey = try #require(Self.key(of: blog))
        #expect(memo[oldKey] != nil)
        blog.changePassword(to: "cytxup-Gyszi6-vozzab-2", reason: "test", at: SecurityAnalyzerTests.now)
        try second.update(blog)
        #expect(second.measured == 1)
        let pruned = try #require(second.takeStrengthMemo())
        #expect(pruned.count == memo.count)  // the old password's estimate went, the new one came
        #expect(pruned[oldKey] == nil)
        second.remove(id: "w1")
        #expect(try #require(second.takeStrengthMemo()).count == memo.count - 1)
    }

    @Test func theVaultKeepsTheMemoSealed() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("vault.db")
        let entries = SecurityAnalyzerTests.planted
        do {
            let vault = try Vault.create(at: path, masterPassword: "m", parameters: testParameters)
            try vault.save(entries)
            #expect(vault.strengthMemo() == StrengthMemo())
            try vault.prepareStrengthMemo()
            vault.close()
        }
        let vault = try Vault.open(at: path, masterPassword: "m")
        let memo = vault.strengthMemo()
        #expect(memo.count == Self.distinctEstimates(entries))
        let analyzer = SecurityAnalyzer(breaches: try SecurityAnalyzerTests.corpus(dir), sharing: SecurityAnalyzerTests.shinyBackend, memo: memo)
        try analyzer.load(vault.entries)
        #expect(analyzer.measured == 0)
        vault.close()
        // Sealed: the file holds no record of it in the clear.
        let file = try Data(contentsOf: path)
        #expect(file.range(of: Data(memo.encoded().prefix(29))) == nil)
    }

    @Test func anUnreadableMemoIsAnEmptyOne() throws {
        let dir = TemporaryDirectory()
        let vault = try Vault.create(at: dir.file("vault.db"), masterPassword: "m", parameters: testParameters)
        try vault.setNoteBytes("strength-memo", Array("not a memo".utf8))
        #expect(vault.strengthMemo() == StrengthMemo())
        let analyzer = SecurityAnalyzer(breaches: try SecurityAnalyzerTests.corpus(dir), sharing: SecurityAnalyzerTests.shinyBackend, memo: vault.strengthMemo())
        try analyzer.load(SecurityAnalyzerTests.planted)
        #expect(analyzer.measured > 0)
    }
}
