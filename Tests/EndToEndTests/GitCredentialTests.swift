import CHardening
import Foundation
import Testing

/// `bulwark git-credential`: git's credential protocol, first on its own
/// (`--password-stdin` before git's request), then as the helper of the
/// real `git` cloning from a loopback smart-HTTP server that requires
/// basic authentication, the master password typed on the terminal.
@Suite(.serialized) struct GitCredentialTests {
    final class Forge {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bulwark-forge-\(UUID().uuidString)")
        var pid: pid_t = 0
        var port = 0
        var log: URL { directory.appendingPathComponent("requests.log") }

        init(user: String, password: String) throws {
            let root = directory.appendingPathComponent("root"), source = directory.appendingPathComponent("source")
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            for command in [["git", "init", "-q", "-b", "main", source.path],
                            ["sh", "-c", "echo hello > \(source.path)/README"],
                            ["git", "-C", source.path, "add", "README"],
                            ["git", "-C", source.path, "-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-q", "-m", "first"],
                            ["git", "clone", "-q", "--bare", source.path, root.appendingPathComponent("repo.git").path]] {
                let status = try Spawn.run(command, capture: false).status
                #expect(status == 0, "\(command)")
            }
            // The sync tests' server, asked for basic authentication; its first line is its port, read as it comes.
            let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/sync/git-http-server.py").path
            let arguments: [String] = ["python3", script, root.path, user, password, log.path]
            var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { (argument: String) in strdup(argument) }
            argv.append(nil)
            defer { argv.forEach { free($0) } }
            var fds: [Int32] = [-1, -1]
            guard bw_pipe_cloexec(&fds) == 0 else { throw POSIXError(.EIO) }
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
            let spawned = posix_spawn(&pid, "/usr/bin/python3", &actions, nil, &argv, environ)
            close(fds[1])
            defer { close(fds[0]) }
            guard spawned == 0 else { throw POSIXError(.ENOEXEC) }
            var line: [UInt8] = []
            var byte: UInt8 = 0
            while read(fds[0], &byte, 1) == 1, byte != 10 { line.append(byte) }
            port = Int(String(decoding: line, as: UTF8.self)) ?? 0
        }

        deinit {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            try? FileManager.default.removeItem(at: directory)
        }

        /// Each request's user (or "-") and status.
        var requests: [String] {
            ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").compactMap { line in
                guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
                return "\(object["user"] as? String ?? "-") \(object["status"] as? Int ?? 0)"
            }
        }
    }

    func helper(_ f: VaultCommandTests.Fixture, _ operation: String, _ request: String, config: URL? = nil) throws -> Binary.Result {
        try Binary.run(["git-credential", operation, "--vault", f.vault, "--password-stdin"], stdin: "master\n" + request,
                       environment: config.map { ["BULWARK_CONFIG": $0.path] } ?? ["BULWARK_CONFIG": "/nonexistent/bulwark-test-config"])
    }

    @Test func theProtocolOnItsOwn() throws {
        let f = try VaultCommandTests.Fixture()
        #expect(try f.run(["add", "--title", "Forge", "--url", "https://git.example:8443/team", "--username", "jane", "--entry-password-stdin"],
                          stdin: "master\nforge-pass-7\n").status == 0)
        let asked = try helper(f, "get", "protocol=https\nhost=git.example:8443\n\n")
        #expect(asked.status == 0 && asked.stdout == "username=jane\npassword=forge-pass-7\n" && asked.stderr.isEmpty, "\(asked.stderr)")
        // The path, when git sends it, must be under the entry's; the user name, when named, the entry's.
        #expect(try helper(f, "get", "protocol=https\nhost=git.example:8443\npath=team/app.git\n\n").stdout == "username=jane\npassword=forge-pass-7\n")
        for other in ["protocol=https\nhost=git.example:8443\npath=other/app.git\n\n", "protocol=https\nhost=git.example\n\n",
                      "protocol=http\nhost=git.example:8443\n\n", "protocol=https\nhost=git.example:8443\nusername=joe\n\n"] {
            let none = try helper(f, "get", other)
            #expect(none.status == 0 && none.stdout.isEmpty, "\(other)")
        }
        // erase never deletes; store keeps nothing unless the config says so.
        #expect(try helper(f, "erase", "protocol=https\nhost=git.example:8443\nusername=jane\npassword=forge-pass-7\n\n").status == 0)
        #expect(try f.run(["get", "Forge"]).stdout == "forge-pass-7\n")
        let newcomer = "protocol=https\nhost=code.example\nusername=joe\npassword=joe-pass-1\n\n"
        #expect(try helper(f, "store", newcomer).status == 0 && (try f.run(["get", "code.example"])).status == 1)
        let config = f.dir.appendingPathComponent("config")
        try Data("git-credential-store = on\n".utf8).write(to: config)
        let stored = try helper(f, "store", newcomer, config: config)
        #expect(stored.status == 0 && stored.stdout.isEmpty)
        #expect(try helper(f, "get", "protocol=https\nhost=code.example\n\n").stdout == "username=joe\npassword=joe-pass-1\n")
        // A new password for the same account replaces it, the old one kept in the history.
        #expect(try helper(f, "store", "protocol=https\nhost=code.example\nusername=joe\npassword=joe-pass-2\n\n", config: config).status == 0)
        let show = try f.json(["show", "code.example", "--json"]) as? [String: Any]
        #expect((try f.run(["get", "code.example"])).stdout == "joe-pass-2\n" && show?["username"] as? String == "joe")
    }

    /// The real git, its helper bulwark, a server that wants basic authentication.
    @Test func gitClonesWithTheVaultsLogin() throws {
        let forge = try Forge(user: "jane", password: "forge-pass-7")
        #expect(forge.port > 0)
        let f = try VaultCommandTests.Fixture()
        #expect(try f.run(["add", "--title", "Forge", "--url", "http://127.0.0.1:\(forge.port)/", "--username", "jane", "--entry-password-stdin"],
                          stdin: "master\nforge-pass-7\n").status == 0)
        let clone = forge.directory.appendingPathComponent("clone").path
        let helper = "\(Binary.path) git-credential --vault \(f.vault)"
        let tmux = try TmuxSession(width: 100, height: 20,
                                   command: "git -c credential.helper= -c 'credential.helper=\(helper)' clone -q http://127.0.0.1:\(forge.port)/repo.git \(clone)",
                                   environment: ["TERM": "xterm-256color", "GIT_TERMINAL_PROMPT": "0", "GIT_CONFIG_NOSYSTEM": "1",
                                                 "BULWARK_CONFIG": "/nonexistent/bulwark-test-config"])
        defer { tmux.close() }
        try tmux.waitFor(text: "Master password", seconds: 30)
        try tmux.sendBytes("master\r")
        let status = try tmux.exitStatus(seconds: 60)
        #expect(status == 0, "\((try? tmux.capture()) ?? "")")
        #expect(FileManager.default.contents(atPath: clone + "/README") == Data("hello\n".utf8))
        // Asked once without a name, then with the vault's login.
        #expect(forge.requests.first == "- 401" && forge.requests.contains("jane 200"), "\(forge.requests)")
    }
}
