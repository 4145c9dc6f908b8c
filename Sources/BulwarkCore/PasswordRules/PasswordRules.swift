/// One value of a `required` or `allowed` rule.
public enum CharacterClass: Sendable, Hashable {
    case upper, lower, digit, special, asciiPrintable, unicode
    case custom([Character])

    /// The printable characters the class stands for; `unicode` stands for
    /// every character, so it is all of ASCII printable and more.
    public var printableSet: PrintableSet {
        switch self {
        case .upper: .upper
        case .lower: .lower
        case .digit: .digit
        case .special: .special
        case .asciiPrintable, .unicode: .all
        case .custom(let characters): PrintableSet(characters)
        }
    }

    public var description: String {
        switch self {
        case .upper: "upper"
        case .lower: "lower"
        case .digit: "digit"
        case .special: "special"
        case .asciiPrintable: "ascii-printable"
        case .unicode: "unicode"
        case .custom(let characters): "[" + String(characters) + "]"
        }
    }

    /// Whether a character of a password belongs to this class.
    public func matches(_ character: Character) -> Bool {
        switch self {
        case .unicode: true
        default: printableSet.contains(character)
        }
    }
}

/// A set of classes that act together (one `required:` rule, or the union of
/// the `allowed:` ones), kept in canonical form.
public struct ClassSet: Sendable, Hashable, CustomStringConvertible {
    public let classes: [CharacterClass]

    public init(canonicalizing classes: [CharacterClass]) {
        self.classes = ClassSet.canonical(classes)
    }

    public var isUnicode: Bool { classes == [.unicode] }
    public var printableSet: PrintableSet {
        classes.reduce(PrintableSet()) { $0.union($1.printableSet) }
    }

    public func matches(_ character: Character) -> Bool { classes.contains { $0.matches(character) } }

    public var description: String { classes.map(\.description).joined(separator: ", ") }

    /// The reference parser's canonical form: `unicode` or `ascii-printable`
    /// absorb everything; otherwise whole named classes are named, and the
    /// rest are listed in one custom class in code-point order within upper,
    /// lower, digits, then specials, with `-` first and `]` last so that the
    /// class reads back the same (`]` at the end is written `]]`).
    static func canonical(_ classes: [CharacterClass]) -> [CharacterClass] {
        if classes.contains(.unicode) { return [.unicode] }
        if classes.contains(.asciiPrintable) { return [.asciiPrintable] }
        let set = classes.reduce(PrintableSet()) { $0.union($1.printableSet) }
        if set.isSuperset(of: .all) { return [.asciiPrintable] }
        var result: [CharacterClass] = []
        var leftovers: [Character] = []
        for (named, members) in [(CharacterClass.upper, PrintableSet.upper), (.lower, .lower), (.digit, .digit)] {
            if set.isSuperset(of: members) {
                result.append(named)
            } else {
                leftovers += members.bytes.filter(set.contains).map { Character(Unicode.Scalar($0)) }
            }
        }
        if set.isSuperset(of: .special) {
            result.append(.special)
        } else {
            let specials = PrintableSet.special.bytes.filter(set.contains).map { Character(Unicode.Scalar($0)) }
            let hasDash = specials.contains("-"), hasBracket = specials.contains("]")
            let middle = specials.filter { $0 != "-" && $0 != "]" }
            leftovers = (hasDash ? ["-"] : []) + leftovers + middle + (hasBracket ? ["]"] : [])
        }
        if !leftovers.isEmpty { result.append(.custom(leftovers)) }
        return result
    }
}

/// Parsed, canonical password rules. Required classes are also allowed;
/// with no required or allowed rule, ascii-printable is allowed; of several
/// minlengths the largest holds, of several maxlengths and max-consecutives
/// the smallest.
public struct PasswordRules: Sendable, Hashable, CustomStringConvertible {
    /// The largest length or run a rule may name: no real rule comes near
    /// it (the largest in Apple's quirks is 225), and it keeps the work of
    /// generating and counting passwords small for any input.
    public static let maximumLength = 4096

    public var required: [ClassSet]
    public var allowed: ClassSet
    public var maxConsecutive: Int?
    public var minLength: Int?
    public var maxLength: Int?

    public init(required: [ClassSet] = [], allowed: ClassSet = ClassSet(canonicalizing: [.asciiPrintable]),
                maxConsecutive: Int? = nil, minLength: Int? = nil, maxLength: Int? = nil) {
        self.required = required
        self.allowed = allowed
        self.maxConsecutive = maxConsecutive
        self.minLength = minLength
        self.maxLength = maxLength
    }

    /// The canonical text, in the reference parser's order:
    /// `required: …; allowed: …; max-consecutive: N; minlength: N; maxlength: N`.
    public var description: String {
        var parts = required.map { "required: \($0)" }
        parts.append("allowed: \(allowed)")
        if let maxConsecutive { parts.append("max-consecutive: \(maxConsecutive)") }
        if let minLength { parts.append("minlength: \(minLength)") }
        if let maxLength { parts.append("maxlength: \(maxLength)") }
        return parts.joined(separator: "; ")
    }

    public static func parse(_ text: String) throws(PasswordRulesError) -> PasswordRules {
        try PasswordRulesParser.parse(text)
    }
}
