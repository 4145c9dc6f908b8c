/// Why a passwordrules string could not be read. `position` counts
/// characters from 1, as an editor's column does.
public struct PasswordRulesError: Error, Sendable, Equatable, CustomStringConvertible {
    public let position: Int
    public let message: String

    public var description: String { "at position \(position): \(message)" }
}

/// A parser for Apple's passwordrules language
/// (`required: upper; allowed: lower, [-_]; minlength: 8; max-consecutive: 2`).
/// Stricter than the reference parser where it would silently drop text: an
/// unknown rule, an unclosed class or stray text is an error with a position.
enum PasswordRulesParser {
    private static let ruleNames: Set<String> = ["required", "allowed", "max-consecutive", "minlength", "maxlength"]
    private static let classNames: [String: CharacterClass] = [
        "upper": .upper, "lower": .lower, "digit": .digit, "special": .special,
        "ascii-printable": .asciiPrintable, "unicode": .unicode,
    ]

    private struct Cursor {
        let characters: [Character]
        var index = 0

        var atEnd: Bool { index >= characters.count }
        var current: Character? { atEnd ? nil : characters[index] }
        var position: Int { index + 1 }

        mutating func skipWhitespace() {
            while let c = current, c == " " || c == "\t" || c == "\n" || c == "\r" || c == "\u{0C}" { index += 1 }
        }

        mutating func identifier() -> String {
            var out = ""
            while let c = current, c.isASCII, c.isLetter || c == "-" {
                out.append(c)
                index += 1
            }
            return out
        }

        func fail(_ message: String, at index: Int? = nil) -> PasswordRulesError {
            PasswordRulesError(position: (index ?? self.index) + 1, message: message)
        }
    }

    static func parse(_ text: String) throws(PasswordRulesError) -> PasswordRules {
        // Code points, not graphemes: "\r\n" is one Swift Character but two
        // whitespace characters to the language, as in the reference parser.
        var cursor = Cursor(characters: text.unicodeScalars.map(Character.init))
        var required: [ClassSet] = []
        var allowed: [CharacterClass] = []
        var maxConsecutive: Int?, minLength: Int?, maxLength: Int?
        cursor.skipWhitespace()
        while !cursor.atEnd {
            let start = cursor.index
            let name = cursor.identifier()
            guard !name.isEmpty else { throw cursor.fail("expected a rule name, found '\(cursor.current!)'") }
            guard ruleNames.contains(name) else {
                throw cursor.fail("unknown rule '\(name)' (expected required, allowed, max-consecutive, minlength or maxlength)", at: start)
            }
            guard cursor.current == ":" else {
                throw cursor.fail(cursor.atEnd ? "expected ':' after '\(name)', found the end" : "expected ':' after '\(name)'")
            }
            cursor.index += 1
            cursor.skipWhitespace()
            // An empty value (`minlength: ;`) is ignored, as the reference parser does.
            if !cursor.atEnd && cursor.current != ";" {
                switch name {
                case "required", "allowed":
                    let classes = try parseClasses(&cursor)
                    if !classes.isEmpty {
                        if name == "required" { required.append(ClassSet(canonicalizing: classes)) }
                        allowed += classes
                    }
                case "max-consecutive":
                    let n = try parseInteger(&cursor, rule: name)
                    maxConsecutive = min(maxConsecutive ?? n, n)
                case "minlength":
                    let n = try parseInteger(&cursor, rule: name)
                    minLength = max(minLength ?? 0, n)
                default:
                    let n = try parseInteger(&cursor, rule: name)
                    maxLength = min(maxLength ?? n, n)
                }
            }
            cursor.skipWhitespace()
            if cursor.atEnd { break }
            guard cursor.current == ";" else { throw cursor.fail("expected ';' between rules, found '\(cursor.current!)'") }
            cursor.index += 1
            cursor.skipWhitespace()
        }
        for set in required { allowed += set.classes }
        return PasswordRules(
            required: required,
            allowed: ClassSet(canonicalizing: allowed.isEmpty ? [.asciiPrintable] : allowed),
            maxConsecutive: maxConsecutive,
            minLength: minLength.flatMap { $0 > 0 ? $0 : nil },
            maxLength: maxLength)
    }

    private static func parseClasses(_ cursor: inout Cursor) throws(PasswordRulesError) -> [CharacterClass] {
        var classes: [CharacterClass] = []
        while true {
            let start = cursor.index
            if cursor.current == "[" {
                let custom = try parseCustomClass(&cursor)
                if !custom.isEmpty { classes.append(.custom(custom)) }
            } else {
                let word = cursor.identifier()
                guard !word.isEmpty else {
                    throw cursor.fail(cursor.atEnd ? "expected a character class, found the end" : "expected a character class, found '\(cursor.current!)'")
                }
                guard let named = classNames[word.lowercased()] else {
                    throw cursor.fail("unknown character class '\(word)' (expected upper, lower, digit, special, ascii-printable, unicode or [...])", at: start)
                }
                classes.append(named)
            }
            cursor.skipWhitespace()
            if cursor.atEnd || cursor.current == ";" { return classes }
            guard cursor.current == "," else { throw cursor.fail("expected ',' or ';' after a character class, found '\(cursor.current!)'") }
            cursor.index += 1
            cursor.skipWhitespace()
            if cursor.atEnd { throw cursor.fail("expected a character class after ',', found the end") }
        }
    }

    /// `[...]`: printable ASCII only (anything else is ignored), a `-` only
    /// as the first character (elsewhere ignored), and a literal `]` only as
    /// `]]` at the end.
    private static func parseCustomClass(_ cursor: inout Cursor) throws(PasswordRulesError) -> [Character] {
        let open = cursor.index
        cursor.index += 1
        var members: [Character] = []
        var first = true
        while let c = cursor.current {
            if c == "]" {
                cursor.index += 1
                if cursor.current == "]" {
                    members.append("]")
                    cursor.index += 1
                }
                return members
            }
            defer { cursor.index += 1 }
            guard let byte = c.asciiValue, PrintableSet.isPrintable(byte) else { continue }
            if c == "-" && !first { continue }
            first = false
            members.append(c)
        }
        throw cursor.fail("character class opened here is never closed with ']'", at: open)
    }

    private static func parseInteger(_ cursor: inout Cursor, rule: String) throws(PasswordRulesError) -> Int {
        let start = cursor.index
        var digits = ""
        while let c = cursor.current, c.isASCII, c.isNumber {
            digits.append(c)
            cursor.index += 1
        }
        guard !digits.isEmpty else { throw cursor.fail("\(rule) needs a whole number, found '\(cursor.current!)'") }
        guard digits.count <= 9, let n = Int(digits), n <= PasswordRules.maximumLength else {
            throw cursor.fail("\(rule) value \(digits) is over bulwark's maximum of \(PasswordRules.maximumLength)", at: start)
        }
        cursor.skipWhitespace()
        if let c = cursor.current, c != ";" { throw cursor.fail("\(rule) needs a whole number, found '\(c)' after \(digits)") }
        return n
    }
}
