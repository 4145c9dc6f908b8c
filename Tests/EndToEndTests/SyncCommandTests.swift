import Foundation
import Testing

/// `bulwark sync` through the real binary and the system's git: machines
/// are vault files of their own on one bare remote.
@Suite struct SyncCommandTests {
    final class Machines {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("bulwark-sync-\(UUID().uuidString)")
        var remote: String { dir.appendingPathComponent("remote.git").path }

        init() throws {
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            #expect(try git(["init", "-q", "--bare", remote]).status == 0)
        }

        deinit { try? FileManager.default.removeItem(at: dir) }

        func vault(_ machine: String) -> String { dir.appendingPathComponent("\(machine)/vault.db").path }

        func run(_ machine: String, _ args: [String], stdin: String = "master\n", environment: [String: String] = [:]) throws -> Binary.Result {
            try Binary.run(args + ["--vault", vault(machine), "--password-stdin"], stdin: stdin, environment: environment)
        }

        func git(_ args: [String], in directory: String? = nil) throws -> Binary.Result {
            try Binary.run((directory.map { ["-C", $0] } ?? []) + args, program: "/usr/bin/git")
        }

        /// A new vault on `machine` with entries titled `titles`.
        func create(_ machine: String, _ titles: [String]) throws {
            #expect(try run(machine, ["init", "--scrypt-log-n", "10", "--i-know-this-is-weak"], stdin: "master\nmaster\n").status == 0)
            for title in titles {
                let added = try run(machine, ["add", "--title", title, "--url", "https://\(title.lowercased()).example", "--username", "jane",
                                              "--entry-password-stdin"], stdin: "master\n\(title.lowercased())-password-1\n")
                #expect(added.status == 0)
            }
        }

        func titles(_ machine: String) throws -> [String] {
            let listed = try run(machine, ["list", "--json"])
            let entries = try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]] ?? []
            return entries.compactMap { $0["title"] as? String }.sorted()
        }
    }

    @Test func initCloneAndSyncSayWhatMovedByTitle() throws {
        let m = try Machines()
        try m.create("laptop", ["Mail", "Bank"])
        let linked = try m.run("laptop", ["sync", "init", m.remote, "--name", "laptop"])
        #expect(linked.status == 0, "\(linked.stderr)")
        #expect(linked.stdout == "Linked \(m.vault("laptop")) to \(m.remote) as laptop.\nOut: 2 changes (Bank, Mail)\n")
        let cloned = try m.run("desktop", ["sync", "clone", m.remote, "--name", "desktop"])
        #expect(cloned.status == 0, "\(cloned.stderr)")
        #expect(cloned.stdout == "Cloned 2 entries from \(m.remote) into \(m.vault("desktop")) as desktop.\n")
        #expect(cloned.stderr == "")
        #expect(try m.titles("desktop") == ["Bank", "Mail"])

        #expect(try m.run("desktop", ["edit", "Mail", "--notes", "from the desktop"]).status == 0)
        #expect(try m.run("desktop", ["rm", "Bank"]).status == 0)
        #expect(try m.run("desktop", ["sync"]).stdout == "Out: 2 changes (Bank (deleted), Mail)\n")
        #expect(try m.run("laptop", ["sync"]).stdout == "In:  2 changes from desktop (Bank (deleted), Mail)\n")
        #expect(try m.titles("laptop") == ["Mail"])
        #expect(try m.run("laptop", ["sync"]).stdout == "Up to date.\n")
        // The same vault in two files on one machine: each its own counters, no rollback said of either.
        #expect(try m.run("laptop", ["list"]).stderr == "")
        #expect(try m.run("desktop", ["list"]).stderr == "")

        let status = try m.run("laptop", ["sync", "status", "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])
        #expect(object["remote"] as? String == m.remote)
        #expect(object["machine"] as? String == "laptop")
        #expect((object["machines"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["desktop", "laptop"])
        #expect(object["outgoing"] as? [String] == [])
        #expect((object["incoming"] as? [Any])?.isEmpty == true)
        #expect(object["offline"] is NSNull)
    }

    @Test func aRemoteThatIsNotABulwarkRepositoryOrAnotherVaultsIsRefusedAndNothingChanges() throws {
        let m = try Machines()
        try m.create("laptop", ["Mail"])
        // A repository holding something else.
        let other = m.dir.appendingPathComponent("other.git").path
        let work = m.dir.appendingPathComponent("work").path
        #expect(try m.git(["init", "-q", "--bare", other]).status == 0)
        #expect(try m.git(["clone", "-q", other, work]).status == 0)
        try Data("hello\n".utf8).write(to: URL(fileURLWithPath: work + "/README.md"))
        #expect(try m.git(["add", "README.md"], in: work).status == 0)
        #expect(try m.git(["-c", "user.name=t", "-c", "user.email=t@example", "commit", "-q", "-m", "readme"], in: work).status == 0)
        #expect(try m.git(["push", "-q", "origin", "HEAD:main"], in: work).status == 0)
        let refused = try m.run("laptop", ["sync", "init", other])
        #expect(refused.status == 1)
        #expect(refused.stderr == "bulwark: the remote is not a bulwark sync repository: it holds other files (README.md); give an empty repository or one `bulwark sync init` made.\n")
        #expect(!FileManager.default.fileExists(atPath: m.vault("laptop") + ".sync/state"))

        // Another vault's remote.
        #expect(try m.run("laptop", ["sync", "init", m.remote]).status == 0)
        try m.create("stranger", ["Other"])
        let stranger = try m.run("stranger", ["sync", "init", m.remote])
        #expect(stranger.status == 1)
        #expect(stranger.stderr.hasPrefix("bulwark: the remote holds another vault (its vault is "))
        #expect(stranger.stderr.hasSuffix("; give this vault's remote, or an empty repository.\n"))
        #expect(try m.titles("stranger") == ["Other"])

        // Not a repository at all, and nowhere to be reached.
        let missing = try m.run("stranger", ["sync", "init", m.dir.appendingPathComponent("nothing-here").path])
        #expect(missing.status == 1 && missing.stderr.hasPrefix("bulwark: cannot reach \(m.dir.appendingPathComponent("nothing-here").path): "))
        let unreachable = try m.run("stranger", ["sync", "init", "git://127.0.0.1:9/vault.git"])
        #expect(unreachable.status == 1 && unreachable.stderr.hasPrefix("bulwark: cannot reach git://127.0.0.1:9/vault.git: "))
    }

    @Test func passwdOnOneMachineIsFollowedOnTheNextSyncOfAnother() throws {
        let m = try Machines()
        try m.create("laptop", ["Mail"])
        #expect(try m.run("laptop", ["sync", "init", m.remote, "--name", "laptop"]).status == 0)
        #expect(try m.run("desktop", ["sync", "clone", m.remote, "--name", "desktop"]).status == 0)
        #expect(try m.run("laptop", ["passwd", "--scrypt-log-n", "10", "--i-know-this-is-weak"],
                          stdin: "master\nnew master pass\nnew master pass\n").status == 0)
        #expect(try m.run("laptop", ["sync"], stdin: "new master pass\n").stdout
                == "The remote is sealed again under the new master password; the other machines ask for it once.\nUp to date.\n")
        let wrong = try m.run("desktop", ["sync"], stdin: "master\nnot it\n")
        #expect(wrong.status == 1)
        #expect(wrong.stderr == "bulwark: the master password was changed on another machine.\nbulwark: that is not the new master password; nothing was changed.\n")
        let followed = try m.run("desktop", ["sync"], stdin: "master\nnew master pass\n")
        #expect(followed.status == 0, "\(followed.stderr)")
        #expect(followed.stdout == "This vault now opens with the new master password.\nUp to date.\n")
        #expect(try m.run("desktop", ["list"], stdin: "new master pass\n").status == 0)
        #expect(try m.run("desktop", ["list"], stdin: "master\n").status == 1)
    }

    @Test func doctorChecksGitAndTheRemote() throws {
        let m = try Machines()
        try m.create("laptop", ["Mail"])
        let before = try Binary.run(["doctor", "--json", "--vault", m.vault("laptop")])
        #expect(!before.stdout.contains("\"area\" : \"sync\""))   // not linked: nothing said
        #expect(try m.run("laptop", ["sync", "init", m.remote]).status == 0)
        // The sync lines, their padding (set by the longest name of every area) taken out.
        func lines(_ result: Binary.Result) -> [String] {
            let text = result.stdout.components(separatedBy: "\nSync\n").last ?? ""
            return text.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ") }
        }
        let linked = lines(try Binary.run(["doctor", "--vault", m.vault("laptop")]))
        #expect(linked.first?.hasPrefix("[ok] git git version ") == true)
        #expect(linked.dropFirst().first?.hasPrefix("[ok] remote \(m.remote) answers; main is at ") == true)
        try FileManager.default.moveItem(atPath: m.remote, toPath: m.remote + ".gone")
        let gone = lines(try Binary.run(["doctor", "--vault", m.vault("laptop")]))
        #expect(gone.dropFirst().first?.hasPrefix("[warn] remote cannot reach \(m.remote): ") == true)
        #expect(gone.dropFirst(2).first == "fix: git ls-remote \(m.remote)")
        let noGit = try Binary.run(["doctor", "--vault", m.vault("laptop")], environment: ["BULWARK_GIT": "/nonexistent/git"])
        #expect(noGit.status == 1)
        #expect(lines(noGit).first == "[FAIL] git not found on PATH: the vault is linked to a remote but cannot sync")
    }

    @Test func cloneWithAWrongPasswordOrNoRepositoryMakesNothing() throws {
        let m = try Machines()
        try m.create("laptop", ["Mail"])
        #expect(try m.run("laptop", ["sync", "init", m.remote]).status == 0)
        let wrong = try m.run("desktop", ["sync", "clone", m.remote], stdin: "not-the-password\n")
        #expect(wrong.status == 1)
        #expect(wrong.stderr == "bulwark: that is not the vault's master password; nothing was made here.\n")
        #expect(!FileManager.default.fileExists(atPath: m.vault("desktop")))
        #expect(!FileManager.default.fileExists(atPath: m.vault("desktop") + ".sync"))
        let empty = m.dir.appendingPathComponent("empty.git").path
        #expect(try m.git(["init", "-q", "--bare", empty]).status == 0)
        let nothing = try m.run("desktop", ["sync", "clone", empty])
        #expect(nothing.status == 1)
        #expect(nothing.stderr == "bulwark: the remote is not a bulwark sync repository: it has no branch main (an empty repository, or another kind); give an empty repository or one `bulwark sync init` made. Nothing was made here.\n")
        #expect(!FileManager.default.fileExists(atPath: m.vault("desktop")))
    }

    @Test func withoutGitOrWithARemoteThatRefusesThePushItSaysSo() throws {
        let m = try Machines()
        try m.create("laptop", ["Mail"])
        let noGit = try m.run("laptop", ["sync", "init", m.remote], environment: ["BULWARK_GIT": "/nonexistent/git"])
        #expect(noGit.status == 1)
        #expect(noGit.stderr == "bulwark: sync needs git, which is not installed here (Debian: apt install git); nothing was changed.\n")
        #expect(try m.run("laptop", ["sync", "init", m.remote]).status == 0)
        // The host now refuses every push (as a remote this machine may not write to does).
        let hook = m.remote + "/hooks/pre-receive"
        try Data("#!/bin/sh\necho 'permission denied' >&2\nexit 1\n".utf8).write(to: URL(fileURLWithPath: hook))
        chmod(hook, 0o755)
        #expect(try m.run("laptop", ["edit", "Mail", "--notes", "kept here"]).status == 0)
        let refused = try m.run("laptop", ["sync"])
        #expect(refused.status == 1)
        #expect(refused.stderr.hasPrefix("bulwark: the remote refused the push: "))
        #expect(refused.stderr.hasSuffix("check that this machine may write to \(m.remote). Your changes stay here and go out at the next sync.\n"))
        unlink(hook)
        #expect(try m.run("laptop", ["sync"]).stdout == "Out: 1 change (Mail)\n")
    }

    /// SIGKILL at each step of a sync: the vault opens whole, and the next
    /// sync completes what the killed one began; both machines end equal.
    @Test(arguments: ["sync-fetched", "sync-merged", "sync-committed", "sync-pushed", "sync-recorded", "write-rows", "write-indexed"])
    func aKillAtAnyStepOfASyncLosesNothing(point: String) throws {
        let m = try Machines()
        try m.create("laptop", ["Mail", "Bank"])
        #expect(try m.run("laptop", ["sync", "init", m.remote, "--name", "laptop"]).status == 0)
        #expect(try m.run("desktop", ["sync", "clone", m.remote, "--name", "desktop"]).status == 0)
        #expect(try m.run("laptop", ["edit", "Mail", "--notes", "laptop's"]).status == 0)
        #expect(try m.run("laptop", ["sync"]).status == 0)
        #expect(try m.run("desktop", ["edit", "Bank", "--notes", "desktop's"]).status == 0)
        #expect(try m.run("desktop", ["edit", "Mail", "--username", "jane.doe"]).status == 0)
        let killed = try m.run("desktop", ["sync"], environment: ["BULWARK_KILL_AT": point])
        #expect(killed.status == 128 + SIGKILL, "\(point): \(killed.stdout) \(killed.stderr)")
        #expect(try m.run("desktop", ["check"]).status == 0)
        #expect(try m.run("desktop", ["sync"]).status == 0)
        #expect(try m.run("laptop", ["sync"]).status == 0)
        for machine in ["laptop", "desktop"] {
            let mail = try JSONSerialization.jsonObject(with: Data(try m.run(machine, ["show", "Mail", "--json"]).stdout.utf8)) as? [String: Any]
            let bank = try JSONSerialization.jsonObject(with: Data(try m.run(machine, ["show", "Bank", "--json"]).stdout.utf8)) as? [String: Any]
            #expect(mail?["notes"] as? String == "laptop's", "\(point) \(machine)")
            #expect(mail?["username"] as? String == "jane.doe", "\(point) \(machine)")
            #expect(bank?["notes"] as? String == "desktop's", "\(point) \(machine)")
        }
        #expect(try m.run("desktop", ["sync"]).stdout == "Up to date.\n")
    }
}
