/// The properties the fuzz targets check, kept in the core so that the
/// saved corpora replay through exactly the same code in `make test`.
/// Each returns nil when all is well, else what went wrong.
public enum FuzzChecks {
    /// Any bytes: parsing never crashes; rules that parse print a canonical
    /// form that reads back the same; a generator either refuses the rules or
    /// makes a password that satisfies them.
    public static func passwordRules(_ data: [UInt8]) -> String? {
        let text = String(decoding: data, as: UTF8.self)
        guard let rules = try? PasswordRules.parse(text) else { return nil }
        guard let again = try? PasswordRules.parse(rules.description), again == rules else {
            return "canonical form does not read back: \(rules.description)"
        }
        // Very long rules are legal but slow to generate for; the parser is the target.
        if (rules.maxLength ?? 0) > 256 || rules.required.count > 8 { return nil }
        guard var generator = try? PasswordGenerator(rules: rules) else { return nil }
        let password = generator.next()
        let broken = rules.violations(of: password)
        return broken.isEmpty ? nil : "generated password breaks \(rules.description): \(broken)"
    }
}
