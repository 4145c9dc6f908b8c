import Foundation
import Testing
@testable import BulwarkCore

/// The generator's choices, each checked for its promise over many samples.
@Suite struct SecretGeneratorTests {
    static func choice(_ change: (inout GeneratorChoice) -> Void) -> GeneratorChoice {
        var choice = GeneratorChoice()
        change(&choice)
        return choice
    }

    @Test func theWordListIsEFFsLargeList() {
        #expect(Passphrase.list.count == 7776 && Set(Passphrase.list).count == 7776)
        #expect(Passphrase.list.first == "abacus" && Passphrase.list.last == "zoom")
        #expect(Passphrase.list.allSatisfy { (3...9).contains($0.count) && $0.allSatisfy { $0.isLowercase || $0 == "-" } })
    }

    @Test func passphrasesAreWordsFromTheListWithTheirSeparatorCapitalsAndOneDigit() throws {
        let words = Set(Passphrase.list)
        var plain = try SecretGenerator(choice: Self.choice { $0.kind = .passphrase; $0.words = 6 })
        #expect(abs(plain.entropyBits - 6 * log2(7776)) < 1e-9 && plain.summary == "a passphrase of 6 words from EFF's list of 7,776")
        for _ in 0..<500 {
            let parts = plain.next().split(separator: "-", omittingEmptySubsequences: false)
            // A word of the list may hold a hyphen itself ("t-shirt"): the words are counted by the list.
            #expect(parts.count >= 6 && parts.allSatisfy { !$0.isEmpty })
        }
        var rich = try SecretGenerator(choice: Self.choice { $0.kind = .passphrase; $0.words = 5; $0.separator = " "; $0.capitalize = true; $0.number = true })
        #expect(abs(rich.entropyBits - (5 * log2(7776) + log2(10) + log2(5))) < 1e-9)
        var sawDigitAt = Set<Int>()
        for _ in 0..<1000 {
            let parts = rich.next().split(separator: " ")
            #expect(parts.count == 5 && parts.allSatisfy { $0.first?.isUppercase == true })
            let digits = parts.enumerated().filter { $0.element.last?.isNumber == true }
            #expect(digits.count == 1)
            if let (at, word) = digits.first {
                sawDigitAt.insert(at)
                #expect(words.contains(String(word.dropLast()).lowercased()))
            }
            #expect(parts.filter { $0.last?.isNumber != true }.allSatisfy { words.contains($0.lowercased()) })
        }
        #expect(sawDigitAt == Set(0..<5))
    }

    @Test func passwordsHaveTheirLengthEveryChosenClassAndNoOther() throws {
        var generator = try SecretGenerator(choice: Self.choice { $0.kind = .password; $0.length = 12; $0.symbols = false; $0.avoidLookAlikes = true })
        #expect(generator.summary == "a password of 12 characters" && generator.notes.isEmpty)
        // 56 characters (62 less I l 1 O 0 o), every string of 12 with a lower, a capital and a digit.
        let alphabet = PrintableSet.lower.union(.upper).union(.digit).subtracting(GeneratorChoice.lookAlikes)
        #expect(alphabet.count == 56)
        let fraction = PasswordGenerator.fractionSatisfying(alphabet: alphabet, required: [PrintableSet.lower, .upper, .digit].map { $0.intersection(alphabet) },
                                                            length: 12, maxConsecutive: 12)
        #expect(abs(generator.entropyBits - (12 * log2(56) + log2(fraction))) < 1e-6)
        for _ in 0..<2000 {
            let password = generator.next()
            #expect(password.count == 12)
            #expect(password.contains(where: \.isLowercase) && password.contains(where: \.isUppercase) && password.contains(where: \.isNumber))
            #expect(!password.contains { "Il1|O0o`'\"".contains($0) || !($0.isLetter || $0.isNumber) })
        }
        var pin = try SecretGenerator(choice: Self.choice { $0.kind = .pin; $0.pinLength = 8 })
        #expect(abs(pin.entropyBits - 8 * log2(10)) < 1e-9 && pin.summary == "a PIN of 8 digits")
        for _ in 0..<500 { #expect(pin.next().count == 8) }
        #expect((0..<500).map { _ in pin.next() }.allSatisfy { $0.allSatisfy(\.isNumber) })
    }

    /// A site's rules win, and say what they changed.
    @Test func aSitesRulesWinAndSayWhatTheyChanged() throws {
        let rules = try PasswordRules.parse("allowed: lower, digit, [-_]; maxlength: 16; max-consecutive: 2")
        var password = try SecretGenerator(choice: Self.choice { $0.kind = .password; $0.length = 24 }, siteRules: rules)
        #expect(password.notes == ["the site allows no capitals: none are used", "maxlength: 16 (the site's) made it 16 characters, not 24"])
        for _ in 0..<300 {
            let value = password.next()
            #expect(value.count == 16 && rules.isSatisfied(by: value) && value.contains { "-_".contains($0) } && value.contains(where: \.isNumber))
        }
        let strict = try PasswordRules.parse("required: upper; required: digit; allowed: lower; maxlength: 40")
        var phrase = try SecretGenerator(choice: Self.choice { $0.kind = .passphrase; $0.words = 4 }, siteRules: strict)
        #expect(phrase.notes == ["the site does not allow \"-\": the words are joined by nothing",
                                 "the site requires upper: each word starts with a capital", "the site requires digit: a digit follows one word",
                                 "a passphrase that breaks the site's length or max-consecutive rule is drawn again"])
        for _ in 0..<300 { #expect(strict.isSatisfied(by: phrase.next())) }
        // Any character allowed, but too short a maximum: still a password, never a search without end.
        let unicode = try SecretGenerator(choice: Self.choice { $0.kind = .passphrase; $0.words = 6 }, siteRules: try PasswordRules.parse("allowed: unicode; maxlength: 12"))
        #expect(unicode.summary == "a password of 12 characters")
        let short = try PasswordRules.parse("allowed: lower; maxlength: 10")
        let fallback = try SecretGenerator(choice: Self.choice { $0.kind = .passphrase; $0.words = 4 }, siteRules: short)
        #expect(fallback.summary == "a password of 10 characters" && fallback.notes.contains("maxlength: 10 (the site's) leaves no room for 4 words: a password instead"))
    }

    @Test func aChoiceIsRememberedAsTextAndReadBack() {
        let choice = Self.choice { $0.kind = .passphrase; $0.words = 7; $0.separator = " "; $0.capitalize = true; $0.length = 30; $0.symbols = false; $0.pinLength = 8 }
        #expect(GeneratorChoice(text: choice.description) == choice)
        #expect(choice.description == "kind=passphrase length=30 lower=yes upper=yes digits=yes symbols=no avoid-look-alikes=no words=7 separator=space capitalize=yes number=no pin-length=8")
        // Out of range or unknown: the default stays.
        #expect(GeneratorChoice(text: "kind=bogus words=99 length=3 lower=no upper=no digits=no symbols=no") == Self.choice { $0.lower = true; $0.upper = false; $0.digits = false; $0.symbols = false })
    }
}
