import Foundation

/// The manual pages, in roff, written from the command tables that print
/// `--help`: bulwark(1) and bulwark-COMMAND(1) for each command
/// (`bulwark manpages DIR`; `make install` installs them).
enum ManPages {
    /// The pages' date: the release's, so the same build writes the same bytes.
    static let date = "2026-11-24"

    /// File name → page.
    static func all() -> [(name: String, text: String)] {
        [("bulwark.1", main())] + Commands.all.map { ("bulwark-\($0.name).1", page(for: $0)) }
    }

    /// Text escaped for roff: backslashes, and a line that would start a request.
    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\e")
            .split(separator: "\n", omittingEmptySubsequences: false)
            .map { line in line.hasPrefix(".") || line.hasPrefix("'") ? "\\&" + line : String(line) }
            .joined(separator: "\n")
    }

    /// An option's name (and value) in bold (italic), hyphens as minus signs.
    static func optionTerm(_ option: OptionSpec) -> String {
        let name = "\\fB" + option.name.replacingOccurrences(of: "-", with: "\\-") + "\\fR"
        return name + (option.valueName.map { " \\fI" + escaped($0) + "\\fR" } ?? "")
    }

    private static func header(_ title: String) -> String {
        ".TH \(title.uppercased()) 1 \"\(date)\" \"bulwark \(Usage.version)\" \"User Commands\"\n"
    }

    private static func options(_ heading: String, _ options: [OptionSpec]) -> String {
        guard !options.isEmpty else { return "" }
        return ".SH \(heading)\n" + options.map { ".TP\n\(optionTerm($0))\n\(escaped($0.help))\n" }.joined()
    }

    /// Free text: blank lines part paragraphs; a paragraph with indented
    /// lines (a table, an example) is kept as written.
    private static func paragraphs(_ text: String) -> String {
        text.components(separatedBy: "\n\n").map { paragraph in
            let lines = paragraph.split(separator: "\n", omittingEmptySubsequences: false)
            if lines.contains(where: { $0.hasPrefix(" ") }) { return ".PP\n.nf\n\(escaped(paragraph))\n.fi\n" }
            return ".PP\n\(escaped(paragraph))\n"
        }.joined()
    }

    static func page(for command: CommandSpec) -> String {
        var text = header("bulwark-\(command.name)")
        text += ".SH NAME\nbulwark\\-\(command.name) \\- \(escaped(command.summary))\n"
        text += ".SH SYNOPSIS\n.nf\n\(escaped(command.usage))\n.fi\n"
        text += ".SH DESCRIPTION\n\(escaped(command.summary))\n"
        if !command.details.isEmpty { text += paragraphs(command.details) }
        text += options("OPTIONS", command.options)
        text += options("GLOBAL OPTIONS", GlobalOptions.specs)
        text += ".SH SEE ALSO\n\\fBbulwark\\fR(1)\n"
        return text
    }

    static func main() -> String {
        var text = header("bulwark")
        text += ".SH NAME\nbulwark \\- a terminal password manager that finds weak, reused and breached passwords and fixes them\n"
        text += ".SH SYNOPSIS\n.B bulwark\n[\\fIglobal options\\fR] \\fICOMMAND\\fR [\\fIoptions\\fR]\n"
        text += ".SH DESCRIPTION\n" + """
        bulwark keeps passwords, passkeys and verification codes in an encrypted vault, ranks its
        Security Recommendations (breached, reused, weak and other passwords) and fixes an account with one
        key: a strong password, Sign in with Apple, or a passkey. \\fBbulwark open\\fR opens the full-screen app
        on your vault; \\fBbulwark demo\\fR opens it on a demo vault.

        """
        text += ".SH COMMANDS\n" + Commands.all.map { ".TP\n\\fB\($0.name)\\fR\n\(escaped($0.summary)) See \\fBbulwark\\-\($0.name)\\fR(1).\n" }.joined()
        text += options("GLOBAL OPTIONS", GlobalOptions.specs + [OptionSpec(name: "--version", valueName: nil, help: "Print the version")])
        text += """
        .SH ENVIRONMENT
        .TP
        .B BULWARK_VAULT
        The vault file when \\fB\\-\\-vault\\fR is not given.
        .TP
        .B BULWARK_CONFIG
        The configuration file (default: \\fI$XDG_CONFIG_HOME/bulwark/config\\fR, else \\fI~/.config/bulwark/config\\fR).
        .TP
        .B XDG_DATA_HOME
        Where the vault is kept by default (\\fI$XDG_DATA_HOME/bulwark/vault.db\\fR, else \\fI~/.local/share/bulwark/vault.db\\fR).
        .SH FILES
        .TP
        .I ~/.config/bulwark/config
        Settings, one \\fIkey = value\\fR a line: breach\\-corpus, quirks, services, weak\\-below\\-bits, old\\-after\\-days,
        lock\\-after\\-minutes, reveal\\-seconds, clipboard\\-seconds, backups\\-kept, backup\\-every\\-minutes, symbols, mouse,
        online, range\\-url.
        .TP
        .I ~/.local/share/bulwark/vault.db
        The vault (SQLite; each entry sealed with AES\\-256\\-GCM under a key from scrypt). Its backups are kept in
        \\fIbackups/\\fR beside it.
        .SH EXIT STATUS
        0 on success, 1 on failure, 2 for a command line that cannot be read; \\fBanalyze\\fR and \\fBupgrade\\fR
        have their own (see their pages).
        .SH SEE ALSO

        """
        text += Commands.all.map { "\\fBbulwark\\-\($0.name)\\fR(1)" }.joined(separator: ",\n") + "\n"
        return text
    }
}
