import BulwarkCore
import Foundation

/// `bulwark git-credential get|store|erase`: git's credential helper
/// protocol (git-credential(1)), for `git config --global
/// credential.helper 'bulwark git-credential'`. git writes `key=value`
/// lines on standard input; `get` answers with `username=` and `password=`
/// of the one entry whose URL has the same protocol and host (and port),
/// the path too when git sends one, and the user name when git names it;
/// nothing when none or several match (git then asks the person itself).
/// `store` keeps what git hands it only when the config says
/// `git-credential-store = on`; `erase` never deletes an entry (a password
/// a server refused stays in the vault, with its history). Nothing but the
/// protocol is ever written to standard output; the master password is
/// asked on the terminal (standard input is git's), or, with
/// `--password-stdin`, is the first line before git's request.
enum GitCredentialCommand {
    static let usage = "bulwark git-credential get|store|erase"

    struct Request: Equatable {
        var protocolName = "", host = "", path: String?, username: String?, password: String?

        init(_ text: String) {
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                guard !line.isEmpty else { break }  // a blank line ends the request
                guard let eq = line.firstIndex(of: "=") else { continue }
                let key = String(line[..<eq]), value = String(line[line.index(after: eq)...])
                switch key {
                case "protocol": protocolName = value.lowercased()
                case "host": host = value.lowercased()
                case "path": path = value
                case "username": username = value
                case "password": password = value
                case "url":
                    if let url = URLComponents(string: value) {
                        protocolName = url.scheme?.lowercased() ?? protocolName
                        host = (url.host?.lowercased() ?? host) + (url.port.map { ":\($0)" } ?? "")
                        if !url.path.isEmpty, url.path != "/" { path = String(url.path.dropFirst()) }
                        username = url.user ?? username
                    }
                default: continue  // capabilities, wwwauth[], … are not ours to answer
                }
            }
        }

        /// Whether an entry's URL is for this request.
        func matches(_ url: String) -> Bool {
            guard let components = URLComponents(string: url), components.scheme?.lowercased() == protocolName else { return false }
            let entryHost = (components.host?.lowercased() ?? "") + (components.port.map { ":\($0)" } ?? "")
            guard entryHost == host else { return false }
            guard let path, !path.isEmpty else { return true }
            let entryPath = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
            return entryPath.isEmpty || path == entryPath || path.hasPrefix(entryPath.hasSuffix("/") ? entryPath : entryPath + "/")
        }

        func candidates(in entries: some Sequence<Entry>) -> [Entry] {
            entries.filter { entry in
                entry.password != nil && entry.urls.contains(where: matches) && (username.map { $0 == entry.username } ?? true)
            }
        }
    }

    static func run(_ parsed: ParsedCommandLine) -> Int32 {
        guard parsed.arguments.count == 1, ["get", "store", "erase"].contains(parsed.arguments[0]) else {
            Output.error("usage: \(usage)")
            return 2
        }
        let operation = parsed.arguments[0]
        var text = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
        var input: PasswordInput?
        if parsed.globals.passwordStdin {
            let first = text.prefix { $0 != "\n" }
            input = PasswordInput(lines: [String(first.hasSuffix("\r") ? first.dropLast() : first)])
            text = String(text.dropFirst(first.count + 1))
        }
        let request = Request(text)
        guard !request.protocolName.isEmpty, !request.host.isEmpty else { return 0 }  // nothing to answer for
        switch operation {
        case "get":
            return VaultCommands.withVault(parsed, input: input) { vault, _ in
                let found = request.candidates(in: vault.entries)
                // One entry, or several of one account: answered; several accounts: git asks the person.
                guard let entry = found.first, Set(found.map(\.username)).count == 1, let password = entry.password,
                      !password.contains("\n"), !entry.username.contains("\n") else { return 0 }
                print("username=\(entry.username)\npassword=\(password)")
                return 0
            }
        case "store":
            guard (try? Output.configuration(parsed).get())?.gitCredentialStore == true,
                  let username = request.username, let password = request.password else { return 0 }
            return VaultCommands.withVault(parsed, input: input) { vault, _ in
                if var entry = request.candidates(in: vault.entries).first(where: { $0.username == username }) {
                    guard entry.password != password else { return 0 }
                    entry.changePassword(to: password, reason: "stored by git")
                    try vault.save(entry, basedOn: vault.version(of: entry.id))
                } else {
                    var entry = Entry(title: request.host, urls: ["\(request.protocolName)://\(request.host)/" + (request.path ?? "")],
                                      username: username, password: password)
                    entry.notes = "Stored by git's credential helper."
                    try vault.save(entry)
                }
                return 0
            }
        default:
            return 0  // erase: never a deletion
        }
    }
}
