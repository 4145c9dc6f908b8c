import Foundation
import Testing
@testable import BulwarkCore

/// Character frequencies of 100k generated passwords, tested with
/// chi-square against uniform. The bound is the 1-in-a-billion critical
/// value (Wilson-Hilferty), so a correct generator never fails in practice
/// (at 1 in 10,000, with six checks a run, it failed once here), and a
/// biased one (a modulo bias of a few percent) fails every time: see the
/// last test.
@Suite struct DistributionTests {
    static func criticalValue(degreesOfFreedom k: Double) -> Double {
        let z = 5.9978  // upper 1e-9 quantile of the standard normal
        let h = 2 / (9 * k)
        return k * pow(1 - h + z * sqrt(h), 3)
    }

    static func chiSquare(_ counts: [Int]) -> Double {
        let total = Double(counts.reduce(0, +))
        let expected = total / Double(counts.count)
        return counts.reduce(0) { $0 + pow(Double($1) - expected, 2) / expected }
    }

    static func frequencies(rules: String, alphabet: [Character], passwords: Int = 100_000,
                            pick: (String) -> [Character] = { Array($0) }) throws -> [Int] {
        var generator = try PasswordGenerator(rules: try PasswordRules.parse(rules))
        var counts = [Character: Int]()
        for _ in 0..<passwords { for c in pick(generator.next()) { counts[c, default: 0] += 1 } }
        #expect(Set(counts.keys).isSubset(of: Set(alphabet)))
        return alphabet.map { counts[$0] ?? 0 }
    }

    @Test(arguments: [
        ("allowed: ascii-printable; maxlength: 12", Array("!\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~")),
        ("allowed: [abc]; maxlength: 8", Array("abc")),
        ("allowed: digit; maxlength: 6", Array("0123456789")),
        ("allowed: lower, [-_]; maxlength: 10", Array("abcdefghijklmnopqrstuvwxyz-_")),
    ])
    func randomFormatIsUniform(rules: String, alphabet: [Character]) throws {
        let counts = try Self.frequencies(rules: rules, alphabet: alphabet)
        let statistic = Self.chiSquare(counts)
        #expect(statistic < Self.criticalValue(degreesOfFreedom: Double(alphabet.count - 1)), "chi-square \(statistic)")
    }

    @Test func appleFormatDigitsAndVowelsAreUniform() throws {
        let digits = try Self.frequencies(rules: "", alphabet: Array("0123456789")) { $0.filter(\.isNumber).map { $0 } }
        #expect(Self.chiSquare(digits) < Self.criticalValue(degreesOfFreedom: 9))
        // The second letter of the last group is always a vowel (lower-cased to ignore the one capital).
        let vowels = try Self.frequencies(rules: "", alphabet: Array("aeiouy")) { [Character(String(Array($0)[15]).lowercased())] }
        #expect(Self.chiSquare(vowels) < Self.criticalValue(degreesOfFreedom: 5))
    }

    @Test func theChiSquareBoundCatchesABiasedSource() {
        // A 3% bias at the sample size of the digit test (600k draws) must fail the same bound.
        var counts = [Int](repeating: 60_000, count: 10)
        counts[0] = 61_800
        counts[9] = 58_200
        #expect(Self.chiSquare(counts) > Self.criticalValue(degreesOfFreedom: 9))
    }
}
