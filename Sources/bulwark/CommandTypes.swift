import BulwarkCore

/// The shape of one subcommand: its options and help text. The parser and
/// `bulwark help CMD` both read these, so help never drifts from parsing.
struct OptionSpec {
    let name: String          // "--count"
    let valueName: String?    // "N" when the option takes a value
    let help: String
    /// What the value completes to, when its name does not say (see `completion`).
    var values: Completion? = nil
    /// A whole number in this range, when the option takes one.
    var number: ClosedRange<Int>? = nil

    /// Why a value does not fit the option (parsing stops there), or nil.
    func problem(with value: String) -> String? {
        if let number, !(Int(value).map(number.contains) ?? false) {
            return "\(name) takes a whole number from \(number.lowerBound) to \(number.upperBound), not '\(value)'."
        }
        if case .words(let words) = completion, !words.isEmpty, !words.contains(value) {
            return "\(name) takes \(Commands.list(words)), not '\(value)'."
        }
        return nil
    }
}

struct CommandSpec {
    let name: String
    let summary: String
    let usage: String
    let options: [OptionSpec]
    let details: String
    /// What each positional argument completes to, the last repeating.
    var arguments: [Completion] = []

    func option(named name: String) -> OptionSpec? { options.first { $0.name == name } }

    var helpText: String {
        var text = "\(summary)\n\nUsage: \(usage)\n"
        if !details.isEmpty { text += "\n\(details)\n" }
        if !options.isEmpty {
            text += "\nOptions:\n"
            for option in options { text += OptionSpec.row(option) }
        }
        text += "\nGlobal options:\n"
        for option in GlobalOptions.specs { text += OptionSpec.row(option) }
        return text
    }
}

extension OptionSpec {
    static func row(_ option: OptionSpec) -> String {
        let left = option.name + (option.valueName.map { " " + $0 } ?? "")
        return "  " + left.padding(toLength: max(24, left.count + 2), withPad: " ", startingAt: 0) + option.help + "\n"
    }
}

/// Options every command accepts, before or after the command's name.
struct GlobalOptions {
    var vault: String?
    var passwordStdin = false
    var quirks: String?
    var services: String?

    static let specs = [
        OptionSpec(name: "--vault", valueName: "PATH", help: "The vault file (default: $BULWARK_VAULT, else $XDG_DATA_HOME/bulwark/vault.db)"),
        OptionSpec(name: "--password-stdin", valueName: nil, help: "Read the master password from standard input (never from arguments)"),
        OptionSpec(name: "--quirks", valueName: "DIR", help: "A password-manager-resources quirks directory"),
        OptionSpec(name: "--services", valueName: "DIR", help: "Service manifests (*.json) this vault speaks to (the demo's vault also has the built-in mock ones)"),
        OptionSpec(name: "--help", valueName: nil, help: "Show help"),
    ]
}
