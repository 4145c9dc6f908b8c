import BulwarkAssets
import Foundation

/// Passphrases from EFF's large word list (Assets/wordlists, 7,776 words,
/// CC BY 3.0 US): words drawn uniformly from OpenSSL's CSPRNG, joined by a
/// separator, each capitalised on request, one digit after one word on
/// request. A site's rules change what they must (a capital, a digit, a
/// separator it allows) and the rest is drawn again until it fits.
struct Passphrase {
    /// The list, in its dice order: each line is five dice and a word.
    static let list: [String] = {
        guard let data = Assets.data("wordlists/eff_large_wordlist.txt") else { return [] }
        return String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).compactMap { line in
            line.split(separator: "\t").last.map(String.init)
        }
    }()

    let count: Int
    let separator: String
    let capitalize: Bool
    let number: Bool
    let rules: PasswordRules?
    let entropyBits: Double
    private var random = SecureRandom()

    /// Nil when the site's rules leave no passphrase (letters not allowed, or too short a maximum).
    init?(choice: GeneratorChoice, site: PasswordRules?, notes: inout [String]) throws(UnsatisfiableRules) {
        var separator = choice.separator, capitalize = choice.capitalize, number = choice.number
        let count = choice.words
        if let site, !site.allowed.isUnicode {
            let allowed = site.allowed.printableSet
            guard allowed.isSuperset(of: .lower), !capitalize || allowed.isSuperset(of: .upper) else {
                notes.append("the site does not allow the words' letters: a password instead")
                return nil
            }
            if !separator.isEmpty, !separator.allSatisfy(allowed.contains) {
                let other = ["-", " ", "_", ".", ""].first { $0.allSatisfy(allowed.contains) } ?? ""
                notes.append("the site does not allow \"\(separator)\": the words are joined by \(other.isEmpty ? "nothing" : "\"\(other)\"")")
                separator = other
            }
            for required in site.required where !required.isUnicode {
                let needed = required.printableSet
                if needed.intersects(.lower) { continue }  // every word has lower-case letters
                if needed.intersects(.upper) {
                    guard allowed.isSuperset(of: .upper) else { return nil }
                    if !capitalize { notes.append("the site requires \(required): each word starts with a capital") }
                    capitalize = true
                } else if needed.intersects(.digit) {
                    guard allowed.intersects(.digit) else { return nil }
                    if !number { notes.append("the site requires \(required): a digit follows one word") }
                    number = true
                } else if !separator.contains(where: needed.contains) {
                    guard let symbol = needed.intersection(allowed).characters.first.map(String.init) else { return nil }
                    notes.append("the site requires \(required): the words are joined by \"\(symbol)\"")
                    separator = symbol
                }
            }
        }
        if let site {
            // EFF's words are 3 to 9 letters, 7 on average: a maximum under 5 a word would
            // turn most passphrases away (drawing again would take long), one over 9 a word none.
            let joins = separator.count * (count - 1) + (number ? 1 : 0)
            if let max = site.maxLength, max < 5 * count + joins {
                notes.append("maxlength: \(max) (the site's) leaves no room for \(count) words: a password instead")
                return nil
            }
            if let min = site.minLength, min > 9 * count + joins {
                notes.append("minlength: \(min) (the site's) is longer than \(count) words can be: a password instead")
                return nil
            }
            if site.minLength != nil || site.maxLength != nil || site.maxConsecutive != nil {
                notes.append("a passphrase that breaks the site's length or max-consecutive rule is drawn again")
            }
        }
        guard Self.list.count == 7776 else { throw UnsatisfiableRules(reason: "the word list is missing from this build") }
        self.count = count
        self.separator = separator
        self.capitalize = capitalize
        self.number = number
        self.rules = site
        entropyBits = Double(count) * log2(7776) + (number ? log2(10) + log2(Double(count)) : 0)
    }

    mutating func next() -> String {
        while true {
            var words = (0..<count).map { _ in Self.list[random.below(Self.list.count)] }
            if capitalize { words = words.map { $0.prefix(1).uppercased() + $0.dropFirst() } }
            if number {
                let at = random.below(count)
                words[at] += String(random.below(10))
            }
            let candidate = words.joined(separator: separator)
            if rules?.isSatisfied(by: candidate) ?? true { return candidate }
        }
    }
}
