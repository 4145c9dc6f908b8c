import BulwarkCore
import Foundation

/// A secret the generator made, with what was made, its bits and what the site's rules changed.
public struct GeneratedSample: Sendable, Equatable {
    public let value: String
    public let bits: Double
    public let summary: String
    public let notes: [String]

    public init(value: String, bits: Double, summary: String, notes: [String]) {
        self.value = value
        self.bits = bits
        self.summary = summary
        self.notes = notes
    }
}

/// Ctrl-G in the form: the generator's choices (kind, then the length and
/// classes of a password, the words of a passphrase, or a PIN's length),
/// with a fresh sample and its bits as they change; Enter puts the sample
/// in the password field and remembers the choices.
public struct GeneratorSheet: Sendable, Equatable {
    public enum Row: String, Sendable, Equatable {
        case kind = "Kind", length = "Length", lower = "Lower-case", upper = "Capitals", digits = "Digits", symbols = "Symbols"
        case lookAlikes = "Avoid look-alikes", words = "Words", separator = "Separator", capitalize = "Capitalize", number = "A digit"
        case pinLength = "Digits in the PIN"
    }

    public var choice: GeneratorChoice
    /// The site the password is for (its rules win).
    public let site: String
    public var focus = 0
    public var sample: GeneratedSample?

    public init(choice: GeneratorChoice, site: String) {
        self.choice = choice
        self.site = site
    }

    public var rows: [Row] {
        switch choice.kind {
        case .apple: [.kind]
        case .password: [.kind, .length, .lower, .upper, .digits, .symbols, .lookAlikes]
        case .passphrase: [.kind, .words, .separator, .capitalize, .number]
        case .pin: [.kind, .pinLength]
        }
    }

    public var focusedRow: Row { rows[min(focus, rows.count - 1)] }

    static let kindLabels: [GeneratorChoice.Kind: String] = [.apple: "Apple's format", .password: "Password", .passphrase: "Passphrase", .pin: "PIN"]
    static let separators = ["-", " ", "_", ".", ""]

    /// A row's value as the sheet shows it.
    public func value(_ row: Row) -> String {
        func box(_ on: Bool) -> String { on ? "[x]" : "[ ]" }
        switch row {
        case .kind: return "‹ \(Self.kindLabels[choice.kind] ?? "") ›"
        case .length: return "‹ \(choice.length) ›"
        case .lower: return box(choice.lower)
        case .upper: return box(choice.upper)
        case .digits: return box(choice.digits)
        case .symbols: return box(choice.symbols)
        case .lookAlikes: return box(choice.avoidLookAlikes)
        case .words: return "‹ \(choice.words) ›"
        case .separator: return "‹ " + (choice.separator.isEmpty ? "none" : choice.separator == " " ? "space" : "\"\(choice.separator)\"") + " ›"
        case .capitalize: return box(choice.capitalize)
        case .number: return box(choice.number)
        case .pinLength: return "‹ \(choice.pinLength) ›"
        }
    }

    /// ←→ or Space on the focused row: a number steps, a list turns, a box flips
    /// (the last class left stays on: a password needs one).
    public mutating func change(_ delta: Int) {
        func step(_ value: Int, _ range: ClosedRange<Int>) -> Int { min(range.upperBound, max(range.lowerBound, value + delta)) }
        func turn<T: Equatable>(_ value: T, _ all: [T]) -> T { all[((all.firstIndex(of: value) ?? 0) + delta % all.count + all.count) % all.count] }
        let classesOn = [choice.lower, choice.upper, choice.digits, choice.symbols].filter { $0 }.count
        func flip(_ value: Bool) -> Bool { value && classesOn == 1 ? value : !value }
        switch focusedRow {
        case .kind:
            choice.kind = turn(choice.kind, GeneratorChoice.Kind.allCases)
            focus = 0
        case .length: choice.length = step(choice.length, GeneratorChoice.lengths)
        case .lower: choice.lower = flip(choice.lower)
        case .upper: choice.upper = flip(choice.upper)
        case .digits: choice.digits = flip(choice.digits)
        case .symbols: choice.symbols = flip(choice.symbols)
        case .lookAlikes: choice.avoidLookAlikes.toggle()
        case .words: choice.words = step(choice.words, GeneratorChoice.wordCounts)
        case .separator: choice.separator = turn(choice.separator, Self.separators)
        case .capitalize: choice.capitalize.toggle()
        case .number: choice.number.toggle()
        case .pinLength: choice.pinLength = step(choice.pinLength, GeneratorChoice.pinLengths)
        }
    }
}

/// The sheet's own actions.
public enum GeneratorAction: Sendable, Equatable {
    /// Ctrl-G in the form: the sheet for the site typed there.
    case open(site: String)
    case move(Int)
    case change(Int)
    case resample
    case sampled(GeneratedSample?)
    case use
}

enum GeneratorReducer {
    /// The sheet (in `presented`), the form under it, and the choice the app remembers.
    struct Scope: Equatable {
        var sheet: GeneratorSheet?
        var editor: EntryEditor?
        var remembered: GeneratorChoice
        var configPath: URL?
    }

    static func reduce(_ action: GeneratorAction, _ scope: inout Scope, _ app: AppContext) -> FeatureOutcome {
        if case .open(let site) = action {
            guard scope.editor != nil else { return .none }
            let sheet = GeneratorSheet(choice: scope.remembered, site: site)
            scope.sheet = sheet
            return sample(sheet)
        }
        guard var sheet = scope.sheet else { return .none }
        defer { if scope.sheet != nil { scope.sheet = sheet } }
        switch action {
        case .move(let delta):
            sheet.focus = (sheet.focus + delta + sheet.rows.count) % sheet.rows.count
            return .none
        case .change(let delta):
            sheet.change(delta)
            return sample(sheet)
        case .resample:
            return sample(sheet)
        case .sampled(let made):
            sheet.sample = made
            return made == nil ? .status("Nothing can be made for this site's rules with these choices.") : .none
        case .open: return .none
        case .use:
            guard let made = sheet.sample else { return .none }
            scope.sheet = nil
            // Shown, so the person sees what was made; masked again when they leave the field.
            scope.editor?.fields[3] = TextField(made.value, masked: false)
            let choice = sheet.choice, path = scope.configPath
            let remember = choice != scope.remembered
            scope.remembered = choice
            let status = "Generated \(made.summary) (\(Int(made.bits.rounded())) bits), shown until you leave the field."
            guard remember, let path else { return .status(status) }
            return FeatureOutcome(effect: .run { _ in
                // The choice is remembered for next time; a config that cannot be written only loses that.
                try? Configuration.remember("generator", choice.description, at: path)
                return nil
            }, status: status)
        }
    }

    static func sample(_ sheet: GeneratorSheet) -> FeatureOutcome {
        let choice = sheet.choice, site = sheet.site
        return .run { env in .generator(.sampled(env.vault?.generate(choice, forSite: site))) }
    }
}
