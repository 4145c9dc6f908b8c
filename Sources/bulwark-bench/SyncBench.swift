import BulwarkCore
import Foundation

/// Sync figures (#38) at 100,000 entries, through the system's git and a
/// bare remote on disk: linking, a clone on a second machine (and git's own
/// clone of the same remote, the transfer bulwark cannot beat), one change
/// synced out and in, and how much the remote grows for it; beside them the
/// same operations on a repository laid out as `pass` lays one out (one
/// file per entry, each the size of a small gpg message; gpg's own time is
/// not counted, so it is the least `pass` + git can take).
enum SyncBench {
    static func run(directory: URL, count: Int) {
        guard let git = Git.find() else { print("sync: no git on PATH; skipped"); return }
        do {
            let remote = directory.appendingPathComponent("remote.git")
            try git.must(["init", "-q", "--bare", remote.path], in: nil, "init")
            let laptop = try Vault.create(at: directory.appendingPathComponent("laptop/vault.db"), masterPassword: "bench",
                                          parameters: VaultBench.smallKDF)
            laptop.backupPolicy = .none
            try laptop.insertNew(VaultBench.entries(count))
            let link = seconds { _ = try SyncEngine(vault: laptop, git: git).link(remote: remote.path, machineName: "laptop") }
            print(line("sync init, \(count) entries (seal, commit, push)", link))

            // git's own part of a clone: the transfer and the checkout of every file.
            let gitClone = seconds {
                try git.must(["clone", "-q", "-b", SyncEngine.branch, remote.path, directory.appendingPathComponent("git-only").path], in: nil, "clone")
            }
            var desktop: Vault?
            let clone = seconds {
                desktop = try SyncEngine.clone(remote: remote.path, to: directory.appendingPathComponent("desktop/vault.db"),
                                               masterPassword: "bench", machineName: "desktop", git: git).vault
            }
            print(line("sync clone, \(count) entries", clone) + "  target < 5 s + git (BULWARK_SYNC_TIMINGS=1 splits it)")
            print(line("git clone and checkout of the same remote", gitClone))

            let before = try objectBytes(remote, git)
            let id = try laptop.find("Account 4242").id
            _ = try laptop.update(id) { $0.notes = "changed for the bench" }
            let out = seconds { _ = try SyncEngine(vault: laptop, git: git).sync() }
            let grown = try objectBytes(remote, git) - before
            print(line("one change synced out at \(count)", out) + "  target < 0.3 s + git")
            desktop?.backupPolicy = .none
            let into = seconds { _ = try SyncEngine(vault: desktop!, git: git).sync() }
            print(line("one change synced in at \(count)", into))
            print("remote growth for that change".padding(toLength: 46, withPad: " ", startingAt: 0) + " \(grown / 1024) KiB  target < 64 KiB")
            // A deletion leaves no row to see: that sync walks every entry (see SyncScope).
            try laptop.remove(id: try laptop.find("Account 4243").id)
            print(line("one deletion synced out at \(count)", seconds { _ = try SyncEngine(vault: laptop, git: git).sync() }))
            print(line("the sync after it, one change", seconds {
                _ = try laptop.update(id) { $0.notes = "changed again" }
                _ = try SyncEngine(vault: laptop, git: git).sync()
            }))
            laptop.close()
            desktop?.close()
            if ProcessInfo.processInfo.environment["BULWARK_BENCH_SYNC_PASS"] != "0" {
                try passLayout(directory: directory.appendingPathComponent("pass"), count: count, git: git)
            }
        } catch {
            print("sync bench failed: \(error)")
        }
    }

    /// The same operations with one file per entry (`pass`'s layout), git alone.
    static func passLayout(directory: URL, count: Int, git: Git) throws {
        let store = directory.appendingPathComponent("store"), remote = directory.appendingPathComponent("remote.git")
        try git.must(["init", "-q", "--bare", remote.path], in: nil, "init")
        try git.must(["init", "-q", "-b", "main", store.path], in: nil, "init")
        let write = seconds {
            for i in 0..<count {
                let folder = store.appendingPathComponent("site\(i % 5000).example")
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                try Data(SecureRandom.bytes(600)).write(to: folder.appendingPathComponent("user\(i).gpg"))
            }
            try git.must(["add", "-A"], in: store, "add")
            try git.must(["-c", "user.name=b", "-c", "user.email=b@b", "commit", "-q", "-m", "init"], in: store, "commit")
            try git.must(["push", "-q", remote.path, "main"], in: store, "push")
        }
        print(line("pass layout: add, commit, push \(count) files", write) + "  (no gpg)")
        let clone = seconds { try git.must(["clone", "-q", "-b", "main", remote.path, directory.appendingPathComponent("clone").path], in: nil, "clone") }
        print(line("pass layout: git clone", clone))
        let before = try objectBytes(remote, git)
        let change = seconds {
            try Data(SecureRandom.bytes(600)).write(to: store.appendingPathComponent("site4242.example/user4242.gpg"))
            try git.must(["-c", "user.name=b", "-c", "user.email=b@b", "commit", "-q", "-a", "-m", "edit"], in: store, "commit")
            try git.must(["push", "-q", remote.path, "main"], in: store, "push")
        }
        print(line("pass layout: one change committed and pushed", change))
        print("pass layout: remote growth for that change".padding(toLength: 46, withPad: " ", startingAt: 0)
              + " \((try objectBytes(remote, git) - before) / 1024) KiB")
    }

    /// The bytes a repository's objects take as git stores them (each
    /// loose object's compressed file, or its share of a pack), not the
    /// file system's blocks around them (which `count-objects` counts).
    static func objectBytes(_ repository: URL, _ git: Git) throws -> Int {
        let sizes = try git.must(["cat-file", "--batch-all-objects", "--batch-check=%(objectsize:disk)"], in: repository, "cat-file")
        return sizes.split(separator: "\n").reduce(0) { $0 + (Int($1) ?? 0) }
    }

    static func seconds(_ body: () throws -> Void) -> Double {
        let start = Measure.now()
        do { try body() } catch { print("  failed: \(error)") }
        return Double(Measure.now() - start) / 1e9
    }

    static func line(_ name: String, _ seconds: Double) -> String {
        name.padding(toLength: max(46, name.count), withPad: " ", startingAt: 0) + " " + Measure.format(seconds)
    }
}
