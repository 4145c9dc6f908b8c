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
        var generator: PasswordGenerator
        do {
            generator = try PasswordGenerator(rules: rules)
        } catch {
            Output.error("\(error).")
            return 1
        }
        let passwords = (0..<count).map { _ in generator.next() }
        if parsed.flag("--json") {
            Output.json([
                "passwords": passwords,
                "entropy_bits": (generator.entropyBits * 10).rounded() / 10,
                "format": generator.format.rawValue,
                "rules": rules.description,
                "rules_source": source,
            ] as [String: Any])
        } else {
            print(passwords.joined(separator: "\n"))
        }
        return 0
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
