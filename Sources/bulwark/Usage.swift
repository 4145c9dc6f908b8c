enum Usage {
    static let version = "0.1.0"

    static var main: String {
        var text = """
        bulwark: a terminal password manager that finds weak, reused and breached
        passwords and fixes them with one key.

        Usage: bulwark [global options] COMMAND [options]

        Commands:

        """
        for command in Commands.all {
            text += "  " + command.name.padding(toLength: 12, withPad: " ", startingAt: 0) + command.summary + "\n"
        }
        text += "\nGlobal options (before or after the command):\n"
        for option in GlobalOptions.specs { text += OptionSpec.row(option) }
        text += "  --version               Print the version\n"
        text += "\n'bulwark help COMMAND' or 'bulwark COMMAND --help' shows a command's options.\n"
        return text
    }
}
