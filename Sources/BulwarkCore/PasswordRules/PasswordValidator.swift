import Foundation

/// Which rule a password breaks, in words a person can act on.
public enum RuleViolation: Sendable, Equatable, CustomStringConvertible {
    case tooShort(length: Int, minLength: Int)
    case tooLong(length: Int, maxLength: Int)
    case notAllowed(Character)
    case missingRequired(ClassSet)
    case tooManyConsecutive(Character, run: Int, maxConsecutive: Int)

    public var description: String {
        switch self {
        case .tooShort(let length, let min): "is \(length) characters long; minlength is \(min)"
        case .tooLong(let length, let max): "is \(length) characters long; maxlength is \(max)"
        case .notAllowed(let c): "contains \(RuleViolation.show(c)), which the rules do not allow"
        case .missingRequired(let set): "has no character from the required class \(set)"
        case .tooManyConsecutive(let c, let run, let max):
            "repeats \(RuleViolation.show(c)) \(run) times in a row; max-consecutive is \(max)"
        }
    }

    /// Names the character without printing anything invisible raw.
    static func show(_ c: Character) -> String {
        if c == " " { return "a space" }
        if c.unicodeScalars.allSatisfy({ $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F }) {
            return c.unicodeScalars.map { String(format: "U+%04X", $0.value) }.joined(separator: " ")
        }
        return "'\(c)'"
    }
}

extension PasswordRules {
    /// Every rule the password breaks, in the order the rules are written.
    /// Empty means it satisfies them. Length counts characters (graphemes).
    public func violations(of password: String) -> [RuleViolation] {
        var out: [RuleViolation] = []
        let characters = Array(password)
        if let minLength, characters.count < minLength { out.append(.tooShort(length: characters.count, minLength: minLength)) }
        if let maxLength, characters.count > maxLength { out.append(.tooLong(length: characters.count, maxLength: maxLength)) }
        if let bad = characters.first(where: { !allowed.matches($0) }) { out.append(.notAllowed(bad)) }
        for set in required where !characters.contains(where: set.matches) { out.append(.missingRequired(set)) }
        if let maxConsecutive, let (c, run) = longestRun(characters), run > maxConsecutive {
            out.append(.tooManyConsecutive(c, run: run, maxConsecutive: maxConsecutive))
        }
        return out
    }

    public func isSatisfied(by password: String) -> Bool { violations(of: password).isEmpty }

    private func longestRun(_ characters: [Character]) -> (Character, Int)? {
        guard var last = characters.first else { return nil }
        var best = (last, 1), run = 1
        for c in characters.dropFirst() {
            run = c == last ? run + 1 : 1
            last = c
            if run > best.1 { best = (c, run) }
        }
        return best
    }
}
