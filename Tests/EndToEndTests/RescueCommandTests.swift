import Foundation
import Testing

/// check, recover, restore and the rollback warning, through the binary.
@Suite struct RescueCommandTests {
    typealias Fixture = VaultCommandTests.Fixture

    @Test func checkRecoverAndRestore() throws {
        let f = try Fixture()
        // A backup before every change, so there is one holding Alpha alone.
        let config = f.dir.appendingPathComponent("config")
        try "backup-every-minutes = 0\n".write(to: config, atomically: true, encoding: .utf8)
        func run(_ args: [String], stdin: String = "master\n") throws -> Binary.Result {
            try Binary.run(args + ["--vault", f.vault, "--password-stdin"], stdin: stdin, environment: ["BULWARK_CONFIG": config.path])
        }
        let alpha = try run(["add", "--title", "Alpha", "--entry-password-stdin"], stdin: "master\nalpha-secret\n")
        #expect(alpha.status == 0)
        let clean = try run(["check"])
        #expect(clean.status == 0 && clean.stdout == "No problems found: 1 entry, 0 unreadable, change 2; 1 backup.\n", "\(clean.stdout)")
        #expect(try run(["check"], stdin: "wrong\n").stderr == "bulwark: wrong master password; nothing was changed.\n")

        // A second entry, then the first one's box altered.
        #expect(try run(["add", "--title", "Beta", "--entry-password-stdin"], stdin: "master\nbeta-secret\n").status == 0)
        let id = alpha.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try VaultBytes.alterBox(ofEntry: id, inFileAt: f.vault) >= 1)

        let damaged = try f.run(["check"])
        #expect(damaged.status == 1)
        #expect(damaged.stdout.contains("problem"))
        #expect(damaged.stdout.contains("  entry \(id): does not decrypt (altered, or moved from another row or version)\n"), "\(damaged.stdout)")
        #expect(damaged.stdout.contains("'bulwark recover FILE' writes the 1 entry that decrypts to a new vault."))

        let out = f.dir.appendingPathComponent("recovered.db").path
        let recovered = try f.run(["recover", out])
        #expect(recovered.status == 0)
        #expect(recovered.stdout == "Wrote 1 of 2 entries to \(out); the damaged vault was not changed.\nThese do not decrypt and were left out: \(id).\n")
        let listed = try Binary.run(["list", "--vault", out, "--password-stdin"], stdin: "master\n")
        #expect(listed.status == 0 && listed.stdout.hasPrefix("Beta\t") && !listed.stdout.contains("Alpha"))

        // The backup taken before Beta holds Alpha whole.
        let list = try run(["restore", "--list"]).stdout.split(separator: "\n")
        #expect(list.count == 2 && list[0].contains("\t1 entry\t") && list[1].contains("\t0 entries\t"), "\(list)")
        let backups = list.map { String($0.prefix { $0 != "\t" }) }
        #expect(try f.run(["restore", "nope"]).status == 1)
        let restored = try f.run(["restore", backups[0]])
        #expect(restored.status == 0 && restored.stdout.hasPrefix("Restored \(backups[0]): 1 entry. The vault as it was is kept as backup "), "\(restored.stderr)")
        let after = try f.run(["show", "Alpha", "--json", "--reveal"])
        #expect(after.status == 0 && after.stdout.contains("\"password\" : \"alpha-secret\"") && after.stderr.isEmpty, "\(after.stderr)")
        #expect(try f.run(["restore", "--list"]).stdout.split(separator: "\n").count == 3)
    }

    @Test func aVaultPutBackFromACopyIsWarnedAbout() throws {
        let f = try Fixture()
        #expect(try f.run(["add", "--title", "Alpha"]).status == 0)
        let copy = f.dir.appendingPathComponent("copy.db")
        try FileManager.default.copyItem(at: URL(fileURLWithPath: f.vault), to: copy)
        #expect(try f.run(["add", "--title", "Beta"]).status == 0)
        try FileManager.default.removeItem(atPath: f.vault)
        try FileManager.default.copyItem(at: copy, to: URL(fileURLWithPath: f.vault))

        let listed = try f.run(["list"])
        #expect(listed.status == 0 && listed.stdout.hasPrefix("Alpha\t"))
        #expect(listed.stderr == "bulwark: warning: this vault is older than the one this machine last saw (change 2, last seen 3): restored from a backup, or rolled back? Changes made after it may be lost; 'bulwark check' tells more.\n")
        let check = try f.run(["check"])
        #expect(check.status == 1 && check.stdout.contains("  freshness: this vault is older than the one this machine last saw (change 2, last seen 3)"))
        #expect(try f.run(["add", "--title", "Gamma"]).status == 0)
        #expect(try f.run(["list"]).stderr.isEmpty)
    }

    @Test func passwdSaysWhichBackupsStillOpenWithTheOldPassword() throws {
        let f = try Fixture()
        #expect(try f.run(["add", "--title", "Alpha"]).status == 0)
        let changed = try f.run(["passwd"], stdin: "master\nQv7-tR2m-Lp9x-Wk4z\nQv7-tR2m-Lp9x-Wk4z\n")
        #expect(changed.status == 0)
        #expect(changed.stdout == "Master password changed; the vault key was replaced and every entry sealed again under it.\n")
        #expect(changed.stderr == "bulwark: warning: the 1 backup in \(f.dir.appendingPathComponent("backups").path) made before this change still open with the old master password; delete them if that password is known to others.\n")
    }
}
