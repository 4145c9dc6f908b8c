import Testing

/// The command line as a user meets it: help, version, errors, exit codes.
@Suite struct CommandLineTests {
    @Test func helpListsTheCommandsAndExitsZero() throws {
        let result = try Binary.run(["--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("Usage: bulwark [global options] COMMAND [options]"))
        #expect(result.stdout.contains("  demo            Open the full-screen demo on an embedded vault."))
        #expect(result.stdout.contains("  git-credential  git's credential helper"))  // the column fits the longest name
        #expect(result.stderr.isEmpty)
    }

    @Test func versionPrintsTheVersion() throws {
        let result = try Binary.run(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout == "bulwark 0.1.0\n")
    }

    @Test(arguments: [["help", "demo"], ["demo", "--help"], ["--vault", "/tmp/x.db", "demo", "-h"]])
    func commandHelpShowsItsUsage(arguments: [String]) throws {
        let result = try Binary.run(arguments)
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("Open the full-screen demo on an embedded vault.\n\nUsage: bulwark demo [--no-lock] [--keep | --dir DIR] [--record FILE.cast] | --setup DIR | --list | --autoplay NAME [options]\n"))
        #expect(result.stdout.contains("--password-stdin"))
    }

    @Test func unknownCommandPrintsUsageToStderrAndExitsTwo() throws {
        let result = try Binary.run(["frobnicate"])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("bulwark: unknown command 'frobnicate'.\n"))
        #expect(result.stderr.contains("Usage: bulwark"))
    }

    @Test func unknownFlagNamesTheFlagAndExitsTwo() throws {
        let result = try Binary.run(["demo", "--frob"])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("bulwark: unknown option '--frob'.\n"))
        #expect(result.stderr.contains("Usage: bulwark demo [--no-lock] [--keep | --dir DIR] [--record FILE.cast] | --setup DIR | --list | --autoplay NAME [options]"))
    }

    @Test func helpForAnUnknownCommandExitsTwo() throws {
        let result = try Binary.run(["help", "nope"])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("bulwark: unknown command 'nope'."))
    }

    @Test func noCommandIsAUsageError() throws {
        let result = try Binary.run([])
        #expect(result.status == 2)
        #expect(result.stderr.contains("Usage: bulwark"))
    }

    @Test func globalOptionNeedsItsValue() throws {
        let result = try Binary.run(["demo", "--vault"])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("bulwark: --vault needs a value.\n"))
    }

    @Test(arguments: [["--vault", "v.db", "--quirks", "q", "demo"], ["demo", "--vault=v.db", "--password-stdin", "--quirks", "q"]])
    func globalOptionsAreAcceptedBeforeOrAfterTheCommand(arguments: [String]) throws {
        // With no terminal the demo stops at the terminal check: the options parsed.
        let result = try Binary.run(arguments)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("bulwark: the full-screen UI needs a terminal"))
    }

    @Test func demoWithoutATerminalSaysSoAndExitsTwo() throws {
        let result = try Binary.run(["demo"])
        #expect(result.status == 2)
        #expect(result.stderr == "bulwark: the full-screen UI needs a terminal, but standard input or output is not one. Run it in a terminal, or use a command such as 'bulwark list'.\n")
    }
}

/// Options are typed by the command's table: a choice or a number that
/// does not fit stops the parse, with the values it takes and the usage.
@Suite struct TypedOptionTests {
    @Test(arguments: [
        (["export", "--format", "kdbx", "--cipher", "des", "out.kdbx"], "--cipher takes aes or chacha20, not 'des'.", "export"),
        (["import", "--format", "lastpass", "x.csv"], "--format takes ", "import"),
        (["signin", "Mail", "--with", "sms"], "--with takes password, passkey or apple, not 'sms'.", "signin"),
        (["init", "--scrypt-log-n", "21"], "--scrypt-log-n takes a whole number from 10 to 20, not '21'.", "init"),
        (["generate", "--count", "many"], "--count takes a whole number from 1 to 100000, not 'many'.", "generate"),
        (["add", "--title", "T", "--category", "games"], "--category takes email, identity, finance, government, health, work, shopping, social or other, not 'games'.", "add"),
    ])
    func aValueTheTableDoesNotTakeStopsTheParse(arguments: [String], message: String, command: String) throws {
        let result = try Binary.run(arguments + ["--vault", "/nonexistent/never-opened.db"])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("bulwark: " + message))
        #expect(result.stderr.contains("\n\nUsage: bulwark \(command) "))
        #expect(result.stderr.hasSuffix("'bulwark help \(command)' shows its options.\n"))
    }

    @Test func theImportFormatsAreTheOnesHelpNames() throws {
        let result = try Binary.run(["import", "--format", "lastpass", "x.csv"])
        let help = try Binary.run(["help", "import"]).stdout
        let named = try #require(result.stderr.split(separator: "\n").first).dropFirst("bulwark: --format takes ".count)
            .replacingOccurrences(of: ", not 'lastpass'.", with: "")
        #expect(help.contains("--format FORMAT         " + named + " (default: detected from the file)\n"))
    }
}
