import BulwarkCore
import Foundation

/// `bulwark get ENTRY [--field F] [--json | --copy]`: one value for a script. The
/// entry by id or a title matching one entry, case-insensitively (exit 1
/// when none does, 2 when several do, naming them); the password unless
/// `--field` names username, url, notes, totp (the current code) or a
/// field of the entry's own. The value alone on standard output, a
/// newline after it; to a terminal its control characters are shown
/// escaped, never sent; with `--copy`, onto the clipboard instead, taken
/// back after `clipboard-seconds` (`ClipboardHandOff`).
enum GetCommand {
    static let usage = "bulwark get ENTRY [--field password|username|url|notes|totp|NAME] [--json | --copy]"

    static func run(_ parsed: ParsedCommandLine) -> Int32 {
        guard parsed.arguments.count == 1 else { Output.error("usage: \(usage)"); return 2 }
        let name = parsed.arguments[0], field = parsed.value("--field") ?? "password"
        return VaultCommands.withVault(parsed) { vault, _ in
            let entry: Entry
            do { entry = try vault.find(name) } catch VaultError.entryNotFound {
                Output.error("no entry matches '\(TerminalText.visible(name))'.")
                return 1
            } catch VaultError.ambiguousEntry(_, let ids) {
                let matches = ids.compactMap(vault.entry(id:))
                let named = matches.prefix(10).map { "\(TerminalText.visible($0.title)) (\($0.id))" }.joined(separator: ", ")
                Output.error("'\(TerminalText.visible(name))' matches \(matches.count) entries: \(named)\(matches.count > 10 ? ", …" : ""); give the id.")
                return 2
            }
            guard let value = value(of: field, in: entry) else {
                Output.error("\(TerminalText.visible(entry.title)) has no \(TerminalText.visible(field)).")
                return 1
            }
            if parsed.flag("--copy") {
                let seconds = (try? Output.configuration(parsed).get())?.clipboardSeconds ?? 30
                do {
                    Output.stderr("bulwark: " + (try ClipboardHandOff.copy(value, subject: "the \(field) of \(TerminalText.visible(entry.title))", seconds: seconds)) + "\n")
                } catch {
                    Output.error("\(error).")
                    return 1
                }
            } else if parsed.flag("--json") {
                Output.json(["id": entry.id, "title": entry.title, "field": field, "value": value])
            } else {
                // Piped, the bytes as they are (a script gets the exact value); to a terminal, never raw.
                print(isatty(STDOUT_FILENO) == 1 ? TerminalText.visible(value) : value)
            }
            return 0
        }
    }

    /// The field's value; nil when the entry has none.
    static func value(of field: String, in entry: Entry, now: Date = Date()) -> String? {
        func nonEmpty(_ text: String?) -> String? { text.flatMap { $0.isEmpty ? nil : $0 } }
        switch field.lowercased() {
        case "password": return nonEmpty(entry.password)
        case "username", "user": return nonEmpty(entry.username)
        case "url": return entry.urls.first
        case "notes": return nonEmpty(entry.notes)
        case "totp":
            return entry.totpURI.flatMap { try? OTPAuthURL.parse($0) }.map { $0.code(at: Int64(now.timeIntervalSince1970)) }
        default:
            return entry.fields.first { $0.name.caseInsensitiveCompare(field) == .orderedSame }.map(\.value)
        }
    }
}
