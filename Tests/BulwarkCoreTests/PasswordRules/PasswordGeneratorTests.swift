import Foundation
import Testing
@testable import BulwarkCore

@Suite struct PasswordGeneratorTests {
    static let appleShape = try! NSRegularExpression(pattern: "^[a-zA-Z0-9]{6}-[a-zA-Z0-9]{6}-[a-zA-Z0-9]{6}$")

    /// Exactly one valid password ("b") is still one: its log2 count is 0,
    /// which rounding once put below and refused.
    @Test func rulesWithExactlyOneValidPasswordAreMet() throws {
        let rules = try PasswordRules.parse("required: [ab]; required: [bc]; maxlength: 1")
        var generator = try PasswordGenerator(rules: rules)
        #expect(generator.next() == "b" && generator.entropyBits == 0)
        #expect(throws: UnsatisfiableRules.self) { try PasswordGenerator(rules: try PasswordRules.parse("required: [a]; required: [c]; maxlength: 1")) }
    }

    @Test func defaultIsApplesFormat() throws {
        var generator = try PasswordGenerator()
        #expect(generator.format == .appleStyle)
        #expect(abs(generator.entropyBits - 73.05) < 0.01)
        for _ in 0..<2000 {
            let password = generator.next()
            #expect(Self.appleShape.firstMatch(in: password, range: NSRange(location: 0, length: 20)) != nil, "\(password)")
            #expect(password.filter(\.isUppercase).count == 1)
            #expect(password.filter(\.isNumber).count == 1)
            // The digit sits at the start or end of a group.
            let digitIndex = Array(password).firstIndex(where: \.isNumber)!
            #expect([0, 5, 7, 12, 14, 19].contains(digitIndex))
        }
    }

    @Test func rulesThatForbidTheFormatGetTheMostEntropyTheyAllow() throws {
        // Hyphen not allowed: random over upper, lower and digits at the maximum length.
        var generator = try PasswordGenerator(rules: try .parse("allowed: upper, lower, digit; maxlength: 16"))
        #expect(generator.format == .random)
        #expect(abs(generator.entropyBits - 16 * log2(62.0)) < 1e-9)
        for _ in 0..<500 {
            let password = generator.next()
            #expect(password.count == 16 && password.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) })
        }
    }

    @Test func appleFormatIsKeptWhenTheRulesAllowIt() throws {
        let generator = try PasswordGenerator(rules: try .parse("required: lower; required: upper; required: digit; required: [-]; minlength: 12; maxlength: 20"))
        #expect(generator.format == .appleStyle)
        for rules in ["maxlength: 19", "minlength: 21", "max-consecutive: 1", "allowed: lower, upper, digit", "required: [!@#]"] {
            #expect(try PasswordGenerator(rules: try .parse(rules)).format == .random, "\(rules)")
        }
    }

    @Test func entropyCountsOnlyPasswordsThatSatisfyTheRules() throws {
        // Length 2 over {a, 1} requiring both: "a1" and "1a" only.
        let generator = try PasswordGenerator(rules: try .parse("required: [a]; required: [1]; maxlength: 2"))
        #expect(generator.entropyBits == 1)
        // Length 3 over {a, b} with no run over 1: "aba", "bab".
        let runs = try PasswordGenerator(rules: try .parse("allowed: [ab]; max-consecutive: 1; maxlength: 3"))
        #expect(runs.entropyBits == 1)
    }

    @Test(arguments: [
        ("minlength: 30; maxlength: 10", "minlength 30 is greater than maxlength 10"),
        ("maxlength: 0", "maxlength: 0 allows no password at all"),
        ("max-consecutive: 0", "max-consecutive: 0 allows no character at all"),
        ("required: [a]; required: [b]; required: [c]; maxlength: 2", "3 required classes cannot all fit in 2 characters"),
        ("allowed: [a]; max-consecutive: 1; minlength: 2; maxlength: 2", "0 required classes cannot all fit in 2 characters with max-consecutive 1"),
    ])
    func unsatisfiableRulesSayWhy(rules: String, reason: String) throws {
        let parsed = try PasswordRules.parse(rules)
        #expect(throws: UnsatisfiableRules(reason: reason)) { try PasswordGenerator(rules: parsed) }
    }

    /// At least 200 passwords for every real-world rule, each passing the validator.
    @Test func conformanceOverTheRealWorldCorpus() throws {
        var generated = 0
        for (domain, text) in try SharedData.passwordRulesCorpus() {
            let rules = try PasswordRules.parse(text)
            var generator = try PasswordGenerator(rules: rules)
            for _ in 0..<200 {
                let password = generator.next()
                let violations = rules.violations(of: password)
                #expect(violations.isEmpty, "\(domain) (\(text)): \(violations)")
                generated += 1
            }
        }
        #expect(generated == 434 * 200)
    }

    @Test func validatorNamesEachBrokenRule() throws {
        let rules = try PasswordRules.parse("required: digit; allowed: lower; max-consecutive: 2; minlength: 6; maxlength: 8")
        #expect(rules.violations(of: "abc1def") == [])
        #expect(rules.violations(of: "ab1").map(\.description) == ["is 3 characters long; minlength is 6"])
        #expect(rules.violations(of: "abcdefgh1").map(\.description) == ["is 9 characters long; maxlength is 8"])
        #expect(rules.violations(of: "abcdef").map(\.description) == ["has no character from the required class digit"])
        #expect(rules.violations(of: "ab1 cd").map(\.description) == ["contains a space, which the rules do not allow"])
        #expect(rules.violations(of: "Abc1de").map(\.description) == ["contains 'A', which the rules do not allow"])
        #expect(rules.violations(of: "aaa1bc").map(\.description) == ["repeats 'a' 3 times in a row; max-consecutive is 2"])
        #expect(rules.violations(of: "ab\u{7}1cd").map(\.description) == ["contains U+0007, which the rules do not allow"])
    }

    @Test func unicodeAllowsAnyCharacter() throws {
        let rules = try PasswordRules.parse("allowed: unicode; minlength: 4")
        #expect(rules.isSatisfied(by: "日本語パス"))
        #expect(!rules.isSatisfied(by: "日本"))
    }
}
