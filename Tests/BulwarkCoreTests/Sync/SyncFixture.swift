import Foundation
@testable import BulwarkCore

/// Machines syncing one vault through a bare git repository on disk, with
/// the system's git: each machine a vault file of its own.
final class SyncFixture {
    let dir = TemporaryDirectory()
    let git: Git
    var remote: URL { dir.file("remote.git") }
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    init() throws {
        guard let git = Git.find() else { throw SyncError.git("the tests need git") }
        self.git = git
        try git.must(["init", "-q", "--bare", remote.path], in: nil, "cannot make the remote")
    }

    struct Machine {
        let name: String
        let vault: Vault
        let engine: SyncEngine
        @discardableResult func sync() throws -> SyncEngine.Report { try engine.sync() }
        func entry(_ title: String) -> Entry? { vault.entries.first { $0.title == title } }
        func titles() -> [String] { vault.entries.map(\.title).sorted() }
    }

    /// The first machine: a new vault with `entries`, linked to the remote.
    func first(_ name: String = "laptop", entries: [Entry]) throws -> Machine {
        let vault = try Vault.create(at: dir.file("\(name)/vault.db"), masterPassword: "master", parameters: testParameters)
        for entry in entries { try vault.save(entry) }
        let engine = SyncEngine(vault: vault, git: git)
        try engine.link(remote: remote.path, machineName: name)
        return Machine(name: name, vault: vault, engine: engine)
    }

    /// Another machine, cloned from the remote.
    func clone(_ name: String) throws -> Machine {
        let (vault, _) = try SyncEngine.clone(remote: remote.path, to: dir.file("\(name)/vault.db"), masterPassword: "master",
                                              machineName: name, git: git)
        return Machine(name: name, vault: vault, engine: SyncEngine(vault: vault, git: git))
    }

    static func entry(_ title: String, password: String = "a-password-1", at offset: TimeInterval = 0) -> Entry {
        var entry = Entry(title: title, urls: ["https://\(title.lowercased()).example"], username: "jane", password: password, created: t0 + offset)
        entry.modified = t0 + offset
        return entry
    }

    /// Changes the entry titled `title` on `machine`, dated `offset` seconds after t0.
    static func edit(_ machine: Machine, _ title: String, at offset: TimeInterval, _ change: (inout Entry) -> Void) throws {
        guard let entry = machine.entry(title) else { throw VaultError.entryNotFound(title) }
        _ = try machine.vault.update(entry.id) { e in
            change(&e)
            e.modified = t0 + offset
        }
    }

    /// A scratch clone of the remote, for a test that plays a hostile host.
    func hostile(_ body: (URL) throws -> Void, message: String = "tampered") throws {
        let scratch = dir.file("hostile-\(UUID().uuidString.prefix(6))")
        try git.must(["clone", "-q", "-b", SyncEngine.branch, remote.path, scratch.path], in: nil, "clone")
        try body(scratch)
        try git.must(["-c", "user.name=mallory", "-c", "user.email=m@example", "commit", "-q", "-a", "--allow-empty", "-m", message], in: scratch, "commit")
        try git.must(["push", "-q", "-f", "origin", "HEAD:\(SyncEngine.branch)"], in: scratch, "push")
    }
}
