import BulwarkCore
import Foundation

/// `bulwark sync`: one vault on every machine through a git remote.
enum SyncCommand {
    static let usage = "bulwark sync [init REMOTE | clone REMOTE | status [--json]] [--name MACHINE]"
    static let failed: Int32 = 1

    static func run(_ parsed: ParsedCommandLine) -> Int32 {
        guard let git = Git.find() else {
            Output.error("sync needs git, which is not installed here (Debian: apt install git); nothing was changed.")
            return failed
        }
        let arguments = parsed.arguments
        switch arguments.first {
        case nil:
            return VaultCommands.withVault(parsed) { vault, input in
                let engine = SyncEngine(vault: vault, git: git)
                do { return report(try engine.sync()) } catch SyncError.rekeyed {
                    // Another machine changed the master password: its new one, once, and this vault follows.
                    Output.stderr("bulwark: the master password was changed on another machine.\n")
                    let password = try input.next(prompt: "Its new master password")
                    do { try engine.followRekey(masterPassword: password) } catch VaultError.wrongPassword {
                        Output.error("that is not the new master password; nothing was changed.")
                        return failed
                    }
                    print("This vault now opens with the new master password.")
                    return report(try engine.sync())
                } catch let error as SyncError {
                    Output.error(error.description + ".")
                    return failed
                }
            }
        case "init":
            guard arguments.count == 2 else { return usageError() }
            return withVault(parsed) { vault in
                let report = try SyncEngine(vault: vault, git: git).link(remote: arguments[1], machineName: machineName(parsed))
                print("Linked \(vault.path.path) to \(SyncError.redacted(arguments[1])) as \(machineName(parsed)).")
                return Self.report(report)
            }
        case "clone":
            guard arguments.count == 2 else { return usageError() }
            return clone(arguments[1], parsed, git)
        case "status":
            guard arguments.count == 1 else { return usageError() }
            return withVault(parsed) { vault in status(try SyncEngine(vault: vault, git: git).status(), json: parsed.flag("--json")) }
        default:
            return usageError()
        }
    }

    private static func usageError() -> Int32 {
        Output.error("usage: \(usage)")
        return 2
    }

    /// `--name`, else the host name: how the other machines' messages name this one.
    static func machineName(_ parsed: ParsedCommandLine) -> String {
        if let name = parsed.value("--name"), !name.isEmpty { return name }
        return ProcessInfo.processInfo.hostName.split(separator: ".").first.map(String.init) ?? "this machine"
    }

    private static func withVault(_ parsed: ParsedCommandLine, _ body: @escaping (Vault) throws -> Int32) -> Int32 {
        VaultCommands.withVault(parsed) { vault, _ in
            do { return try body(vault) } catch let error as SyncError {
                Output.error(error.description + ".")
                return failed
            }
        }
    }

    private static func clone(_ remote: String, _ parsed: ParsedCommandLine, _ git: Git) -> Int32 {
        let path = VaultCommands.path(parsed)
        let input = PasswordInput(fromStdin: parsed.globals.passwordStdin)
        do {
            let master = try input.next(prompt: "Master password")
            let (vault, count) = try SyncEngine.clone(remote: remote, to: path, masterPassword: master, machineName: machineName(parsed),
                                                      git: git, freshness: .standard())
            vault.close()
            print("Cloned \(count) entr\(count == 1 ? "y" : "ies") from \(SyncError.redacted(remote)) into \(path.path) as \(machineName(parsed)).")
            return 0
        } catch let error as SyncError {
            Output.error(error.description + ". Nothing was made here.")
        } catch VaultError.wrongPassword {
            Output.error("that is not the vault's master password; nothing was made here.")
        } catch {
            Output.error("\(error); nothing was made here.")
        }
        return failed
    }

    private static func report(_ report: SyncEngine.Report) -> Int32 {
        if report.resealed { print("The remote is sealed again under the new master password; the other machines ask for it once.") }
        if report.incoming.isEmpty && report.outgoing.isEmpty {
            print("Up to date.")
        } else {
            if !report.incoming.isEmpty { print("In:  \(report.incomingSummary)") }
            if !report.outgoing.isEmpty {
                print("Out: \(report.outgoing.count) change\(report.outgoing.count == 1 ? "" : "s") (\(report.outgoing.prefix(5).joined(separator: ", "))\(report.outgoing.count > 5 ? ", …" : ""))")
            }
        }
        for conflict in report.conflicts { print("Conflict: \(conflict.title): \(conflict.kept).") }
        for kept in report.editsKeptOverDeletes { print("Kept: \(kept).") }
        for title in report.waiting { print("Waiting: \(title) has an upgrade in flight; it syncs once that settles.") }
        return 0
    }

    private static func status(_ status: SyncEngine.Status, json: Bool) -> Int32 {
        let iso = ISO8601DateFormatter()
        if json {
            var object: [String: Any] = [
                "remote": SyncError.redacted(status.remote), "machine": status.machineName,
                "outgoing": status.outgoing,
                "machines": status.machines.map { ["name": $0.name, "lastSync": iso.string(from: $0.lastSync)] },
                "conflicts": status.conflicts.map { ["title": $0.title, "kept": $0.kept, "at": iso.string(from: $0.at)] },
            ]
            object["lastSync"] = status.lastSync.map { iso.string(from: $0) } ?? NSNull()
            object["incoming"] = status.incoming.map { $0.map { ["title": $0.title, "from": $0.from] } } ?? NSNull()
            object["offline"] = status.offline ?? NSNull()
            Output.json(object)
            return 0
        }
        print("Remote:    \(SyncError.redacted(status.remote))")
        print("Machine:   \(status.machineName)")
        print("Last sync: \(status.lastSync.map { iso.string(from: $0) } ?? "never")")
        print("Out:       \(status.outgoing.count) change\(status.outgoing.count == 1 ? "" : "s") waiting")
        if let incoming = status.incoming {
            print("In:        \(incoming.count) change\(incoming.count == 1 ? "" : "s") waiting")
        } else {
            print("In:        unknown (\(status.offline ?? "offline"))")
        }
        print("Machines:  \(status.machines.isEmpty ? "none yet" : status.machines.map(\.name).joined(separator: ", "))")
        print("Conflicts: \(status.conflicts.isEmpty ? "none" : "\(status.conflicts.count) kept (see --json)")")
        return 0
    }
}
