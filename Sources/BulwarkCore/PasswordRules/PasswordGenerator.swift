import Foundation

/// Rules that no password can satisfy, with the reason.
public struct UnsatisfiableRules: Error, Sendable, Equatable, CustomStringConvertible {
    public let reason: String
    public var description: String { "no password can satisfy these rules: \(reason)" }
}

/// Strong passwords from OpenSSL's CSPRNG.
///
/// By default, Apple's format: three groups of six lowercase letters joined
/// by hyphens, each group shaped consonant-vowel-consonant-consonant-vowel-
/// consonant so it can be read and typed, with one letter upper-cased and one
/// group's first or last letter replaced by a digit (`cytxup-Gyszi6-vozzab`).
/// When a service's rules forbid that format, a password drawn uniformly from
/// every string of the longest allowed length that satisfies the rules: the
/// most entropy the rules allow.
public struct PasswordGenerator {
    public enum Format: String, Sendable { case appleStyle = "apple-style", random }

    public let rules: PasswordRules
    public let format: Format
    /// Bits of entropy: log2 of the number of equally likely passwords.
    public let entropyBits: Double
    private let alphabet: [Character]
    /// The passwords' length.
    public let length: Int
    private let acceptance: Double
    private var random = Randomness.secure(SecureRandom())

    /// Where the characters come from: always the CSPRNG, but for a mock
    /// service in a recorded demo (`init(rules:seed:)`, behind an SPI no
    /// product path imports), whose drawings must repeat run after run.
    private enum Randomness {
        case secure(SecureRandom)
        case seeded(SplitMix64)

        mutating func below(_ bound: Int) -> Int {
            switch self {
            case .secure(var source):
                defer { self = .secure(source) }
                return source.below(bound)
            case .seeded(var source):
                defer { self = .seeded(source) }
                return Int.random(in: 0..<bound, using: &source)
            }
        }
        mutating func element<T>(of array: [T]) -> T { array[below(array.count)] }
        mutating func shuffle<T>(_ array: inout [T]) {
            guard array.count > 1 else { return }
            for i in stride(from: array.count - 1, to: 0, by: -1) { array.swapAt(i, below(i + 1)) }
        }
    }

    /// A generator whose passwords repeat for a seed: for a mock service's
    /// own password in a recorded demo, never for a person's password.
    @_spi(MockServices) public init(rules: PasswordRules, seed: UInt64) throws(UnsatisfiableRules) {
        try self.init(rules: rules)
        random = .seeded(SplitMix64(seed: seed))
    }

    static let vowels = Array("aeiouy")
    static let consonants = Array("bcdfghjklmnpqrstvwxz")
    static let appleLength = 20
    /// The longest password bulwark makes when a service allows any length.
    static let longest = 64
    /// The length used when rules rule out Apple's format and set no maximum.
    static let defaultRandomLength = 24

    /// `allowingAppleStyle`: false when a person chose a length and classes (a PIN, a password of their own).
    public init(rules: PasswordRules = PasswordRules(), allowingAppleStyle: Bool = true) throws(UnsatisfiableRules) {
        self.rules = rules
        if let min = rules.minLength, let max = rules.maxLength, min > max {
            throw UnsatisfiableRules(reason: "minlength \(min) is greater than maxlength \(max)")
        }
        if rules.maxLength == 0 {
            throw UnsatisfiableRules(reason: "maxlength: 0 allows no password at all")
        }
        if rules.maxConsecutive == 0 {
            throw UnsatisfiableRules(reason: "max-consecutive: 0 allows no character at all")
        }
        if allowingAppleStyle, PasswordGenerator.allowsAppleStyle(rules) {
            format = .appleStyle
            alphabet = []
            length = PasswordGenerator.appleLength
            acceptance = 1
            // 12 consonant and 6 vowel slots; one edge consonant becomes one of
            // 10 digits in one of 6 edge slots; one of the 17 letters left is upper-cased.
            entropyBits = 11 * log2(20) + 6 * log2(6) + log2(10) + log2(6) + log2(17)
            return
        }
        format = .random
        var letters = rules.allowed.printableSet
        // Leave out the space unless a required class needs it: a space at the
        // end of a password is easy to lose when it is typed or pasted.
        let withoutSpace = letters.subtracting(PrintableSet([" "]))
        if rules.required.allSatisfy({ $0.printableSet.intersects(withoutSpace) }) && !withoutSpace.isEmpty {
            letters = withoutSpace
        }
        alphabet = letters.bytes.map { Character(Unicode.Scalar($0)) }
        let upper = min(rules.maxLength ?? PasswordGenerator.defaultRandomLength, PasswordGenerator.longest)
        length = max(upper, rules.minLength ?? 0, 1)
        if let max = rules.maxLength, length > max {
            throw UnsatisfiableRules(reason: "minlength is greater than maxlength")
        }
        let required = rules.required.map { $0.printableSet.intersection(letters) }
        var fraction = PasswordGenerator.fractionSatisfying(alphabet: letters, required: required, length: length,
                                                            maxConsecutive: rules.maxConsecutive ?? length)
        // Where the number of strings is small enough to count exactly, the
        // count is a whole number: rounding removes the inclusion-exclusion's
        // rounding noise, so an impossible set of rules counts 0, not 1e-17.
        let strings = pow(Double(letters.count), Double(length))
        if strings < 0x1p52 { fraction = (fraction * strings).rounded() / strings }
        // At least one valid string: counted exactly where it can be (one valid
        // string is log2 0, which rounding could put a hair below).
        let atLeastOne = strings < 0x1p52 ? (fraction * strings).rounded() >= 1 : Double(length) * log2(Double(letters.count)) + log2(fraction) >= -1e-9
        guard fraction > 0, atLeastOne else {
            throw UnsatisfiableRules(reason: "\(rules.required.count) required classes cannot all fit in \(length) characters\(rules.maxConsecutive.map { " with max-consecutive \($0)" } ?? "")")
        }
        // log2 of the count of valid strings, without forming the count (95^4096 is no Double).
        entropyBits = max(0, Double(length) * log2(Double(alphabet.count)) + log2(fraction))
        acceptance = fraction
    }

    /// Whether Apple's format satisfies the rules whatever letters are drawn.
    static func allowsAppleStyle(_ rules: PasswordRules) -> Bool {
        if let min = rules.minLength, min > appleLength { return false }
        if let max = rules.maxLength, max < appleLength { return false }
        if let k = rules.maxConsecutive, k < 2 { return false }
        let used = PrintableSet.lower.union(.upper).union(.digit).union(PrintableSet(["-"]))
        guard rules.allowed.isUnicode || rules.allowed.printableSet.isSuperset(of: used) else { return false }
        return rules.required.allSatisfy { set in
            set.isUnicode || set.printableSet.contains("-") || [.lower, .upper, .digit].contains { set.printableSet.isSuperset(of: $0) }
        }
    }

    public mutating func next() -> String {
        switch format {
        case .appleStyle: return nextAppleStyle()
        case .random: return nextRandom()
        }
    }

    private mutating func nextAppleStyle() -> String {
        let pattern: [Bool] = [false, true, false, false, true, false]  // true: vowel
        var slots: [Character] = []
        for _ in 0..<3 {
            for isVowel in pattern {
                slots.append(isVowel ? random.element(of: Self.vowels) : random.element(of: Self.consonants))
            }
        }
        let edges = [0, 5, 6, 11, 12, 17]
        let digitSlot = edges[random.below(edges.count)]
        slots[digitSlot] = Character(String(random.below(10)))
        let letterSlots = (0..<18).filter { $0 != digitSlot }
        let upperSlot = letterSlots[random.below(letterSlots.count)]
        slots[upperSlot] = Character(slots[upperSlot].uppercased())
        return String(slots[0..<6]) + "-" + String(slots[6..<12]) + "-" + String(slots[12..<18])
    }

    /// Uniform over valid passwords by rejection; when valid passwords are
    /// too rare among all strings for that to be quick, one character of each
    /// required class is placed and the rest drawn, then shuffled.
    private mutating func nextRandom() -> String {
        if acceptance > 1e-4 {
            while true {
                let candidate = String((0..<length).map { _ in random.element(of: alphabet) })
                if rules.isSatisfied(by: candidate) { return candidate }
            }
        }
        while true {
            let candidate = String(constructed())
            if rules.isSatisfied(by: candidate) { return candidate }
        }
    }

    /// One character of each required class not yet covered goes to a random
    /// free position; the rest are drawn left to right, skipping characters
    /// that would make a run longer than max-consecutive.
    private mutating func constructed() -> [Character] {
        var slots = [Character?](repeating: nil, count: length)
        var free = Array(0..<length)
        random.shuffle(&free)
        for set in rules.required where !slots.contains(where: { $0.map(set.matches) ?? false }) {
            guard let position = free.popLast() else { break }
            slots[position] = random.element(of: alphabet.filter(set.matches))
        }
        let limit = rules.maxConsecutive ?? length
        for i in 0..<length where slots[i] == nil {
            var choice = random.element(of: alphabet)
            for _ in 0..<32 where runLength(slots, placing: choice, at: i) > limit { choice = random.element(of: alphabet) }
            slots[i] = choice
        }
        return slots.map { $0 ?? " " }
    }

    private func runLength(_ slots: [Character?], placing c: Character, at index: Int) -> Int {
        var run = 1, i = index - 1
        while i >= 0, slots[i] == c { run += 1; i -= 1 }
        i = index + 1
        while i < slots.count, slots[i] == c { run += 1; i += 1 }
        return run
    }

    /// The fraction of the strings of `length` over `alphabet` that contain
    /// a character of every required set and no run longer than
    /// `maxConsecutive`: inclusion and exclusion over the required sets,
    /// each term a share of all strings (so nothing overflows at any length).
    static func fractionSatisfying(alphabet: PrintableSet, required: [PrintableSet], length: Int, maxConsecutive: Int) -> Double {
        let sets = Array(Set(required).prefix(16))
        let all = Double(alphabet.count)
        var total = 0.0
        for mask in 0..<(1 << sets.count) {
            var excluded = PrintableSet()
            for (i, set) in sets.enumerated() where mask & (1 << i) != 0 { excluded.formUnion(set) }
            let symbols = alphabet.subtracting(excluded).count
            let share = symbols == 0 ? 0 : pow(Double(symbols) / all, Double(length))
                * fractionWithoutLongRuns(symbols: symbols, length: length, maxRun: maxConsecutive)
            total += mask.nonzeroBitCount % 2 == 0 ? share : -share
        }
        return max(0, total)
    }

    /// The fraction of the strings of `length` over `symbols` symbols with
    /// no run of one symbol longer than `maxRun`. Linear in `length`: p[i],
    /// the fraction of strings of length i that end where a run ends, is a
    /// weighted sum over the last `maxRun` lengths, kept as a sliding window
    /// (a loop per length was quadratic when no max-consecutive is set).
    static func fractionWithoutLongRuns(symbols: Int, length: Int, maxRun: Int) -> Double {
        guard length > 0 else { return 1 }
        guard symbols > 0 else { return 0 }
        let n = Double(symbols), k = max(1, maxRun)
        var p = [Double](repeating: 0, count: length + 1)
        p[0] = 1
        // q(j): p[j] times the choices for the run that starts after it.
        func q(_ j: Int) -> Double { p[j] * (j == 0 ? n : n - 1) }
        let dropped = pow(n, -Double(k))  // the weight of the term leaving the window
        var window = 0.0  // the sum of q(j) / n^(i-j) for the last k values of j
        for i in 1...length {
            window = (window + q(i - 1) - (i - 1 - k >= 0 ? q(i - 1 - k) * dropped : 0)) / n
            p[i] = window
        }
        return p[length]
    }
}

extension PrintableSet {
    public func intersection(_ other: PrintableSet) -> PrintableSet { subtracting(subtracting(other)) }
}
