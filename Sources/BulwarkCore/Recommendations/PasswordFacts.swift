import Foundation

/// Reuse is judged between passwords, and between PINs, never across.
struct ReuseKey: Hashable, Sendable {
    /// The SHA-1 in three integers: hashing a 20-byte array element by
    /// element is slow at 100k entries.
    let high: UInt64, middle: UInt64, low: UInt32
    let isPIN: Bool

    init(sha1: [UInt8], isPIN: Bool) {
        func word(_ range: Range<Int>) -> UInt64 { sha1[range].reduce(0) { $0 << 8 | UInt64($1) } }
        high = word(0..<8)
        middle = word(8..<16)
        low = UInt32(word(16..<20))
        self.isPIN = isPIN
    }
}

/// The costly, per-password part of an analysis, kept between reports.
struct PasswordFacts: Sendable, Equatable {
    /// What the facts depend on; when these are equal the facts still hold.
    struct Inputs: Sendable, Equatable {
        let password: String
        let accountWords: [String]
        let isPIN: Bool

        init?(_ entry: Entry, _ profile: AccountProfile) {
            self.init(entry, siteWord: profile.siteWord)
        }

        init?(_ entry: Entry, siteWord: String) {
            guard entry.kind.holdsPassword, let password = entry.password, !password.isEmpty else { return nil }
            self.password = password
            isPIN = PINRules.isPIN(entry)
            // Words of letters only: a password containing "jane" or
            // "northwind" is weak for jane at Northwind, and digits in a
            // username add nothing zxcvbn would not find as a sequence or
            // date (each extra word costs every strength estimate time).
            // Only the words that can change the estimate are kept (see
            // AccountWordFilter): accounts sharing a password then share one.
            accountWords = AccountWordFilter.wordsThatCanMatch(password, Self.allAccountWords(entry, siteWord: siteWord))
        }

        static func allAccountWords(_ entry: Entry, _ profile: AccountProfile) -> [String] {
            allAccountWords(entry, siteWord: profile.siteWord)
        }

        /// The username up to its "@" (the first part that is not empty),
        /// the site's name and the title, as words, each once.
        static func allAccountWords(_ entry: Entry, siteWord: String) -> [String] {
            let name = entry.username.utf8
            let start = name.firstIndex { $0 != 0x40 } ?? name.endIndex
            let user = String(entry.username[start..<(name[start...].firstIndex(of: 0x40) ?? name.endIndex)])
            var words: [String] = []
            for text in [user, siteWord, entry.title] {
                for word in letterWords(text) where !words.contains(word) { words.append(word) }
            }
            return words
        }

        /// Runs of three or more letters, lower-cased. ASCII text (nearly
        /// every title and username) is split on bytes: Character's
        /// isLetter is a Unicode table lookup, and this runs 100k times.
        static func letterWords(_ text: String) -> [String] {
            guard text.utf8.allSatisfy({ $0 < 0x80 }) else {
                return text.lowercased().split(whereSeparator: { !$0.isLetter }).filter { $0.count >= 3 }.map(String.init)
            }
            var words: [String] = []
            var run: [UInt8] = []
            func flush() {
                if run.count >= 3 { words.append(String(decoding: run, as: UTF8.self)) }
                run.removeAll(keepingCapacity: true)
            }
            for byte in text.utf8 {
                switch byte {
                case 0x61...0x7A: run.append(byte)
                case 0x41...0x5A: run.append(byte | 0x20)
                default: flush()
                }
            }
            flush()
            return words
        }
    }

    /// (Not the inputs themselves: the analysis keeps facts for every
    /// account, and the inputs can be worked out again from the entry.)
    let reuseKey: ReuseKey
    /// PINs are not looked up: every short PIN is in the big corpora.
    let breach: BreachHit?
    let strength: Strength?
    /// Where the strength is kept in the memo (passwords only).
    let memoKey: StrengthMemo.Key?
    let pinWeakness: PINWeakness?

    func weakness(below bits: Double) -> Warning? {
        if let pinWeakness { return .weak(bits: nil, pattern: pinWeakness.rawValue, why: pinWeakness.reason) }
        return strength.flatMap { Self.weakWarning($0, below: bits) }
    }

    static func weakWarning(_ strength: Strength, below bits: Double) -> Warning? {
        // A floor is only ever kept where it clears the line (see `judge`).
        guard strength.bits < bits else { return nil }
        let pattern = strength.pattern ?? .tooShort
        return .weak(bits: strength.bits, pattern: pattern.rawValue, why: pattern.reason)
    }

    /// The SHA-1 and breach lookup always; the strength from the memo when
    /// it has this password with these account words, else judged now (see
    /// `StrengthMeter.judge`) for the weak line `weakBelow`.
    static func evaluate(_ inputs: Inputs, breaches: BreachCorpus, memo: StrengthMemo, weakBelow: Double) throws -> (facts: PasswordFacts, measured: Bool) {
        evaluate(inputs, looked: try lookUp(inputs, breaches: breaches), memo: memo, weakBelow: weakBelow)
    }

    /// The first half: the SHA-1 and the breach corpora's answer (none for a PIN).
    struct LookedUp: Sendable { let sha1: [UInt8]; let breach: BreachHit? }

    static func lookUp(_ inputs: Inputs, breaches: BreachCorpus) throws -> LookedUp {
        let sha1 = Digest.sha1(Array(inputs.password.utf8))
        return LookedUp(sha1: sha1, breach: inputs.isPIN ? nil : try breaches.lookup(sha1: sha1))
    }

    /// The second half: the strength (remembered, or judged now).
    static func evaluate(_ inputs: Inputs, looked: LookedUp, memo: StrengthMemo, weakBelow: Double) -> (facts: PasswordFacts, measured: Bool) {
        let key = memoKey(inputs)
        let remembered = key.flatMap { memo.strength($0, weakBelow: weakBelow) }
        let strength = key == nil ? nil : remembered ?? StrengthMeter.judge(inputs.password, accountWords: inputs.accountWords, weakBelow: weakBelow)
        return (PasswordFacts(inputs, looked: looked, memoKey: key, strength: strength), key != nil && remembered == nil)
    }

    /// Where a password's estimate is kept in the memo; none for a PIN,
    /// which is judged by its own rules, not zxcvbn.
    static func memoKey(_ inputs: Inputs) -> StrengthMemo.Key? {
        inputs.isPIN ? nil : StrengthMemo.key(password: inputs.password, accountWords: inputs.accountWords)
    }

    /// The facts, given the strength already found (nil for a PIN).
    init(_ inputs: Inputs, looked: LookedUp, memoKey: StrengthMemo.Key?, strength: Strength?) {
        reuseKey = ReuseKey(sha1: looked.sha1, isPIN: inputs.isPIN)
        breach = inputs.isPIN ? nil : looked.breach
        self.strength = inputs.isPIN ? nil : strength
        self.memoKey = inputs.isPIN ? nil : memoKey
        pinWeakness = inputs.isPIN ? PINRules.weakness(of: inputs.password) : nil
    }
}
