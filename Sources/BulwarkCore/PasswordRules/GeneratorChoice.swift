import Foundation

/// What a person asks the generator for: Apple's format (the default), a
/// password of a length and character classes, a passphrase of words from
/// EFF's large list, or a PIN. Remembered in the config as a line of text
/// (`description`, read back by `init(text:)`).
public struct GeneratorChoice: Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable, CaseIterable { case apple, password, passphrase, pin }

    public var kind: Kind = .apple
    /// A password's length and its character classes (each chosen class appears at least once).
    public var length = 20
    public var lower = true, upper = true, digits = true, symbols = true
    /// Leaves out characters read as one another (`Il1|O0o`, quotes and backquote).
    public var avoidLookAlikes = false
    /// A passphrase's words, the text between them, a capital at each word's start, a digit after one word.
    public var words = 6
    public var separator = "-"
    public var capitalize = false
    public var number = false
    public var pinLength = 6

    public static let lengths = 8...128, wordCounts = 3...20, pinLengths = 4...12
    public static let lookAlikes = PrintableSet(Array("Il1|O0o`'\""))

    public init() {}

    /// `kind=passphrase words=6 separator=- capitalize=no number=yes …`: every choice, space-separated.
    public var description: String {
        func flag(_ on: Bool) -> String { on ? "yes" : "no" }
        return ["kind=\(kind.rawValue)", "length=\(length)", "lower=\(flag(lower))", "upper=\(flag(upper))", "digits=\(flag(digits))",
                "symbols=\(flag(symbols))", "avoid-look-alikes=\(flag(avoidLookAlikes))", "words=\(words)",
                "separator=\(separator.isEmpty ? "none" : separator == " " ? "space" : separator)", "capitalize=\(flag(capitalize))",
                "number=\(flag(number))", "pin-length=\(pinLength)"].joined(separator: " ")
    }

    /// The text `description` writes; a value out of range or unknown keeps the default.
    public init(text: String) {
        for pair in text.split(separator: " ") {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { continue }
            let (key, value) = (parts[0], parts[1])
            let on = value == "yes"
            switch key {
            case "kind": kind = Kind(rawValue: value) ?? kind
            case "length": if let n = Int(value), Self.lengths.contains(n) { length = n }
            case "lower": lower = on
            case "upper": upper = on
            case "digits": digits = on
            case "symbols": symbols = on
            case "avoid-look-alikes": avoidLookAlikes = on
            case "words": if let n = Int(value), Self.wordCounts.contains(n) { words = n }
            case "separator": separator = value == "none" ? "" : value == "space" ? " " : String(value.prefix(3))
            case "capitalize": capitalize = on
            case "number": number = on
            case "pin-length": if let n = Int(value), Self.pinLengths.contains(n) { pinLength = n }
            default: continue
            }
        }
        if !(lower || upper || digits || symbols) { lower = true }
    }

    /// The characters a password of this choice draws from.
    var passwordCharacters: PrintableSet {
        var set = PrintableSet()
        for (on, classSet) in [(lower, PrintableSet.lower), (upper, .upper), (digits, .digit), (symbols, .special)] where on { set.formUnion(classSet) }
        return (avoidLookAlikes ? set.subtracting(Self.lookAlikes) : set).subtracting(PrintableSet([" "]))
    }

    /// The chosen classes, each as the characters of it this choice draws from.
    var chosenClasses: [(name: String, set: PrintableSet)] {
        let characters = passwordCharacters
        return [(lower, "lower-case letters", PrintableSet.lower), (upper, "capitals", .upper), (digits, "digits", .digit), (symbols, "symbols", .special)]
            .filter(\.0).map { ($0.1, $0.2.intersection(characters)) }.filter { !$0.set.isEmpty }
    }
}
