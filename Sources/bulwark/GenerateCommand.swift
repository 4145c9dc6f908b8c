import BulwarkCore
import BulwarkUpgrades
import Foundation

enum GenerateCommand {
    static func run(_ parsed: ParsedCommandLine) -> Int32 {
        if parsed.flag("--rules") && parsed.flag("--domain") {
            Output.error("give --rules or --domain, not both.")
            return 2
        }
        let count = parsed.number("--count") ?? 1
        var rulesText: String?
        var source = "default"
        if let domain = parsed.value("--domain") {
            let quirks: QuirksDirectory?
            switch Output.loadQuirks(parsed) {
            case .success(let loaded): quirks = loaded
            case .failure(let exit): return exit.code
            }
            let catalog: ServiceCatalog
            switch ServiceWiring.catalog(parsed) {
            case .success(let loaded): catalog = loaded
            case .failure(let exit): return exit.code
            }
            if let found = SiteRequirements(quirks: quirks, services: catalog).passwordRules(for: domain) {
                rulesText = found.rules
                source = found.source.rawValue
            }
        } else if let rules = parsed.value("--rules") {
            rulesText = rules
            source = "given"
        }
        let rules: PasswordRules
        do {
            rules = try rulesText.map { text throws(PasswordRulesError) in try PasswordRules.parse(text) } ?? PasswordRules()
        } catch {
            Output.error("bad password rules \(error).")
            return 1
        }
        let choice: GeneratorChoice
        switch Self.choice(parsed) {
        case .success(let made): choice = made
        case .failure(let bad):
            Output.error(bad.message)
            return 2
        }
        var generator: SecretGenerator
        do {
            generator = try SecretGenerator(choice: choice, siteRules: rulesText == nil ? nil : rules)
        } catch {
            Output.error("\(error).")
            return 1
        }
        let secrets = (0..<count).map { _ in generator.next() }
        if parsed.flag("--json") {
            Output.json([
                "passwords": secrets,
                "entropy_bits": (generator.entropyBits * 10).rounded() / 10,
                "kind": choice.kind.rawValue,
                "made": generator.summary,
                "format": choice.kind == .apple && generator.summary == "a password in Apple's format" ? "apple-style" : "random",
                "rules": rules.description,
                "rules_source": source,
                "rules_changed": generator.notes,
            ] as [String: Any])
        } else {
            print(secrets.joined(separator: "\n"))
            for note in generator.notes { Output.error(note + ".") }
            Output.error("\(String(format: "%.1f", generator.entropyBits)) bits: \(generator.summary).")
        }
        return 0
    }

    /// The person's choice from the options, or why the options do not fit together.
    struct BadChoice: Error { let message: String }

    static func choice(_ parsed: ParsedCommandLine) -> Result<GeneratorChoice, BadChoice> {
        var choice = GeneratorChoice()
        let passwordFlags = ["--no-lower", "--no-upper", "--no-digits", "--no-symbols", "--avoid-look-alikes"].filter(parsed.flag)
        let passphraseFlags = ["--separator", "--capitalize", "--number"].filter { parsed.flag($0) }
        if parsed.flag("--pin") {
            guard !parsed.flag("--words"), passwordFlags.isEmpty, passphraseFlags.isEmpty else {
                return .failure(BadChoice(message: "--pin is digits only: it takes --length, not \(Commands.list(passwordFlags + passphraseFlags + (parsed.flag("--words") ? ["--words"] : [])))."))
            }
            choice.kind = .pin
            if let length = parsed.number("--length") {
                guard GeneratorChoice.pinLengths.contains(length) else { return .failure(BadChoice(message: "--length takes 4 to 12 digits for a PIN, not \(length).")) }
                choice.pinLength = length
            }
            return .success(choice)
        }
        if let words = parsed.number("--words") {
            guard passwordFlags.isEmpty, parsed.number("--length") == nil else {
                return .failure(BadChoice(message: "a passphrase (--words) has no length or character classes: leave out \(Commands.list(passwordFlags + (parsed.number("--length") == nil ? [] : ["--length"])))."))
            }
            choice.kind = .passphrase
            choice.words = words
            if let separator = parsed.value("--separator") {
                guard separator.count <= 3, separator.allSatisfy({ $0.isASCII && !$0.isLetter && !$0.isNewline && $0 != "\t" }) else {
                    return .failure(BadChoice(message: "--separator takes up to 3 characters that are not letters, not '\(TerminalText.visible(separator))'."))
                }
                choice.separator = separator
            }
            choice.capitalize = parsed.flag("--capitalize")
            choice.number = parsed.flag("--number")
            return .success(choice)
        }
        guard passphraseFlags.isEmpty else { return .failure(BadChoice(message: "\(Commands.list(passphraseFlags)) \(passphraseFlags.count == 1 ? "is" : "are") for a passphrase: give --words N.")) }
        guard parsed.number("--length") != nil || !passwordFlags.isEmpty else { return .success(choice) }
        choice.kind = .password
        if let length = parsed.number("--length") {
            guard GeneratorChoice.lengths.contains(length) else { return .failure(BadChoice(message: "--length takes 8 to 128 characters for a password, not \(length).")) }
            choice.length = length
        }
        choice.lower = !parsed.flag("--no-lower")
        choice.upper = !parsed.flag("--no-upper")
        choice.digits = !parsed.flag("--no-digits")
        choice.symbols = !parsed.flag("--no-symbols")
        choice.avoidLookAlikes = parsed.flag("--avoid-look-alikes")
        guard choice.lower || choice.upper || choice.digits || choice.symbols else {
            return .failure(BadChoice(message: "every character class is left out: keep at least one of lower-case letters, capitals, digits and symbols."))
        }
        return .success(choice)
    }
}

enum RulesCommand {
    static func run(_ parsed: ParsedCommandLine) -> Int32 {
        let args = parsed.arguments
        switch args.first {
        case "show" where args.count == 2:
            do {
                print(try PasswordRules.parse(args[1]).description)
                return 0
            } catch {
                Output.error("bad password rules \(error).")
                return 1
            }
        case "check" where args.count == 3:
            Output.error(SecretArgument.refused("a PASSWORD argument", safe: "'bulwark rules check RULES' with the password on standard input").message)
            return 2
        case "check" where args.count == 2:
            let rules: PasswordRules
            do {
                rules = try PasswordRules.parse(args[1])
            } catch {
                Output.error("bad password rules \(error).")
                return 1
            }
            let password: String
            do { password = try SecretArgument.input(parsed).next(prompt: "Password to check") } catch {
                Output.error("\(error)")
                return 1
            }
            let violations = rules.violations(of: password)
            if violations.isEmpty {
                print("ok: the password satisfies the rules")
                return 0
            }
            // The password itself is never echoed back.
            print("no: the password breaks \(violations.count == 1 ? "a rule" : "\(violations.count) rules"):")
            for violation in violations { print("  - it \(violation)") }
            return 1
        default:
            Output.error("usage: bulwark rules check RULES (the password on standard input) | bulwark rules show RULES")
            return 2
        }
    }
}
