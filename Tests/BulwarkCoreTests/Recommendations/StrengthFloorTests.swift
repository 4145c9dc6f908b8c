import CWordFloors
import Foundation
import Testing
@testable import BulwarkCore

/// The floor is never above zxcvbn's estimate, and it spares zxcvbn for
/// the strong passwords people are given.
@Suite struct StrengthFloorTests {
    /// Words, names and passwords of every kind libzxcvbn knows, spelt as people bend them.
    static let words = ["password", "sunflower", "mercury", "blanket", "harbour", "pickle", "rocket", "violet", "walnut",
                        "breached", "shared", "habit", "pass", "dragon", "monkey", "letmein", "shadow", "michael", "jennifer",
                        "qwerty", "football", "baseball", "master", "superman", "trustno1", "iloveyou", "princess", "welcome",
                        "summer", "winter", "london", "paris", "smith", "johnson", "garcia", "starwars", "matrix", "batman",
                        "the", "and", "of", "in", "up", "go", "it", "correct", "horse", "battery", "staple", "tr0ub4dor",
                        "admin", "login", "abc", "xyz", "zxcvbn", "asdf", "hunter", "secret", "cookie", "banana", "orange",
                        "elephant", "computer", "internet", "freedom", "whatever", "nicole", "daniel", "jessica", "ashley"]
    static let printable = (32..<127).map { UInt8($0) }

    /// Passwords made of the parts zxcvbn looks for, and of noise.
    static func corpus(count: Int, seed: UInt64) -> [(password: String, accountWords: [String])] {
        var random = SplitMix64(seed: seed)
        func pick<T>(_ list: [T]) -> T { list[Int.random(in: 0..<list.count, using: &random)] }
        func noise(_ alphabet: [UInt8], _ lengths: ClosedRange<Int>) -> String {
            String(decoding: (0..<Int.random(in: lengths, using: &random)).map { _ in pick(alphabet) }, as: UTF8.self)
        }
        let leet: [Character: [Character]] = ["a": ["4", "@"], "e": ["3"], "i": ["1", "!", "|"], "o": ["0"], "s": ["$", "5"],
                                              "l": ["1", "7", "|"], "t": ["7", "+"], "g": ["9", "6"], "b": ["8"], "c": ["(", "<", "[", "{"],
                                              "z": ["2"], "x": ["%"]]
        func bent(_ word: String) -> String {
            var out = String(word.map { letter -> Character in
                switch Int.random(in: 0..<10, using: &random) {
                case 0, 1: return Character(letter.uppercased())
                case 2, 3: return leet[letter].map(pick) ?? letter
                default: return letter
                }
            })
            if Int.random(in: 0..<5, using: &random) == 0 { out = String(out.reversed()) }
            return out
        }
        let keyboardish = Array("qwertyuiop[]asdfghjkl;'zxcvbnm,./`1234567890-=!@#$%^&*()QAZWSX".utf8)
        let keypad = Array("789456123/*-+.0=".utf8)
        var out: [(String, [String])] = []
        while out.count < count {
            var password = ""
            switch Int.random(in: 0..<10, using: &random) {
            case 0, 1: password = noise(printable, 1...16)
            case 2: password = noise(pick([keyboardish, keypad, Array("abcdefxyzABCXYZ0123456789".utf8)]), 2...12)
            default:
                for _ in 0..<Int.random(in: 1...4, using: &random) {
                    switch Int.random(in: 0..<10, using: &random) {
                    case 0..<4: password += bent(pick(words))
                    case 4: password += String(Int.random(in: 1890...2070, using: &random))
                    case 5: password += String(format: "%02d%@%02d%@%d", Int.random(in: 1...31, using: &random), pick(["/", "-", ".", "_", " ", "\\", ""]),
                                               Int.random(in: 1...12, using: &random), pick(["/", "-", ".", ""]), Int.random(in: 0...2030, using: &random))
                    case 6:
                        let first = Int.random(in: 33...120, using: &random), step = pick([1, 2, 3, 5, -1, -2, -5])
                        password += String(decoding: (0..<Int.random(in: 3...8, using: &random)).map { UInt8(max(32, min(126, first + step * $0))) }, as: UTF8.self)
                    case 7: password += String(pick(["qwerty", "asdfgh", "zxcvbn", "1qaz2wsx", "qazwsx", "poiuy", "!@#$%^", "7894561230",
                                                     "mnbvc", "',.pyf", "aoeuid", "plokij", "147258", "-=][", "`1234"]).prefix(Int.random(in: 3...10, using: &random)))
                    case 8: password += String(repeating: noise(printable, 1...4), count: Int.random(in: 2...4, using: &random))
                    default: password += noise(printable, 1...5)
                    }
                }
            }
            let accountWords = Int.random(in: 0..<3, using: &random) == 0 ? [pick(words), pick(["jane", "northwind", "example"])] : []
            out.append((String(password.prefix(40)), accountWords))
        }
        return out
    }

    /// Every floor against zxcvbn's estimate; the passwords above it named.
    static func above(_ corpus: [(password: String, accountWords: [String])]) -> [String] {
        corpus.compactMap { password, words in
            guard let floor = StrengthFloor.bits(password, accountWords: words) else { return nil }
            let estimate = StrengthMeter.measure(password, accountWords: words).bits
            return floor <= estimate + 1e-9 ? nil : "\(password) \(words): floor \(floor) > \(estimate)"
        }
    }

    /// The floor of the word a whole run spells, read as the floor reads it; nil when none.
    static func wordFloor(_ run: String) -> Double? {
        var walk = WordFloorTable.Walk()
        var floor: Double?
        for (index, byte) in run.utf8.enumerated() {
            let step = walk.add(WordFloorTable.classes[Int(byte)])
            floor = step.floor
            if !step.goesOn && index < run.utf8.count - 1 { return nil }
        }
        return floor
    }

    @Test func theWordTablesAreForTheInstalledLibzxcvbn() {
        #expect(WordFloorTable.isUsable)
        // "password" heads a list: its floor is libzxcvbn's estimate of it, 0 bits.
        #expect(Self.wordFloor("password") == 0 && StrengthMeter.measure("password").bits == 0)
        // Spelt with stand-ins and capitals, it is the same spelling.
        #expect(Self.wordFloor("P@$$w0rd") == 0)
        // A word of three letters, one of more, none, and a run no word begins with.
        #expect(Self.wordFloor("the") == 0 && Self.wordFloor("sunflower").map { $0 > 10 && $0 <= StrengthMeter.measure("sunflower").bits } == true)
        #expect(Self.wordFloor("xqzjvk") == nil)
        var walk = WordFloorTable.Walk()
        let steps = "xqzj".utf8.map { walk.add(WordFloorTable.classes[Int($0)]).goesOn }
        #expect(steps.contains(false))
    }

    /// How many of the long word table's pages are in memory, by /proc/self/pagemap.
    static func residentTablePages() throws -> (resident: Int, pages: Int) {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let start = Int(bitPattern: UnsafeRawPointer(bulwark_word_floor_slots()!))
        let first = (start + page - 1) / page, last = (start + (1 << Int(BULWARK_WORD_FLOOR_TABLE_BITS)) * 4) / page
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/self/pagemap"))
        defer { try? handle.close() }
        try handle.seek(toOffset: UInt64(first * 8))
        let entries = try #require(try handle.read(upToCount: (last - first) * 8))
        let present = stride(from: 0, to: entries.count, by: 8).count { entries[$0 + 7] & 0x80 != 0 }
        return (present, last - first)
    }

    /// The tables are given back after use and read in again when next needed.
    @Test func theTablesAreGivenBackAfterUse() throws {
        var random = SplitMix64(seed: 3)
        func judgeMany() {
            for _ in 0..<3_000 {
                _ = StrengthFloor.bits(String(decoding: (0..<16).map { _ in UInt8.random(in: 0x61...0x7A, using: &random) }, as: UTF8.self))
            }
        }
        // Other tests run meanwhile: the app's background analysis lets go
        // of the tables too, and any judging reads pages in again. So each
        // side is given three tries; letting go that did nothing fails all.
        var used: [(resident: Int, pages: Int)] = [], given: [(resident: Int, pages: Int)] = []
        for _ in 0..<3 {
            judgeMany()
            used.append(try Self.residentTablePages())
            StrengthFloor.letGoOfTables()
            given.append(try Self.residentTablePages())
        }
        #expect(used.contains { $0.resident * 10 >= $0.pages * 9 }, "\(used)")
        #expect(given.contains { $0.resident * 2 < $0.pages }, "\(given)")
        judgeMany()
        #expect(StrengthFloor.bits("cytxup-Gyszi6-vozzab").map { $0 >= 35 } == true)
    }

    @Test func neverAboveZxcvbnsEstimate() {
        let corpus = Self.corpus(count: 40_000, seed: 0xF100)
        let above = Self.above(corpus)
        #expect(above.isEmpty, "\(above.count) above, first: \(above.prefix(5))")
        // The corpus is not all weak: the floor decides some of it.
        #expect(corpus.filter { (StrengthFloor.bits($0.password, accountWords: $0.accountWords) ?? 0) >= 35 }.count > 8_000)
    }

    static let wordLists = ["/usr/share/dict/american-english", "/usr/share/john/password.lst"]

    /// Lists written by others (Debian's wamerican and john-data, which
    /// `make test-deps` installs): words zxcvbn has and words it lacks, as
    /// they are and with digits or a symbol about them.
    @Test(.enabled(if: wordLists.allSatisfy { FileManager.default.fileExists(atPath: $0) },
                   "wamerican or john-data is not installed (make test-deps installs both)"))
    func neverAboveZxcvbnsEstimateOnWordLists() throws {
        var corpus: [(password: String, accountWords: [String])] = []
        var random = SplitMix64(seed: 7)
        for path in Self.wordLists {
            let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
            for line in text.split(whereSeparator: \.isNewline) where !line.hasPrefix("#!comment") {
                let word = String(line)
                corpus.append((word, []))
                let suffix = ["1", "123", "!", "2019", "#1", "99", "x"][Int.random(in: 0..<7, using: &random)]
                corpus.append((Int.random(in: 0..<2, using: &random) == 0 ? word + suffix : suffix + word.capitalized, []))
            }
        }
        #expect(corpus.count > 200_000)
        let above = Self.above(corpus)
        #expect(above.isEmpty, "\(above.count) above, first: \(above.prefix(5))")
    }

    /// Passwords made by bulwark's generator, Apple's style, clear the
    /// weak line on their floor: zxcvbn is not asked.
    @Test func generatedPasswordsClearTheLineWithoutZxcvbn() throws {
        var generator = try PasswordGenerator()
        let passwords = (0..<2_000).map { _ in generator.next() }
        let cleared = passwords.filter { (StrengthFloor.bits($0) ?? 0) >= 35 + StrengthFloor.margin }
        #expect(cleared.count >= 1_900, "\(cleared.count) of 2000")
        #expect(StrengthMeter.judge(passwords[0], accountWords: [], weakBelow: 35).isFloor == (cleared.contains(passwords[0])))
    }

    /// zxcvbn's estimate is measured once a password (it does not depend on
    /// the line), and what differs is gathered for one expectation: 12
    /// CPU-seconds in the debug build before, 9 now.
    @Test func judgingKeepsEveryFindingZxcvbnGives() {
        var differing: [String] = []
        for (password, words) in Self.corpus(count: 20_000, seed: 0x7E57) {
            let measured = StrengthMeter.measure(password, accountWords: words)
            for line in [20.0, 35, 60] {
                let judged = StrengthMeter.judge(password, accountWords: words, weakBelow: line)
                if PasswordFacts.weakWarning(judged, below: line) != PasswordFacts.weakWarning(measured, below: line) {
                    differing.append("\(password) below \(line): warned differently")
                }
                if !judged.isFloor && judged != measured { differing.append("\(password) below \(line): not zxcvbn's finding") }
            }
        }
        #expect(differing.isEmpty, "\(differing.count) differ, first: \(differing.prefix(5))")
    }

    @Test func whatIsLeftToZxcvbn() {
        #expect(StrengthFloor.bits("") == nil)
        #expect(StrengthFloor.bits("pässwort-Lang-genug-1") == nil)                // not ASCII
        #expect(StrengthFloor.bits(String(repeating: "kq7", count: 22)) == nil)     // 66 characters
        #expect(StrengthFloor.bits("a\0b") == StrengthFloor.bits("ab"))              // as zxcvbn reads it
        // Weak passwords get zxcvbn's estimate and its pattern.
        #expect(StrengthMeter.judge("sunflower10", accountWords: [], weakBelow: 35) == StrengthMeter.measure("sunflower10"))
        let own = StrengthMeter.judge("Northwind2019", accountWords: ["northwind"], weakBelow: 35)
        #expect(own == StrengthMeter.measure("Northwind2019", accountWords: ["northwind"]) && !own.isFloor && own.pattern == .containsAccountName)
    }
}
