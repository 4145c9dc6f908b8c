import BulwarkCore

/// A parsed command line: the command, its options and positional
/// arguments, and the global options wherever they stood.
struct ParsedCommandLine {
    var command: String?
    var globals = GlobalOptions()
    var options: [String: String] = [:]   // name → value ("" for flags)
    var repeated: [String: [String]] = [:]
    var arguments: [String] = []
    var wantsHelp = false
    var wantsVersion = false
}

extension ParsedCommandLine {
    /// Whether a flag was given.
    func flag(_ name: String) -> Bool { declared(name); return options[name] != nil }
    /// An option's value (the last, when repeated), checked against the table when parsed.
    func value(_ name: String) -> String? { declared(name); return options[name] }
    /// Every value of a repeatable option, in order; nil when it was not given.
    func values(_ name: String) -> [String]? { declared(name); return repeated[name] }
    /// A number option's value, already checked against its range.
    func number(_ name: String) -> Int? { declared(name); return options[name].flatMap { Int($0) } }

    /// Whether the command's table has the option (for code several commands share).
    func takes(_ name: String) -> Bool { command.flatMap(Commands.named)?.option(named: name) != nil }

    /// Reading an option the command's table does not define is a bug: the
    /// table is what parses, prints --help and writes the man page.
    private func declared(_ name: String) {
        SelfCheck.require(takes(name), "\(name) is not in the table of '\(command ?? "")'")
    }
}

struct UsageError: Error {
    let message: String
    let command: CommandSpec?
}

enum CommandLineParser {
    static func parse(_ args: [String]) throws(UsageError) -> ParsedCommandLine {
        var parsed = ParsedCommandLine()
        var index = 0
        var onlyArguments = false
        func value(for name: String) throws(UsageError) -> String {
            index += 1
            guard index < args.count else {
                throw UsageError(message: "\(name) needs a value.", command: parsed.command.flatMap(Commands.named))
            }
            return args[index]
        }
        while index < args.count {
            var arg = args[index]
            var inlineValue: String?
            if !onlyArguments, arg.hasPrefix("--"), let eq = arg.firstIndex(of: "=") {
                inlineValue = String(arg[arg.index(after: eq)...])
                arg = String(arg[..<eq])
            }
            func takeValue() throws(UsageError) -> String {
                if let inlineValue { return inlineValue }
                return try value(for: arg)
            }
            if onlyArguments || !arg.hasPrefix("-") || arg == "-" {
                if parsed.command == nil {
                    guard Commands.named(arg) != nil else {
                        throw UsageError(message: "unknown command '\(arg)'.", command: nil)
                    }
                    parsed.command = arg
                } else {
                    parsed.arguments.append(arg)
                }
            } else if arg == "--" {
                onlyArguments = true
            } else if arg == "--help" || arg == "-h" {
                parsed.wantsHelp = true
            } else if arg == "--version" && parsed.command == nil {
                parsed.wantsVersion = true
            } else if arg == "--vault" {
                parsed.globals.vault = try takeValue()
            } else if arg == "--quirks" {
                parsed.globals.quirks = try takeValue()
            } else if arg == "--services" {
                parsed.globals.services = try takeValue()
            } else if arg == "--password-stdin" {
                parsed.globals.passwordStdin = true
            } else if let spec = parsed.command.flatMap(Commands.named), let option = spec.option(named: arg) {
                let v = option.valueName == nil ? "" : try takeValue()
                if let problem = option.problem(with: v) { throw UsageError(message: problem, command: spec) }
                parsed.options[arg] = v
                parsed.repeated[arg, default: []].append(v)
            } else {
                throw UsageError(message: "unknown option '\(arg)'.", command: parsed.command.flatMap(Commands.named))
            }
            index += 1
        }
        return parsed
    }
}
