import Foundation

/// A lower bound on libzxcvbn's estimate of a password, in about a tenth of
/// the time the estimate takes.
///
/// libzxcvbn's estimate is the cheapest way to spell the password as a row
/// of parts (dictionary words either way round, the account's own words,
/// keyboard runs, sequences, dates, repeats, and brute force), each part
/// charged what it costs to guess, and every part after the first 1 to 1.75
/// bits more. The floor solves the same shortest path with every part charged
/// no more than libzxcvbn could charge it: a run counts as a word when its
/// stand-in class spelling is a word's (`WordFloorTable`, at the word's own
/// estimate, which its rank bounds from below), as a keyboard run when each
/// key could neighbour the last (`KeyboardNeighbours`), and so on for the
/// rest, by the least each of libzxcvbn's formulas can give. Any part
/// libzxcvbn could find is then allowed here at no more than its cost, so
/// the floor is never above the estimate. A password whose floor clears the
/// weak line is not weak, and zxcvbn need not be asked (see `judge`).
public enum StrengthFloor {
    /// Longer passwords are left to zxcvbn (the work grows with the square).
    static let longestPassword = 64
    /// Kept between the floor and the weak line: the two are worked out in
    /// different orders, so may differ in their last bits.
    static let margin = 0.001

    /// Gives back the memory of the word tables until the next floor (see `WordFloorTable.letGo`).
    public static func letGoOfTables() { WordFloorTable.letGo() }

    /// The floor in bits, or nil where none is worked out: a password that
    /// is empty, longer than `longestPassword`, not ASCII (after its NULs
    /// are dropped, as zxcvbn reads it), or a libzxcvbn other than the one
    /// the word table was made from.
    public static func bits(_ password: String, accountWords: [String] = []) -> Double? {
        guard WordFloorTable.isUsable else { return nil }
        var password = StrengthMeter.withoutNUL(password)
        return password.withUTF8 { bytes in
            guard !bytes.isEmpty, bytes.count <= longestPassword, bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
            let cells = (bytes.count + 1) * (bytes.count + 1)
            return withUnsafeTemporaryAllocation(of: Double.self, capacity: 2 * cells) { costs in
                SpanCosts(bytes: bytes, strict: costs.baseAddress!, relaxed: costs.baseAddress! + cells).cheapestPath(accountWords: accountWords)
            }
        }
    }
}

/// The least any part covering each run of the password could cost, in bits.
///
/// libzxcvbn charges a part that does not start the password 1.75 bits more
/// (1 when it ends the password), but a dictionary word read forwards may be
/// charged 1 wherever it is (its matcher passes on a shortened length as it
/// follows stand-ins), as may a repeat of one: those parts are kept apart.
private struct SpanCosts {
    let bytes: UnsafeBufferPointer<UInt8>
    /// `strict[start * (count + 1) + end]` for the run start..<end; so `relaxed`.
    let strict: UnsafeMutablePointer<Double>
    let relaxed: UnsafeMutablePointer<Double>
    var count: Int { bytes.count }

    init(bytes: UnsafeBufferPointer<UInt8>, strict: UnsafeMutablePointer<Double>, relaxed: UnsafeMutablePointer<Double>) {
        self.bytes = bytes
        self.strict = strict
        self.relaxed = relaxed
        // Brute force: each character at the password's cardinality.
        let perCharacter = log2(Double(Self.cardinality(bytes[...])))
        for start in 0..<bytes.count {
            for end in (start + 1)...bytes.count {
                strict[start * (bytes.count + 1) + end] = Double(end - start) * perCharacter
                relaxed[start * (bytes.count + 1) + end] = .infinity
            }
        }
    }

    @inline(__always)
    func lower(_ start: Int, _ end: Int, to bits: Double, relaxed isRelaxed: Bool = false) {
        let cells = isRelaxed ? relaxed : strict, at = start * (count + 1) + end
        if bits < cells[at] { cells[at] = bits }
    }

    /// The least a part covering start..<end costs, whatever kind it is.
    @inline(__always)
    func costOf(_ start: Int, _ end: Int) -> Double { min(strict[start * (count + 1) + end], relaxed[start * (count + 1) + end]) }

    func cheapestPath(accountWords: [String]) -> Double {
        dictionaryWords()
        StrengthMeter.userDictionary(accountWords).enumerated().forEach { accountWord($1, rank: $0 + 1) }
        keyboardRuns()
        sequences()
        dates()
        repeats()
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: count + 1) { best in
            best[0] = 0
            for end in 1...count {
                best[end] = .infinity
                let strictExtra = end == count ? 1.0 : 1.75
                for start in 0..<end {
                    let at = start * (count + 1) + end
                    let part = start == 0 ? min(strict[at], relaxed[at]) : min(strict[at] + strictExtra, relaxed[at] + 1)
                    if best[start] + part < best[end] { best[end] = best[start] + part }
                }
            }
            return best[count]
        }
    }

    /// Runs spelt as a dictionary word, read forwards, then backwards.
    private func dictionaryWords() {
        let classes = WordFloorTable.classes
        for start in 0..<count {
            var walk = WordFloorTable.Walk()
            for end in (start + 1)...count {
                let (floor, goesOn) = walk.add(classes[Int(bytes[end - 1])])
                if let floor { lower(start, end, to: floor, relaxed: true) }
                if !goesOn { break }
            }
        }
        for end in 1...count {
            var walk = WordFloorTable.Walk()
            for start in stride(from: end - 1, through: 0, by: -1) {
                let (floor, goesOn) = walk.add(classes[Int(bytes[start])])
                if let floor { lower(start, end, to: floor) }
                if !goesOn { break }
            }
        }
    }

    /// The account's own words: libzxcvbn ranks the n-th word n.
    private func accountWord(_ word: String, rank: Int) {
        let letters = Array(word.utf8)
        // A byte outside ASCII matches no byte of an ASCII password.
        guard !letters.isEmpty, letters.count <= count, letters.allSatisfy({ $0 < 0x80 }) else { return }
        let classes = WordFloorTable.classes
        let spelling = letters.map { classes[Int($0)] }
        for start in 0...(count - letters.count) {
            var forwards = true, backwards = true
            for offset in spelling.indices where forwards || backwards {
                if classes[Int(bytes[start + offset])] != spelling[offset] { forwards = false }
                if classes[Int(bytes[start + letters.count - 1 - offset])] != spelling[offset] { backwards = false }
            }
            if forwards || backwards { lower(start, start + letters.count, to: log2(Double(rank))) }
        }
    }

    /// Keyboard runs of three or more: libzxcvbn's formula is least with
    /// one turn, (length - 1) x degree x keys, and degree x keys is least
    /// on the PC number pad (15 keys, degree 8 - 44/15 = 5.07: 76; 75 here,
    /// clear of any rounding).
    private func keyboardRuns() {
        for start in 0..<count {
            var end = start + 1
            while end < count, KeyboardNeighbours.near(bytes[end - 1], bytes[end]) { end += 1 }
            guard end - start >= 3 else { continue }
            for length in 3...(end - start) { lower(start, start + length, to: log2(Double(length - 1) * 75)) }
        }
    }

    /// Runs of three or more letters of one case, or digits, each a step
    /// of at most 5 from the last, the same step all along (digits wrap
    /// round, as libzxcvbn's 0 may stand for ten): least at 1 + log2(length).
    private func sequences() {
        for start in 0..<count where count - start >= 3 {
            guard let kind = Self.sequenceKind(bytes[start]), Self.sequenceKind(bytes[start + 1]) == kind else { continue }
            let step = Self.step(bytes[start], bytes[start + 1], digits: kind == 2)
            guard step != 0, abs(step) <= 5 else { continue }
            var end = start + 2
            while end < count, Self.sequenceKind(bytes[end]) == kind,
                  Self.step(bytes[end - 1], bytes[end], digits: kind == 2) == step { end += 1 }
            guard end - start >= 3 else { continue }
            for length in 3...(end - start) { lower(start, start + length, to: 1 + log2(Double(length))) }
        }
    }

    private static func sequenceKind(_ byte: UInt8) -> Int? {
        switch byte {
        case 0x61...0x7A: 0
        case 0x41...0x5A: 1
        case 0x30...0x39: 2
        default: nil
        }
    }

    private static func step(_ from: UInt8, _ to: UInt8, digits: Bool) -> Int {
        let difference = Int(to) - Int(from)
        // Digits: -4...5 round the ring (so +5 and -5 are one step).
        return digits ? (difference + 14) % 10 - 4 : difference
    }

    /// Dates: four digits can be a year (150 of them); five to ten digits
    /// and separators a day, month and year, at least 31 x 12 x 100.
    private func dates() {
        let year = log2(150.0), date = log2(31.0 * 12 * 100)
        for start in 0..<count {
            var end = start
            while end < count, end - start < 10, Self.isDatePart(bytes[end]) {
                end += 1
                let length = end - start
                if length == 4, bytes[start..<end].allSatisfy({ (0x30...0x39).contains($0) }) { lower(start, end, to: year) }
                if length >= 5 { lower(start, end, to: date) }
            }
        }
    }

    private static func isDatePart(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || "/\\-_. ".utf8.contains(byte)
    }

    /// A run that is one block two or more times over: libzxcvbn charges
    /// what the block costs (as any part, or as brute force over its own
    /// characters) and log2 of the count (kept with the relaxed parts: a
    /// forward word's repeat is charged as the word is).
    private func repeats() {
        for start in 0..<count {
            for length in stride(from: 1, through: (count - start) / 2, by: 1) {
                guard Self.matches(bytes, start, start + length, length) else { continue }
                let block = min(costOf(start, start + length),
                                Double(length) * log2(Double(Self.cardinality(bytes[start..<(start + length)]))))
                var times = 2
                while start + length * times <= count, Self.matches(bytes, start, start + length * (times - 1), length) {
                    lower(start, start + length * times, to: block + log2(Double(times)), relaxed: true)
                    times += 1
                }
            }
        }
    }

    /// Whether the `length` bytes at `other` equal those at `start`.
    private static func matches(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ other: Int, _ length: Int) -> Bool {
        guard other + length <= bytes.count else { return false }
        for offset in 0..<length where bytes[start + offset] != bytes[other + offset] { return false }
        return true
    }

    /// libzxcvbn's: 26 for lower case, 26 upper, 10 digits, 33 anything else.
    static func cardinality(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Int {
        var lower = false, upper = false, digit = false, other = false
        for byte in bytes {
            switch byte {
            case 0x61...0x7A: lower = true
            case 0x41...0x5A: upper = true
            case 0x30...0x39: digit = true
            default: other = true
            }
        }
        return (lower ? 26 : 0) + (upper ? 26 : 0) + (digit ? 10 : 0) + (other ? 33 : 0)
    }
}

extension StrengthMeter {
    /// The strength as the analysis needs it for the weak line `weakBelow`:
    /// the floor when it clears the line (not weak, whatever zxcvbn would
    /// add), else zxcvbn's estimate.
    static func judge(_ password: String, accountWords: [String], weakBelow: Double) -> Strength {
        if let floor = StrengthFloor.bits(password, accountWords: accountWords), floor >= weakBelow + StrengthFloor.margin {
            return Strength(bits: floor, pattern: nil, isFloor: true)
        }
        return measure(password, accountWords: accountWords)
    }
}
