enum Usage {
    static let version = "0.1.0"

    static var main: String {
        var text = """
        bulwark: a terminal password manager that finds weak, reused and breached
        passwords and fixes them with one key.

        Usage: bulwark [global options] COMMAND [options]

        Commands:

        """
        // The column as wide as the longest name and two spaces (padding never cuts a name).
        let column = (Commands.all.map(\.name.count).max() ?? 10) + 2
        for command in Commands.all {
            text += "  " + command.name.padding(toLength: column, withPad: " ", startingAt: 0) + command.summary + "\n"
        }
        text += "\nGlobal options (before or after the command):\n"
        for option in GlobalOptions.specs { text += OptionSpec.row(option) }
        text += "  --version               Print the version\n"
        text += "\n'bulwark help COMMAND' or 'bulwark COMMAND --help' shows a command's options.\n"
        return text
    }
}
