/// The shape of one subcommand: its options and help text. The parser and
/// `bulwark help CMD` both read these, so help never drifts from parsing.
struct OptionSpec {
    let name: String          // "--count"
    let valueName: String?    // "N" when the option takes a value
    let help: String
}

struct CommandSpec {
    let name: String
    let summary: String
    let usage: String
    let options: [OptionSpec]
    let details: String

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

    static let specs = [
        OptionSpec(name: "--vault", valueName: "PATH", help: "The vault file (default: $BULWARK_VAULT, else $XDG_DATA_HOME/bulwark/vault.db)"),
        OptionSpec(name: "--password-stdin", valueName: nil, help: "Read the master password from standard input (never from arguments)"),
        OptionSpec(name: "--quirks", valueName: "DIR", help: "A password-manager-resources quirks directory"),
        OptionSpec(name: "--help", valueName: nil, help: "Show help"),
    ]
}

enum Commands {
    static let all: [CommandSpec] = [
        CommandSpec(
            name: "demo", summary: "Open the full-screen demo.", usage: "bulwark demo [options]",
            options: [], details: "Keys: j/k or the arrows move, ? lists every key, q quits, Ctrl-C quits from anywhere."),
        CommandSpec(
            name: "help", summary: "Show help for bulwark or for one command.", usage: "bulwark help [COMMAND]",
            options: [], details: ""),
    ]

    static func named(_ name: String) -> CommandSpec? { all.first { $0.name == name } }
}
