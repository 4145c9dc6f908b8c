import BulwarkCore
import Foundation

/// `bulwark passkey create|get|list|rm`: bulwark as a scriptable WebAuthn
/// authenticator, for anyone testing their own relying party. The options
/// files are what server libraries emit; the responses are what a browser's
/// `PublicKeyCredential.toJSON()` gives back.
enum PasskeyCommand {
    static let usage = "bulwark passkey create --origin ORIGIN --options FILE [--entry ENTRY] | get --origin ORIGIN --options FILE [--credential ID] [--entry ENTRY] | list [--json] | rm [--] ID"

    static func run(_ parsed: ParsedCommandLine) -> Int32 {
        switch parsed.arguments.first {
        case "create" where parsed.arguments.count == 1: return create(parsed)
        case "get" where parsed.arguments.count == 1: return get(parsed)
        case "list" where parsed.arguments.count == 1: return list(parsed)
        case "rm" where parsed.arguments.count == 2: return remove(parsed, id: parsed.arguments[1])
        default:
            Output.error("usage: \(usage)")
            return 2
        }
    }

    /// The origin and the options file, read before the vault is opened (bad input costs no KDF).
    static func inputs(_ parsed: ParsedCommandLine) -> (origin: String, options: Data)? {
        guard let origin = parsed.value("--origin"), let path = parsed.value("--options") else {
            Output.error("--origin ORIGIN and --options FILE are both needed.")
            return nil
        }
        guard let data = path == "-" ? nil : FileManager.default.contents(atPath: path) else {
            Output.error("cannot read the options file \(path).")
            return nil
        }
        return (origin, data)
    }

    static func create(_ parsed: ParsedCommandLine) -> Int32 {
        guard let (origin, data) = inputs(parsed) else { return 2 }
        let options: CreationOptions
        do { options = try CreationOptions.parse(data) } catch {
            Output.error("\(error). Nothing was created.")
            return 1
        }
        return VaultCommands.withVault(parsed) { vault, _ in
            let created: PasskeyAuthenticator.Created
            do {
                created = try PasskeyAuthenticator.create(options, origin: origin, existing: vault.entries.flatMap(\.passkeys), now: Date())
            } catch {
                Output.error("\(error).")
                return 1
            }
            let passkey = created.passkey
            if let name = parsed.value("--entry") {
                let entry = try vault.find(name)
                _ = try vault.update(entry.id) { $0.passkeys.append(passkey) }
                Output.stderr("bulwark: saved the passkey for \(passkey.userName) on \(passkey.rpID) in \(TerminalText.visible(entry.title)).\n")
            } else {
                var entry = Entry(title: options.rpName.isEmpty ? passkey.rpID : options.rpName, urls: ["https://\(passkey.rpID)"],
                                  username: passkey.userName, password: nil, created: Date())
                entry.passkeys = [passkey]
                try vault.save(entry)
                Output.stderr("bulwark: saved the passkey for \(passkey.userName) on \(passkey.rpID) in a new entry, \(TerminalText.visible(entry.title)).\n")
            }
            print(created.response)
            return 0
        }
    }

    static func get(_ parsed: ParsedCommandLine) -> Int32 {
        guard let (origin, data) = inputs(parsed) else { return 2 }
        let options: RequestOptions
        do { options = try RequestOptions.parse(data) } catch {
            Output.error("\(error).")
            return 1
        }
        return VaultCommands.withVault(parsed) { vault, _ in
            let found: (origin: String, rpID: String, passkeys: [Passkey])
            do { found = try PasskeyAuthenticator.candidates(options, origin: origin, among: vault.entries.flatMap(\.passkeys)) } catch {
                Output.error("\(error).")
                return 1
            }
            let holders = vault.entries.flatMap { entry in
                entry.passkeys.filter { key in found.passkeys.contains(key) }.map { PasskeyChoice.Holder(entryID: entry.id, entryTitle: entry.title, passkey: $0) }
            }
            let passkey: Passkey
            switch PasskeyChoice.choose(holders, credential: parsed.value("--credential"), entry: parsed.value("--entry")) {
            case .one(let holder): passkey = holder.passkey
            case .none:
                Output.error("bulwark holds no passkey for \(found.rpID)" + (options.allowCredentials.isEmpty ? "" : " among the credentials the relying party allows")
                             + (parsed.flag("--credential") || parsed.flag("--entry") ? " that --credential or --entry names" : "") + ".")
                return 1
            case .several(let several):
                Output.error("\(several.count) passkeys for \(found.rpID) could answer; " + PasskeyChoice.howToChoose(several) + ".")
                return 1
            }
            do { print(try PasskeyAuthenticator.assert(options, origin: found.origin, with: passkey).response) } catch {
                Output.error("\(error).")
                return 1
            }
            return 0
        }
    }

    static func list(_ parsed: ParsedCommandLine) -> Int32 {
        VaultCommands.withVault(parsed) { vault, _ in
            let held = vault.entries.flatMap { entry in entry.passkeys.map { (entry, $0) } }
            if parsed.flag("--json") {
                Output.json(held.map { entry, passkey in
                    ["id": passkey.id, "rp_id": passkey.rpID, "user_name": passkey.userName, "user_display_name": passkey.userDisplayName,
                     "user_handle": Base64URL.encode(passkey.userHandle), "entry": entry.title, "entry_id": entry.id,
                     "created": ISO8601DateFormatter().string(from: passkey.created), "sign_count": Int(passkey.signCount),
                     "backup_eligible": passkey.backupEligible, "backup_state": passkey.backupState] as [String: Any]
                })
                return 0
            }
            if held.isEmpty { print("No passkeys.") }
            for (entry, passkey) in held {
                print("\(passkey.id)  \(passkey.rpID)  \(passkey.userName)  (\(entry.title))")
            }
            return 0
        }
    }

    static func remove(_ parsed: ParsedCommandLine, id: String) -> Int32 {
        VaultCommands.withVault(parsed) { vault, _ in
            guard let entry = vault.entries.first(where: { $0.passkeys.contains { $0.id == id } }) else {
                Output.error("no passkey has the id \(id) ('bulwark passkey list' shows them).")
                return 1
            }
            _ = try vault.update(entry.id) { $0.passkeys.removeAll { $0.id == id } }
            print("Removed the passkey \(id) from \(entry.title). The relying party still lists it until it is removed there.")
            return 0
        }
    }
}
