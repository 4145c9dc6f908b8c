import Foundation
import Testing

/// `bulwark generate` and `bulwark rules`, through the real binary.
@Suite struct PasswordCommandTests {
    static var quirks: String {
        URL(fileURLWithPath: Binary.path).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/quirks").path
    }

    @Test func generatePrintsOnePasswordPerLineInApplesFormat() throws {
        let result = try Binary.run(["generate", "--count", "5"])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 5)
        for line in lines {
            #expect(line.count == 20 && line.split(separator: "-").count == 3)
        }
    }

    /// Passphrases, passwords of a length and classes, and PINs, each with its bits on standard error;
    /// a site's rules win and say what they changed; options that do not go together are refused.
    @Test func generateMakesPassphrasesPasswordsAndPINs() throws {
        let phrase = try Binary.run(["generate", "--words", "5", "--separator", " ", "--capitalize", "--count", "3"])
        #expect(phrase.status == 0 && phrase.stderr == "bulwark: 64.6 bits: a passphrase of 5 words from EFF's list of 7,776.\n")
        #expect(phrase.stdout.split(separator: "\n").allSatisfy { $0.split(separator: " ").count == 5 && $0.split(separator: " ").allSatisfy { $0.first!.isUppercase } })
        let password = try Binary.run(["generate", "--length", "16", "--no-symbols", "--rules", "allowed: lower, digit; maxlength: 12"])
        #expect(password.status == 0 && password.stdout.count == 13 && password.stdout.dropLast().allSatisfy { $0.isLowercase || $0.isNumber })
        #expect(password.stderr == "bulwark: the site allows no capitals: none are used.\nbulwark: maxlength: 12 (the site's) made it 12 characters, not 16.\n"
                + "bulwark: 62.0 bits: a password of 12 characters.\n")
        let pin = try Binary.run(["generate", "--pin", "--length", "4", "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(pin.stdout.utf8)) as! [String: Any]
        #expect(object["kind"] as? String == "pin" && object["entropy_bits"] as? Double == 13.3 && object["made"] as? String == "a PIN of 4 digits")
        #expect((object["passwords"] as? [String])?.first?.count == 4 && (object["rules_changed"] as? [String]) == [])
        let mixed = try Binary.run(["generate", "--pin", "--no-symbols"])
        #expect(mixed.status == 2 && mixed.stderr == "bulwark: --pin is digits only: it takes --length, not --no-symbols.\n")
        let none = try Binary.run(["generate", "--no-lower", "--no-upper", "--no-digits", "--no-symbols"])
        #expect(none.status == 2 && none.stderr == "bulwark: every character class is left out: keep at least one of lower-case letters, capitals, digits and symbols.\n")
    }

    @Test func generateJSONReportsEntropyFormatAndCanonicalRules() throws {
        let result = try Binary.run(["generate", "--json", "--rules", "allowed: digit; maxlength: 6", "--count", "2"])
        #expect(result.status == 0)
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [String: Any]
        #expect(object["format"] as? String == "random")
        #expect(object["rules"] as? String == "allowed: digit; maxlength: 6")
        #expect(object["entropy_bits"] as? Double == 19.9)
        #expect((object["passwords"] as? [String])?.allSatisfy { $0.count == 6 && $0.allSatisfy(\.isNumber) } == true)
    }

    @Test func generateForADomainUsesItsQuirksRules() throws {
        let result = try Binary.run(["--quirks", Self.quirks, "generate", "--domain", "www.163.com", "--json"])
        #expect(result.status == 0)
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [String: Any]
        #expect(object["rules"] as? String == "allowed: ascii-printable; minlength: 6; maxlength: 16")
        #expect(object["rules_source"] as? String == "quirks")
        #expect((object["passwords"] as? [String])?.first?.count == 16)
    }

    @Test func badRulesAndBadCountsExitNonZeroWithAReason() throws {
        let bad = try Binary.run(["generate", "--rules", "required: uper"])
        #expect(bad.status == 1)
        #expect(bad.stderr == "bulwark: bad password rules at position 11: unknown character class 'uper' (expected upper, lower, digit, special, ascii-printable, unicode or [...]).\n")
        let impossible = try Binary.run(["generate", "--rules", "minlength: 30; maxlength: 10"])
        #expect(impossible.status == 1)
        #expect(impossible.stderr == "bulwark: no password can satisfy these rules: minlength 30 is greater than maxlength 10.\n")
        let count = try Binary.run(["generate", "--count", "0"])
        #expect(count.status == 2)
        #expect(count.stderr == "bulwark: --count takes a whole number from 1 to 100000, not '0'.\n\n"
                + "Usage: bulwark generate [--words N [--separator S] [--capitalize] [--number] | --length N [--no-lower] [--no-upper] [--no-digits] [--no-symbols] [--avoid-look-alikes] | --pin [--length N]] [--rules RULES | --domain DOMAIN] [--count N] [--json]\n'bulwark help generate' shows its options.\n")
        let both = try Binary.run(["generate", "--rules", "x", "--domain", "y"])
        #expect(both.status == 2)
        let missingQuirks = try Binary.run(["generate", "--domain", "a.example", "--quirks", "/nonexistent"])
        #expect(missingQuirks.status == 1)
        #expect(missingQuirks.stderr == "bulwark: --quirks /nonexistent: cannot read /nonexistent: no such directory\n")
    }

    @Test func rulesShowPrintsTheCanonicalForm() throws {
        let result = try Binary.run(["rules", "show", "required: lower, upper; allowed: [-]]; minlength: 8; minlength: 10"])
        #expect(result.status == 0)
        #expect(result.stdout == "required: upper, lower; allowed: upper, lower, [-]]; minlength: 10\n")
    }

    @Test func rulesCheckSaysWhichRulesBreakWithoutEchoingThePassword() throws {
        let pass = try Binary.run(["rules", "check", "minlength: 8; required: digit; allowed: lower"], stdin: "hunter22x\n")
        #expect(pass.status == 0)
        #expect(pass.stdout == "ok: the password satisfies the rules\n")
        let fail = try Binary.run(["rules", "check", "minlength: 8; required: digit; allowed: lower"], stdin: "hunterX\n")
        #expect(fail.status == 1)
        #expect(fail.stdout == """
        no: the password breaks 3 rules:
          - it is 7 characters long; minlength is 8
          - it contains 'X', which the rules do not allow
          - it has no character from the required class digit

        """)
        #expect(!fail.stdout.contains("hunterX"))
        let usage = try Binary.run(["rules", "check"])
        #expect(usage.status == 2)
    }
}
