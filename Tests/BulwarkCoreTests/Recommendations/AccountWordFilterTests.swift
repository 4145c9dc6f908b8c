import Foundation
import Testing
@testable import BulwarkCore

/// The account words left out of zxcvbn's user dictionary never change an
/// estimate, and an estimate shared by several accounts is measured once.
@Suite struct AccountWordFilterTests {
    static let pool = ["alice", "north", "wind", "jane", "blog", "user", "site", "account", "mail", "bank", "zebra", "golf"]
    /// Stand-ins people use (and libzxcvbn reads) for letters.
    static let leet: [Character: [Character]] = [
        "a": ["@", "4"], "e": ["3"], "i": ["1", "!", "|"], "o": ["0"], "s": ["$", "5"], "t": ["7", "+"],
        "g": ["9", "6"], "l": ["1", "|"], "b": ["8"], "z": ["2"], "c": ["(", "<", "{", "["], "x": ["%"],
    ]

    /// Passwords that hide account words every way zxcvbn finds them
    /// (case, stand-ins, reversed, inside other text) and passwords that
    /// only come near them, each with a few of the words in any order.
    static func corpus(count: Int) -> [(password: String, words: [String])] {
        var random = SplitMix64(seed: 0xB0_1A_4C)
        func pick<T>(_ list: [T]) -> T { list[Int(random.next() % UInt64(list.count))] }
        let filler = Array("abcdefghijklmnopqrstuvwxyz0123456789!@#$%^&*-_.+|<([{\0")
        return (0..<count).map { _ in
            var word = pick(pool)
            switch random.next() % 6 {
            case 0: word = word.uppercased()
            case 1: word = String(word.map { letter in leet[letter].map(pick) ?? letter })
            case 2: word = String(word.reversed())
            case 3: word = String(word.dropLast())  // near, not the word
            case 4: word = String((0..<Int(4 + random.next() % 8)).map { _ in pick(filler) })
            default: break
            }
            let before = String((0..<Int(random.next() % 5)).map { _ in pick(filler) })
            let after = String((0..<Int(random.next() % 6)).map { _ in pick(filler) })
            let words = (0..<Int(random.next() % 5)).map { _ in pick(pool) }
            return (before + word + after, words.reduce(into: []) { if !$0.contains($1) { $0.append($1) } })
        }
    }

    @Test func leftOutWordsNeverChangeAnEstimate() {
        var pruned = 0, wordsMattered = 0
        for (password, words) in Self.corpus(count: 3_000) {
            let kept = AccountWordFilter.wordsThatCanMatch(password, words)
            #expect(Array(words.prefix(kept.count)) == kept)
            let full = StrengthMeter.measure(password, accountWords: words)
            let filtered = StrengthMeter.measure(password, accountWords: kept)
            #expect(full.bits.bitPattern == filtered.bits.bitPattern && full.pattern == filtered.pattern,
                    "\(password.count)-character test password with \(words) kept \(kept)")
            if kept.count < words.count { pruned += 1 }
            if full != StrengthMeter.measure(password, accountWords: []) { wordsMattered += 1 }
        }
        // The corpus exercises both: words left out, and words that change the estimate.
        #expect(pruned > 1_000)
        #expect(wordsMattered > 200)
    }

    /// A word that cannot match keeps its place when a later one can:
    /// zxcvbn credits a word by its rank in the list.
    @Test func aWordBeforeOneThatMatchesKeepsItsPlace() {
        #expect(AccountWordFilter.wordsThatCanMatch("JaneQvxk", ["north", "jane", "bank"]) == ["north", "jane"])
        #expect(StrengthMeter.measure("JaneQvxk", accountWords: ["north", "jane"]) != StrengthMeter.measure("JaneQvxk", accountWords: ["jane"]))
        #expect(AccountWordFilter.wordsThatCanMatch("cytxup-Gyszi6-vozzab", ["jane", "north"]) == [])
    }

    @Test func standInsReversalsAndCaseAllCount() {
        for password in ["n0r7h-side", "xx-HTRON-yy", "$1+e.example", "3ti$.org"] {
            #expect(AccountWordFilter.wordsThatCanMatch(password, ["north", "site"]).isEmpty == false, "\(password)")
        }
        #expect(AccountWordFilter.wordsThatCanMatch("sit", ["site"]) == [])  // longer than the password
        // zxcvbn reads the password without its NULs: "us\0er" is "user" to it.
        #expect(AccountWordFilter.wordsThatCanMatch("us\0erQ", ["user"]) == ["user"])
        #expect(StrengthMeter.measure("us\0erQ", accountWords: ["user"]) != StrengthMeter.measure("us\0erQ", accountWords: []))
    }

    @Test func accountsSharingAPasswordShareOneEstimate() throws {
        func account(_ id: String, _ user: String, _ url: String, _ password: String) -> Entry {
            Entry(id: id, title: "Shop \(id)", urls: [url], username: user, password: password)
        }
        let entries = [
            account("a", "jane", "https://north.example", "habitpass1"),
            account("b", "jane", "https://wind.example", "habitpass1"),
            account("c", "alice", "https://bank.example", "habitpass1"),
            // Her name is in it: her estimate is her own.
            account("d", "habit", "https://mail.example", "habitpass1"),
        ]
        let analyzer = SecurityAnalyzer(breaches: BreachCorpus(files: []))
        try analyzer.load(entries)
        #expect(analyzer.evaluations == 4)
        #expect(analyzer.measured == 2)
        // The same findings as estimating each account with all its words.
        for entry in entries {
            let profile = AccountProfile(entry, sharing: SharedCredentials(), services: nil)
            let strength = StrengthMeter.measure(entry.password!, accountWords: PasswordFacts.Inputs.allAccountWords(entry, profile))
            let weak = analyzer.recommendation(forEntry: entry.id)?.warnings.first { $0.kind == .weak }
            #expect(weak == PasswordFacts.weakWarning(strength, below: analyzer.settings.weakBelowBits), "\(entry.id)")
        }
    }
}
