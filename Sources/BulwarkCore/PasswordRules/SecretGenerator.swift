import BulwarkAssets
import Foundation

/// A person's choice (`GeneratorChoice`) made into secrets, with a site's
/// passwordrules winning over any choice that breaks them: what each rule
/// changed is said (`notes`). The bits are log2 of the number of equally
/// likely secrets the generator can make.
public struct SecretGenerator {
    public let choice: GeneratorChoice
    /// What the site's rules changed, one sentence each ("maxlength: 16 made the length 16, not 20").
    public let notes: [String]
    public let entropyBits: Double
    /// What is made: "a password of 20 characters", "a passphrase of 6 words from EFF's list of 7,776".
    public let summary: String
    private var source: Source

    private enum Source {
        case rules(PasswordGenerator)
        case words(Passphrase)
    }

    public init(choice: GeneratorChoice = GeneratorChoice(), siteRules: PasswordRules? = nil) throws(UnsatisfiableRules) {
        self.choice = choice
        var notes: [String] = []
        switch choice.kind {
        case .apple:
            let generator = try PasswordGenerator(rules: siteRules ?? PasswordRules())
            if generator.format == .random { notes.append("the site's rules rule out Apple's format: a random password of \(generator.length) characters") }
            source = .rules(generator)
            entropyBits = generator.entropyBits
            summary = generator.format == .appleStyle ? "a password in Apple's format" : "a password of \(generator.length) characters"
        case .password, .pin:
            let (rules, length) = try Self.rules(for: choice, site: siteRules, notes: &notes)
            let generator = try PasswordGenerator(rules: rules, allowingAppleStyle: false)
            source = .rules(generator)
            entropyBits = generator.entropyBits
            summary = choice.kind == .pin ? "a PIN of \(length) digits" : "a password of \(length) characters"
        case .passphrase:
            if let phrase = try Passphrase(choice: choice, site: siteRules, notes: &notes) {
                source = .words(phrase)
                entropyBits = phrase.entropyBits
                summary = "a passphrase of \(phrase.count) words from EFF's list of 7,776"  // the list is checked to hold 7,776
            } else {
                // The site's rules leave no passphrase: a password of the classes they allow.
                var fallback = choice
                fallback.kind = .password
                let (rules, length) = try Self.rules(for: fallback, site: siteRules, notes: &notes)
                let generator = try PasswordGenerator(rules: rules, allowingAppleStyle: false)
                source = .rules(generator)
                entropyBits = generator.entropyBits
                summary = "a password of \(length) characters"
            }
        }
        self.notes = notes
    }

    public mutating func next() -> String {
        switch source {
        case .rules(var generator):
            defer { source = .rules(generator) }
            return generator.next()
        case .words(var phrase):
            defer { source = .words(phrase) }
            return phrase.next()
        }
    }

    /// A password's or PIN's rules: the chosen characters, every chosen
    /// class required, the length exact; then the site's rules over them.
    static func rules(for choice: GeneratorChoice, site: PasswordRules?, notes: inout [String]) throws(UnsatisfiableRules) -> (PasswordRules, Int) {
        var classes = choice.kind == .pin ? [(name: "digits", set: PrintableSet.digit)] : choice.chosenClasses
        var characters = choice.kind == .pin ? PrintableSet.digit : choice.passwordCharacters
        var length = choice.kind == .pin ? choice.pinLength : choice.length
        var maxConsecutive: Int?
        if let site {
            let allowed = site.allowed.isUnicode ? PrintableSet.all : site.allowed.printableSet
            for chosen in classes where !chosen.set.intersects(allowed) { notes.append("the site allows no \(chosen.name): none are used") }
            classes = classes.filter { $0.set.intersects(allowed) }.map { ($0.name, $0.set.intersection(allowed)) }
            characters = characters.intersection(allowed)
            if characters.isEmpty {
                characters = (choice.avoidLookAlikes ? allowed.subtracting(GeneratorChoice.lookAlikes) : allowed).subtracting(PrintableSet([" "]))
                notes.append("the site allows none of the chosen characters: its own (\(site.allowed)) are used")
            }
            for required in site.required where !required.isUnicode {
                let needed = required.printableSet.intersection(allowed)
                guard !needed.isEmpty else { continue }  // no character can meet it: the generator says so
                if !characters.intersects(needed) {
                    notes.append("the site requires \(required): added")
                    characters.formUnion(needed)
                }
                // A chosen class inside it already meets it; otherwise it is required on its own.
                if !classes.contains(where: { needed.isSuperset(of: $0.set) }) { classes.append((required.description, needed.intersection(characters))) }
            }
            if let min = site.minLength, min > length {
                notes.append("minlength: \(min) (the site's) made it \(min) characters, not \(length)")
                length = min
            }
            if let max = site.maxLength, max < length {
                notes.append("maxlength: \(max) (the site's) made it \(max) characters, not \(length)")
                length = max
            }
            maxConsecutive = site.maxConsecutive
        }
        let required = classes.map { ClassSet(canonicalizing: [.custom($0.set.characters)]) }
        return (PasswordRules(required: required, allowed: ClassSet(canonicalizing: [.custom(characters.characters)]),
                              maxConsecutive: maxConsecutive, minLength: length, maxLength: length), length)
    }
}

extension PrintableSet {
    /// The set's characters, in byte order.
    var characters: [Character] { bytes.map { Character(Unicode.Scalar($0)) } }
}
