import Testing
@testable import BulwarkCore

/// Canonical forms worked out by hand from the reference parser's rules:
/// required classes are also allowed; no required or allowed means
/// ascii-printable; the largest minlength, the smallest maxlength and
/// max-consecutive win; whole named classes are named, the rest listed in
/// one custom class (upper, lower, digits, then specials; `-` first, `]` last).
@Suite struct PasswordRulesParserTests {
    @Test(arguments: [
        ("required: upper; required: lower", "required: upper; required: lower; allowed: upper, lower"),
        ("", "allowed: ascii-printable"),
        ("minlength: 8; minlength: 12; maxlength: 20; maxlength: 16", "allowed: ascii-printable; minlength: 12; maxlength: 16"),
        ("max-consecutive: 3; max-consecutive: 2", "allowed: ascii-printable; max-consecutive: 2"),
        ("allowed: [abc]; allowed: [cde]", "allowed: [abcde]"),
        ("allowed: [-abc]", "allowed: [-abc]"),
        ("allowed: [a-c]", "allowed: [ac]"),
        ("allowed: [abc]]", "allowed: [abc]]"),
        ("allowed: []]", "allowed: []]"),
        ("allowed: []", "allowed: ascii-printable"),
        ("required: [ ]", "required: [ ]; allowed: [ ]"),
        ("allowed: [\"']", "allowed: [\"']"),
        ("allowed: ['\"]", "allowed: [\"']"),
        ("allowed: [ABCDEFGHIJKLMNOPQRSTUVWXYZ]", "allowed: upper"),
        ("allowed: upper, [A]", "allowed: upper"),
        ("allowed: lower, [A-]", "allowed: lower, [A]"),
        ("allowed: digit, [-_]", "allowed: digit, [-_]"),
        ("allowed: [_-]", "allowed: [_]"),
        ("allowed: upper, lower, digit, special", "allowed: ascii-printable"),
        ("allowed: upper, lower, digit, [- !\"#$%&'()*+,./:;<=>?@[\\^_`{|}~]]", "allowed: ascii-printable"),
        ("required: unicode; allowed: lower", "required: unicode; allowed: unicode"),
        ("required: ascii-printable", "required: ascii-printable; allowed: ascii-printable"),
        ("required: UPPER, Digit", "required: upper, digit; allowed: upper, digit"),
        ("minlength: 8 ; maxlength: 12 ;", "allowed: ascii-printable; minlength: 8; maxlength: 12"),
        ("minlength: 0", "allowed: ascii-printable"),
        ("minlength: ;", "allowed: ascii-printable"),
        ("allowed: [ \u{e9}a]", "allowed: [a ]"),
        ("allowed: [\u{7F}]", "allowed: ascii-printable"),
        ("required: [-]; required: [-]", "required: [-]; required: [-]; allowed: [-]"),
        ("required: lower, upper; allowed: [-]; required: digit", "required: upper, lower; required: digit; allowed: upper, lower, digit, [-]"),
        ("allowed: [ZYXa9]", "allowed: [XYZa9]"),
        ("allowed: lower, [-]]", "allowed: lower, [-]]"),
        ("allowed: special, [a]", "allowed: special, [a]"),
        ("\n\trequired:\tdigit\r\n", "required: digit; allowed: digit"),
        ("maxlength: 0", "allowed: ascii-printable; maxlength: 0"),
    ])
    func canonicalForm(input: String, expected: String) throws {
        let rules = try PasswordRules.parse(input)
        #expect(rules.description == expected)
        // The canonical form reads back to the same rules.
        #expect(try PasswordRules.parse(rules.description) == rules)
    }

    @Test(arguments: [
        ("REQUIRED: upper", 1, "unknown rule 'REQUIRED' (expected required, allowed, max-consecutive, minlength or maxlength)"),
        ("  required :upper", 11, "expected ':' after 'required'"),
        ("required: upper;;", 17, "expected a rule name, found ';'"),
        ("minlength: 8x", 13, "minlength needs a whole number, found 'x' after 8"),
        ("allowed: [abc", 10, "character class opened here is never closed with ']'"),
        ("required: digit, ; ", 18, "expected a character class, found ';'"),
        ("required: digit,", 17, "expected a character class after ',', found the end"),
        ("required: uper", 11, "unknown character class 'uper' (expected upper, lower, digit, special, ascii-printable, unicode or [...])"),
        ("minlength: eight", 12, "minlength needs a whole number, found 'e'"),
        ("minlength: 99999999999", 12, "minlength value 99999999999 is over bulwark's maximum of 4096"),
        ("required: upper lower", 17, "expected ',' or ';' after a character class, found 'l'"),
        ("minlength", 10, "expected ':' after 'minlength', found the end"),
        ("8", 1, "expected a rule name, found '8'"),
    ])
    func malformedRulesNameThePosition(input: String, position: Int, message: String) {
        #expect(throws: PasswordRulesError(position: position, message: message)) { try PasswordRules.parse(input) }
    }

    @Test func everyRuleInTheRealWorldCorpusParses() throws {
        let corpus = try SharedData.passwordRulesCorpus()
        #expect(corpus.count == 434)
        for (domain, text) in corpus {
            #expect(throws: Never.self, "\(domain): \(text)") { try PasswordRules.parse(text) }
        }
    }
}
