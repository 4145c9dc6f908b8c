import Foundation
import CHardening
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `bulwark ssh-agent` with OpenSSH's own tools: ssh-add lists the vault's
/// keys by title, ssh-keygen -Y signs through it and verifies what it
/// signed, ssh logs in to an sshd the test starts on 127.0.0.1 with a vault
/// key and git clones over it, and what ssh-add may not do is refused.
@Suite(.serialized) struct SSHAgentTests {
    static let tools = ["/usr/bin/ssh-add", "/usr/bin/ssh-keygen", "/usr/bin/ssh"]

    final class Served {
        let a: AgentCommandTests.Agent
        let pid: pid_t
        let socket: String
        let log: URL

        /// `approve`: what each key's entry says (never, unless a test asks otherwise). The agent runs in a
        /// session of its own (setsid): no terminal to ask on, wherever the tests run.
        init(approve: String = "never", config: String = "") throws {
            a = try AgentCommandTests.Agent(config: config)
            #expect(try a.unlock().status == 0)
            for (title, type) in [("Work laptop", "ed25519"), ("Build box", "ecdsa")] {
                #expect(try a.run(["ssh-key", "new", "--title", title, "--type", type, "--approve", approve]).status == 0)
            }
            let rsa = a.f.dir.appendingPathComponent("id_rsa").path
            #expect(try SSHAgentTests.run("/usr/bin/ssh-keygen", ["-q", "-t", "rsa", "-b", "3072", "-N", "", "-C", "Old server", "-f", rsa]).status == 0)
            let imported = try a.run(["ssh-key", "import", rsa, "--approve", approve])
            #expect(imported.status == 0 && imported.stdout.hasSuffix(" Old server\n"), "\(imported.stderr)")
            socket = a.f.dir.appendingPathComponent("run/ssh-agent.sock").path
            log = a.f.dir.appendingPathComponent("ssh-agent.log")
            FileManager.default.createFile(atPath: log.path, contents: nil)
            // Started in a session of its own (POSIX_SPAWN_SETSID), so it has no terminal to ask on.
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            let out = a.f.dir.appendingPathComponent("ssh-agent.out").path
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            posix_spawn_file_actions_addopen(&actions, 2, log.path, O_WRONLY | O_APPEND, 0)
            bw_spawn_close_from(&actions, 3)
            var attributes = Spawn.cleanSignals()
            defer { posix_spawnattr_destroy(&attributes) }
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF) | bw_spawn_setsid_flag())
            var environment = ProcessInfo.processInfo.environment
            environment["XDG_STATE_HOME"] = Binary.stateDirectory
            for (key, value) in a.environment { environment[key] = value }
            let arguments: [String] = [Binary.path, "ssh-agent", "--vault", a.f.vault]
            var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
            var envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
            defer { (argv + envp).forEach { free($0) } }
            var started: pid_t = 0
            #expect(posix_spawn(&started, Binary.path, &actions, &attributes, &argv, &envp) == 0)
            pid = started
            // Its first line says where it listens, once it does.
            let said = { (try? String(contentsOfFile: out, encoding: .utf8)) ?? "" }
            #expect(try Poll.until(seconds: 30) { said().contains("\n") })
            #expect(said() == "SSH_AUTH_SOCK=\(socket); export SSH_AUTH_SOCK;\n")
        }

        deinit {
            kill(pid, SIGTERM)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }

        func tool(_ path: String, _ arguments: [String], stdin: String = "") throws -> Binary.Result {
            try Binary.run(arguments, stdin: stdin, environment: ["SSH_AUTH_SOCK": socket], program: path)
        }

        var logText: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }
    }

    static func run(_ path: String, _ arguments: [String]) throws -> Binary.Result { try Binary.run(arguments, program: path) }

    static var haveTools: Bool { tools.allSatisfy { FileManager.default.isExecutableFile(atPath: $0) } }

    @Test func sshAddListsTheVaultsKeysAndSshKeygenVerifiesWhatItSigns() throws {
        guard Self.haveTools else { print("SKIP sshAddListsTheVaultsKeys…: needs openssh-client"); return }
        let s = try Served()
        let listed = try s.tool("/usr/bin/ssh-add", ["-l"])
        #expect(listed.status == 0)
        let comments: [String] = listed.stdout.split(separator: "\n").map { $0.split(separator: " ").dropFirst(2).joined(separator: " ") }
        #expect(comments == ["Build box (ECDSA)", "Old server (RSA)", "Work laptop (ED25519)"], "\(listed.stdout)")
        for title in ["Work laptop", "Build box", "Old server"] {
            let pub = s.a.f.dir.appendingPathComponent("key.pub")
            try (try s.a.run(["ssh-key", "public", title])).stdout.write(to: pub, atomically: true, encoding: .utf8)
            let data = s.a.f.dir.appendingPathComponent("data")
            try "sign me \(title)".write(to: data, atomically: true, encoding: .utf8)
            try? FileManager.default.removeItem(atPath: data.path + ".sig")
            let signed = try s.tool("/usr/bin/ssh-keygen", ["-Y", "sign", "-f", pub.path, "-n", "file", data.path])
            #expect(signed.status == 0, "\(title): \(signed.stderr)")
            let allowed = s.a.f.dir.appendingPathComponent("allowed")
            try "jane \(try String(contentsOf: pub, encoding: .utf8))".write(to: allowed, atomically: true, encoding: .utf8)
            let verified = try s.tool("/usr/bin/ssh-keygen", ["-Y", "verify", "-f", allowed.path, "-I", "jane", "-n", "file", "-s", data.path + ".sig"],
                                      stdin: "sign me \(title)")
            #expect(verified.status == 0 && verified.stdout.hasPrefix("Good \"file\" signature for jane"), "\(title): \(verified.stdout) \(verified.stderr)")
        }
        #expect(s.logText.contains("signed with Work laptop") && s.logText.contains("signed with Old server"))
    }

    @Test func whatSshAddMayNotDoIsRefused() throws {
        guard Self.haveTools else { print("SKIP whatSshAddMayNotDoIsRefused: needs openssh-client"); return }
        let s = try Served()
        let removed = try s.tool("/usr/bin/ssh-add", ["-D"])
        #expect(removed.status != 0 && removed.stderr.contains("Failed to remove all identities"))
        let locked = try s.tool("/usr/bin/ssh-add", ["-x"], stdin: "pass\npass\n")
        #expect(locked.status != 0)
        #expect(try s.tool("/usr/bin/ssh-add", ["-l"]).stdout.split(separator: "\n").count == 3)
        #expect(s.logText.contains("refused to remove a key: the vault's keys are removed in the vault"))
        let second = try s.a.run(["ssh-agent"])
        #expect(second.status == 1 && second.stderr == "bulwark: an agent already answers on \(s.socket) (another ssh-agent).\n", "\(second.stderr)")
    }

    /// A key protected by a passphrase is opened by ssh-keygen (bulwark its askpass) and kept without it;
    /// a wrong passphrase imports nothing; no working copy is left in the runtime folder.
    @Test(arguments: [["-t", "ed25519"], ["-t", "rsa", "-b", "2048", "-m", "PEM"], ["-t", "ecdsa", "-m", "PKCS8"]])
    func aKeyWithAPassphraseIsOpenedByTheOwnersSshKeygen(kind: [String]) throws {
        guard Self.haveTools else { print("SKIP aKeyWithAPassphrase…: needs openssh-client"); return }
        let a = try AgentCommandTests.Agent()
        let file = a.f.dir.appendingPathComponent("id_work").path
        #expect(try Self.run("/usr/bin/ssh-keygen", ["-q", "-N", "open sesame", "-C", "Work key", "-f", file] + kind).status == 0)
        let importing = { (stdin: String) in try Binary.run(["ssh-key", "import", file, "--vault", a.f.vault, "--password-stdin"], stdin: stdin, environment: a.environment) }
        let wrong = try importing("master\nclose sesame\n")
        #expect(wrong.status == 1 && wrong.stderr == "bulwark: the passphrase does not open id_work. Nothing was imported.\n", "\(wrong.stderr)")
        let imported = try importing("master\nopen sesame\n")
        let publicLine = try String(contentsOfFile: file + ".pub", encoding: .utf8)
        #expect(imported.status == 0 && imported.stdout == publicLine, "\(imported.stdout) \(imported.stderr)")
        // Kept without the passphrase: read back with none.
        #expect(try a.f.run(["ssh-key", "public", "Work key"]).stdout == publicLine)
        let runtime = a.f.dir.appendingPathComponent("run").path
        #expect(try FileManager.default.contentsOfDirectory(atPath: runtime).filter { !$0.hasSuffix("agent.sock") } == [])
    }

    /// `eval "$(bulwark ssh-agent --background)"`: the lines for the shell once it answers; refused before bulwark unlock.
    @Test func inTheBackgroundAfterUnlock() throws {
        guard Self.haveTools else { print("SKIP inTheBackgroundAfterUnlock: needs openssh-client"); return }
        let a = try AgentCommandTests.Agent()
        #expect(try a.run(["ssh-key", "new", "--title", "Laptop"], stdin: "master\n").stderr == AgentCommandTests.asks)
        let early = try a.run(["ssh-agent", "--background"])
        #expect(early.status == 1 && early.stderr == "bulwark: run bulwark unlock first: an SSH agent in the background cannot ask for the master password.\n")
        #expect(try a.unlock().status == 0)
        #expect(try a.run(["ssh-key", "new", "--title", "Laptop"]).status == 0)
        let started = try a.run(["ssh-agent", "--background"])
        let socket = a.f.dir.appendingPathComponent("run/ssh-agent.sock").path
        let lines = started.stdout.split(separator: "\n")
        #expect(started.status == 0 && lines.count == 2 && lines[0] == "SSH_AUTH_SOCK=\(socket); export SSH_AUTH_SOCK;", "\(started.stdout) \(started.stderr)")
        let pid = lines.last.flatMap { Int32($0.dropFirst("SSH_AGENT_PID=".count).prefix { $0.isNumber }) } ?? 0
        #expect(pid > 0)
        defer { kill(pid, SIGTERM) }
        let listed = try Binary.run(["-l"], environment: ["SSH_AUTH_SOCK": socket], program: "/usr/bin/ssh-add")
        #expect(listed.status == 0 && listed.stdout.hasSuffix(" Laptop (ED25519)\n"), "\(listed.stdout)")
    }

    /// ssh logs in with a vault key to an sshd of the test's own (its config, host key and authorized_keys in a temporary folder).
    @Test func sshLogsInWithAVaultKey() throws {
        guard Self.haveTools, FileManager.default.isExecutableFile(atPath: "/usr/sbin/sshd") else {
            print("SKIP sshLogsInWithAVaultKey: needs openssh-client and openssh-server")
            return
        }
        let s = try Served()
        let dir = s.a.f.dir
        let server = try SSHServer(dir: dir, authorizing: try s.a.run(["ssh-key", "public", "Work laptop"]).stdout)
        let port = server.port, user = SSHServer.user
        let login = try s.tool("/usr/bin/ssh", server.login("echo logged in as $(id -un)"))
        #expect(login.status == 0 && login.stdout == "logged in as \(user)\n", "\(login.stderr) \(server.logText)")
        #expect(s.logText.contains("signed with Work laptop for a session bound to host key SHA256:"))
        // git over ssh from the same sshd, the key still in the vault.
        let origin = dir.appendingPathComponent("origin.git").path
        #expect(try Self.run("/usr/bin/git", ["init", "-q", "--bare", origin]).status == 0)
        let work = dir.appendingPathComponent("work").path
        #expect(try Self.run("/usr/bin/git", ["init", "-q", work]).status == 0)
        #expect(try Self.run("/usr/bin/git", ["-C", work, "-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-q", "--allow-empty", "-m", "first"]).status == 0)
        #expect(try Self.run("/usr/bin/git", ["-C", work, "push", "-q", origin, "HEAD:refs/heads/main"]).status == 0)
        let sshCommand = "ssh -F /dev/null -o BatchMode=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o IdentityFile=none -p \(port)"
        let clone = try Binary.run(["clone", "-q", "-b", "main", "ssh://\(user)@127.0.0.1\(origin)", dir.appendingPathComponent("cloned").path],
                                   environment: ["SSH_AUTH_SOCK": s.socket, "GIT_SSH_COMMAND": sshCommand], program: "/usr/bin/git")
        #expect(clone.status == 0, "\(clone.stderr)")
        #expect(try Self.run("/usr/bin/git", ["-C", dir.appendingPathComponent("cloned").path, "log", "--format=%s"]).stdout == "first\n")
    }
}

/// An sshd of the test's own on 127.0.0.1: its config, host key and
/// authorized_keys in the test's folder, run as the test's user.
final class SSHServer {
    let port: UInt16
    let process = Process()
    let log: URL
    let hostKeyFingerprint: String
    static let user = String(cString: getpwuid(getuid())!.pointee.pw_name)
    static var available: Bool { SSHAgentTests.haveTools && FileManager.default.isExecutableFile(atPath: "/usr/sbin/sshd") }

    init(dir: URL, authorizing publicLine: String) throws {
        let hostKey = dir.appendingPathComponent("host_key").path
        #expect(try SSHAgentTests.run("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", hostKey]).status == 0)
        hostKeyFingerprint = String(try SSHAgentTests.run("/usr/bin/ssh-keygen", ["-l", "-f", hostKey + ".pub"]).stdout.split(separator: " ")[1])
        try publicLine.write(to: dir.appendingPathComponent("authorized_keys"), atomically: true, encoding: .utf8)
        port = SyncTransportTests.freePort()
        try """
        Port \(port)
        ListenAddress 127.0.0.1
        HostKey \(hostKey)
        PidFile \(dir.path)/sshd.pid
        AuthorizedKeysFile \(dir.path)/authorized_keys
        PubkeyAuthentication yes
        PasswordAuthentication no
        KbdInteractiveAuthentication no
        PermitRootLogin prohibit-password
        UsePAM no
        StrictModes no
        """.write(to: dir.appendingPathComponent("sshd_config"), atomically: true, encoding: .utf8)
        if getuid() == 0 { mkdir("/run/sshd", 0o755) }  // sshd's privilege separation folder, made by its service otherwise
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/sshd")
        process.arguments = ["-D", "-e", "-f", dir.appendingPathComponent("sshd_config").path]
        log = dir.appendingPathComponent("sshd.log")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: log)
        try process.run()
        #expect(SyncTransportTests.waitForListener(port))
    }

    deinit {
        process.terminate()
        process.waitUntilExit()
    }

    /// ssh's arguments to run `command` there with the agent's keys alone.
    func login(_ command: String) -> [String] {
        ["-T", "-F", "/dev/null", "-o", "BatchMode=yes", "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
         "-o", "IdentityFile=none", "-p", "\(port)", "\(Self.user)@127.0.0.1", command]
    }

    var logText: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }
}
