import BulwarkCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `bulwark code-setup URL`: a verification code's set-up link
/// (`otpauth://`, or Apple's `apple-otpauth://`, as a site's "set up a
/// code" link or a desktop's handler for those schemes hands it over),
/// saved to the entry it belongs to. The entries that look like the code's
/// (its issuer in the title or site, its account the user name) are
/// offered before anything is saved, best first (WWDC21: the code goes
/// with the account it is for), never after the fact.
enum CodeSetupCommand {
    static let usage = "bulwark code-setup URL [--entry ENTRY | --new TITLE] [--replace]"

    static func run(_ parsed: ParsedCommandLine) -> Int32 {
        guard parsed.arguments.count == 1, !(parsed.value("--entry") != nil && parsed.value("--new") != nil) else {
            Output.error("usage: \(usage)")
            return 2
        }
        let link = parsed.arguments[0]
        // The link holds the secret: gone from this process's arguments (`ps`, /proc) before anything waits on a person.
        hideFromArguments(link)
        let config: OTPConfiguration, uri: String
        do { (config, uri) = try read(link) } catch {
            Output.error("the link is not a verification code's set-up link (\(error)). Nothing was saved.")
            return 2
        }
        let whose = describe(config)
        return VaultCommands.withVault(parsed) { vault, input in
            let suggestions = CodeOwner.suggestions(for: config, in: vault.entries)
            let target: Target
            if let name = parsed.value("--entry") {
                target = .existing(try vault.find(name))
            } else if let title = parsed.value("--new") {
                guard !title.isEmpty else { throw UsageError(message: "--new needs a title.", command: nil) }
                target = .new(title)
            } else if let chosen = ask(whose, suggestions: suggestions, proposedTitle: config.issuer ?? "", input: input) {
                target = chosen
            } else if input.isTerminal {
                print("Nothing was saved.")
                return 1
            } else {
                let named = suggestions.prefix(5).map(\.title)
                throw UsageError(message: "no one to ask which entry \(whose) belongs to: give --entry ENTRY or --new TITLE"
                                 + (named.isEmpty ? "." : "; entries that look like it: \(named.joined(separator: ", ")).") + " Nothing was saved.", command: nil)
            }
            switch target {
            case .new(let title):
                var entry = Entry(title: title, username: config.account, totpURI: uri, created: Date())
                entry.modified = entry.created
                try vault.transaction { change in try change.insert([entry]) }
                print("Saved \(whose) in a new entry, \(TerminalText.visible(title)).")
            case .existing(let found):
                if found.totpURI != nil, found.totpURI != uri, !parsed.flag("--replace") {
                    guard input.question("\(TerminalText.visible(found.title)) already has a code; replace it? [y/N]")?.hasPrefix("y") == true else {
                        throw UsageError(message: "\(found.title) already has a code; give --replace to put this one in its place. Nothing was saved.", command: nil)
                    }
                }
                let base = vault.version(of: found.id)
                try vault.transaction { change in
                    guard var entry = change.entry(id: found.id) else { throw VaultError.entryNotFound(found.id) }
                    entry.totpURI = uri
                    entry.modified = Date()
                    try change.save(entry, basedOn: base)
                }
                print("Saved \(whose) to \(TerminalText.visible(found.title)).")
                VaultCommands.suggestOwner(of: try vault.find(found.id), in: vault.entries)
            }
            return 0
        }
    }

    enum Target {
        case existing(Entry)
        case new(String)
    }

    /// The link's code, and the `otpauth://` URI the vault keeps (Apple's
    /// scheme carries the same path and parameters).
    static func read(_ link: String) throws -> (OTPConfiguration, String) {
        var uri = link.trimmingCharacters(in: .whitespacesAndNewlines)
        if uri.lowercased().hasPrefix("apple-otpauth://") { uri = "otpauth://" + uri.dropFirst("apple-otpauth://".count) }
        return (try OTPAuthURL.parse(uri), uri)
    }

    /// "a code from Shiny for jane@example.com": what the link says of itself, never its secret.
    static func describe(_ config: OTPConfiguration) -> String {
        let issuer = config.issuer.flatMap { $0.isEmpty ? nil : TerminalText.visible($0) }
        let account = config.account.isEmpty ? nil : TerminalText.visible(config.account)
        return "a code" + (issuer.map { " from \($0)" } ?? "") + (account.map { " for \($0)" } ?? "")
    }

    /// The choice on the terminal: the entries that look like the code's,
    /// best first (Enter takes the first), or a new entry; nil when there
    /// is no one to ask or the person declines.
    static func ask(_ whose: String, suggestions: [Entry], proposedTitle: String, input: PasswordInput) -> Target? {
        guard input.isTerminal else { return nil }
        let shown = Array(suggestions.prefix(9))
        var lines = ["Save \(whose) to which entry?"]
        for (index, entry) in shown.enumerated() {
            lines.append("  \(index + 1)  \(TerminalText.visible(entry.title))" + (entry.username.isEmpty ? "" : " (\(TerminalText.visible(entry.username)))")
                         + (entry.totpURI == nil ? "" : ", which has a code"))
        }
        let title = proposedTitle.isEmpty ? "New code" : proposedTitle
        lines.append("  n  a new entry named \(TerminalText.visible(title))")
        lines.append("  q  nothing")
        print(lines.joined(separator: "\n"))
        let prompt = shown.isEmpty ? "[n/q]" : "[1-\(shown.count)/n/q, Enter: 1]"
        while let answer = input.question(prompt) {
            if answer.isEmpty, let first = shown.first { return .existing(first) }
            if answer == "n" { return .new(title) }
            if answer == "q" { return nil }
            if let number = Int(answer), shown.indices.contains(number - 1) { return .existing(shown[number - 1]) }
        }
        return nil
    }

    /// Overwrites the argument in the process's own argument block, which
    /// is what /proc/PID/cmdline and `ps` read.
    static func hideFromArguments(_ argument: String) {
        for index in 1..<Int(CommandLine.argc) {
            guard let pointer = CommandLine.unsafeArgv[index], String(cString: pointer) == argument else { continue }
            memset(pointer, Int32(UInt8(ascii: "x")), strlen(pointer))
        }
    }
}
