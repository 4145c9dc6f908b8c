import BulwarkCore
import Foundation

/// check, recover and restore: what to do when a vault is damaged, rolled
/// back, or simply wanted as it was.
enum RescueCommands {
    /// Asks the master password, runs `body`, and reports what it throws.
    private static func withMasterPassword(_ parsed: ParsedCommandLine, prompt: String = "Master password", suffix: String = "",
                                           _ body: (String) throws -> Int32) -> Int32 {
        let input = PasswordInput(fromStdin: parsed.globals.passwordStdin)
        do { return try body(try input.next(prompt: prompt)) } catch let error as VaultError {
            Output.error(error.description + suffix)
            return 1
        } catch {
            Output.error("\(error)" + suffix)
            return 1
        }
    }

    static func plural(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }

    static func check(_ parsed: ParsedCommandLine) -> Int32 {
        guard parsed.arguments.isEmpty else { Output.error("usage: bulwark check"); return 2 }
        let path = VaultCommands.path(parsed)
        return withMasterPassword(parsed) { master in
            let report = try VaultInspection.inspect(at: path, masterPassword: master, freshness: .standard())
            let summary = "\(report.rowCount) entr\(report.rowCount == 1 ? "y" : "ies"), \(report.unreadable.count) unreadable"
                + (report.counter.map { ", change \($0)" } ?? "") + "; " + plural(VaultBackups(vaultPath: path).list().count, "backup") + "."
            guard !report.problems.isEmpty else {
                print("No problems found: \(summary)")
                return 0
            }
            print("\(report.problems.count) problem\(report.problems.count == 1 ? "" : "s") found: \(summary)")
            for problem in report.problems { print("  " + problem.description) }
            if let backup = VaultBackups(vaultPath: path).newestThatOpens(masterPassword: master) {
                print("The newest backup that opens is \(backup.id): 'bulwark restore \(backup.id)' puts it back.")
            }
            if !report.entries.isEmpty {
                print("'bulwark recover FILE' writes the \(report.entries.count == 1 ? "1 entry that decrypts" : "\(report.entries.count) entries that decrypt") to a new vault.")
            }
            return 1
        }
    }

    static func recover(_ parsed: ParsedCommandLine) -> Int32 {
        guard parsed.arguments.count == 1 else { Output.error("usage: bulwark recover FILE"); return 2 }
        let source = VaultCommands.path(parsed)
        let destination = URL(fileURLWithPath: parsed.arguments[0])
        return withMasterPassword(parsed) { master in
            let report = try VaultInspection.inspect(at: source, masterPassword: master)
            let (vault, lostFiles) = try report.recover(to: destination, masterPassword: master, from: source)
            vault.close()
            print("Wrote \(report.entries.count) of \(report.rowCount) entr\(report.rowCount == 1 ? "y" : "ies") to \(destination.path); the damaged vault was not changed.")
            if !report.unreadable.isEmpty {
                print("These do not decrypt and were left out: \(report.unreadable.joined(separator: ", ")).")
            }
            if !lostFiles.isEmpty { print("These files are damaged and were left out: \(lostFiles.joined(separator: ", ")).") }
            return 0
        }
    }

    static func restore(_ parsed: ParsedCommandLine) -> Int32 {
        let backups = VaultBackups(vaultPath: VaultCommands.path(parsed))
        if parsed.flag("--list") {
            guard parsed.arguments.isEmpty else { Output.error("usage: bulwark restore --list | bulwark restore ID"); return 2 }
            let list = backups.list()
            if list.isEmpty { print("No backups in \(backups.directory.path).") }
            for backup in list {
                let entries = (try? SQLiteDatabase(path: backup.path.path, create: false, readOnly: true))
                    .flatMap { try? $0.query("SELECT count(*) FROM entries").first?.first?.integer }.map { Int($0) == 1 ? "1 entry" : "\($0) entries" } ?? "unreadable"
                print([backup.id, VaultCommands.iso.string(from: backup.date), entries, "\(backup.size / 1024) KiB"].joined(separator: "\t"))
            }
            return 0
        }
        guard parsed.arguments.count == 1 else { Output.error("usage: bulwark restore --list | bulwark restore ID"); return 2 }
        guard let backup = backups.backup(id: parsed.arguments[0]) else {
            Output.error("no backup '\(parsed.arguments[0])' in \(backups.directory.path); 'bulwark restore --list' lists them.")
            return 1
        }
        return withMasterPassword(parsed, prompt: "Master password (of the backup)", suffix: " Nothing was restored.") { master in
            let (vault, saved) = try backups.restore(backup, masterPassword: master, freshness: .standard())
            print("Restored \(backup.id): \(vault.entries.count) entr\(vault.entries.count == 1 ? "y" : "ies"). The vault as it was is kept as backup \(saved.id).")
            vault.close()
            return 0
        }
    }
}
