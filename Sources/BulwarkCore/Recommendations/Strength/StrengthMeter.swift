import CZxcvbn
import Foundation

/// What makes a password guessable, as zxcvbn finds it.
public enum WeakPattern: String, Sendable, Equatable, CaseIterable {
    case commonPassword = "common-password"
    case dictionaryWord = "dictionary-word"
    case substitutedWord = "substituted-word"
    case containsAccountName = "contains-account-name"
    case sequence
    case keyboardPattern = "keyboard-pattern"
    case repeats
    case date
    case tooShort = "too-short"

    /// Plain language, and never the password or any part of it.
    public var reason: String {
        switch self {
        case .commonPassword: "it is one of the most common passwords"
        case .dictionaryWord: "it is mostly a dictionary word or name"
        case .substitutedWord: "it is a dictionary word with predictable substitutions (like 0 for o)"
        case .containsAccountName: "it contains the account's username or the site's name"
        case .sequence: "it is mostly a sequence (like abc or 1234)"
        case .keyboardPattern: "it is mostly a keyboard pattern (like qwerty)"
        case .repeats: "it repeats characters or a pattern"
        case .date: "it is mostly a date or a year"
        case .tooShort: "it is too short"
        }
    }
}

/// A password's estimated strength.
public struct Strength: Sendable, Equatable {
    public let bits: Double
    /// The pattern covering most of the password, when one does.
    public let pattern: WeakPattern?
    /// Whether `bits` is only a floor under zxcvbn's estimate (see
    /// `StrengthFloor`): enough to know the password is not weak at a line
    /// below it, and nothing more.
    public let isFloor: Bool

    public init(bits: Double, pattern: WeakPattern?, isFloor: Bool = false) {
        self.bits = bits
        self.pattern = pattern
        self.isFloor = isFloor
    }
}

/// libzxcvbn's entropy estimate, with the account's username and the site's
/// name as a user dictionary, so "alice1990" for alice is judged weak.
public enum StrengthMeter {
    public static func measure(_ password: String, accountWords: [String] = []) -> Strength {
        // zxcvbn reads C strings: a NUL would cut the password short. (No
        // Foundation here: its string search takes locks, and this runs on
        // every core at once.)
        let password = withoutNUL(password)
        let words = userDictionary(accountWords)
        var info: UnsafeMutablePointer<ZxcMatch_t>?
        let bits = withCStringArray(words) { dictionary in ZxcvbnMatch(password, dictionary, &info) }
        defer { ZxcvbnFreeInfo(info) }
        var matches: [(type: UInt32, begin: Int, length: Int)] = []
        var node = info
        while let match = node {
            matches.append((match.pointee.Type.rawValue, Int(match.pointee.Begin), Int(match.pointee.Length)))
            node = match.pointee.Next
        }
        return Strength(bits: bits, pattern: pattern(of: matches, length: password.utf8.count))
    }

    /// The account's words as zxcvbn is given them: lower-cased, three
    /// letters or more (the n-th of these libzxcvbn ranks n).
    static func userDictionary(_ accountWords: [String]) -> [String] {
        accountWords.map { $0.lowercased() }.filter { $0.count >= 3 }
    }

    /// The password as zxcvbn reads it: a C string, so without NULs (each
    /// would cut it short).
    static func withoutNUL(_ password: String) -> String {
        password.utf8.contains(0) ? String(password.unicodeScalars.filter { $0 != "\0" }.map(Character.init)) : password
    }

    /// The pattern of the longest non-brute-force match; when none covers a
    /// third of the password, a short password is "too short".
    static func pattern(of matches: [(type: UInt32, begin: Int, length: Int)], length: Int) -> WeakPattern? {
        let ranked = matches.compactMap { match -> (WeakPattern, Int)? in
            let base = match.type & ~UInt32(MULTIPLE_MATCH.rawValue)
            let whole = match.begin == 0 && match.length >= length
            // zxcvbn flags a part made of a repeated block as MULTIPLE.
            if match.type & UInt32(MULTIPLE_MATCH.rawValue) != 0 { return (.repeats, match.length) }
            let kind: WeakPattern? = switch base {
            case DICTIONARY_MATCH.rawValue: whole ? .commonPassword : .dictionaryWord
            case DICT_LEET_MATCH.rawValue: .substitutedWord
            case USER_MATCH.rawValue, USER_LEET_MATCH.rawValue: .containsAccountName
            case REPEATS_MATCH.rawValue: .repeats
            case SEQUENCE_MATCH.rawValue: .sequence
            case SPATIAL_MATCH.rawValue: .keyboardPattern
            case DATE_MATCH.rawValue, YEAR_MATCH.rawValue: .date
            default: nil
            }
            return kind.map { ($0, match.length) }
        }
        // The account's own name is named first: it is the most specific advice.
        if let own = ranked.first(where: { $0.0 == .containsAccountName }) { return own.0 }
        if let longest = ranked.max(by: { $0.1 < $1.1 }), longest.1 * 3 >= length { return longest.0 }
        return length < 10 ? .tooShort : ranked.max(by: { $0.1 < $1.1 })?.0
    }

    private static func withCStringArray<R>(_ strings: [String], _ body: (UnsafeMutablePointer<UnsafePointer<CChar>?>) -> R) -> R {
        let copies = strings.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        var pointers: [UnsafePointer<CChar>?] = copies.map { UnsafePointer($0) } + [nil]
        return pointers.withUnsafeMutableBufferPointer { body($0.baseAddress!) }
    }
}
