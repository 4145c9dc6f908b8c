import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Approvals of `bulwark ssh-agent`'s signatures, with OpenSSH's own tools:
/// a key set to ask is approved in the open app under tmux (ssh logs in) or
/// declined there (ssh is refused); "once per unlock" asks the configured
/// command once until the vault locks; a locked vault lists and signs
/// nothing; with nobody to ask, the refusal says the ways out.
@Suite(.serialized) struct SSHApprovalCommandTests {
    /// `ssh-keygen -Y sign` through the agent with `title`'s public key; its result.
    static func sign(_ s: SSHAgentTests.Served, _ title: String) throws -> Binary.Result {
        let dir = s.a.f.dir
        // Written once per key, while the vault is open: a later sign may find it locked.
        let pub = dir.appendingPathComponent("\(title).pub")
        if !FileManager.default.fileExists(atPath: pub.path) {
            try (try s.a.run(["ssh-key", "public", title])).stdout.write(to: pub, atomically: true, encoding: .utf8)
        }
        let data = dir.appendingPathComponent("data")
        try "sign me".write(to: data, atomically: true, encoding: .utf8)
        try? FileManager.default.removeItem(atPath: data.path + ".sig")
        return try s.tool("/usr/bin/ssh-keygen", ["-Y", "sign", "-f", pub.path, "-n", "file", data.path])
    }

    @Test func approvedInTheOpenAppThenDeclined() throws {
        guard SSHServer.available, FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux") else {
            print("SKIP approvedInTheOpenAppThenDeclined: needs openssh-client, openssh-server and tmux")
            return
        }
        let s = try SSHAgentTests.Served(approve: "ask")
        let server = try SSHServer(dir: s.a.f.dir, authorizing: try s.a.run(["ssh-key", "public", "Work laptop"]).stdout)
        // The app, opened by the agent's key (no lock screen), takes the questions.
        let app = try TmuxSession(width: 100, height: 30, command: "\(Binary.path) open --vault \(s.a.f.vault)",
                                  environment: s.a.environment.merging(["TERM": "xterm-256color"]) { $1 })
        _ = try app.waitFor(text: "Work laptop")
        #expect(try Poll.until(seconds: 10) { FileManager.default.fileExists(atPath: s.a.f.dir.appendingPathComponent("run/approvals.sock").path) })
        for approve in [true, false] {
            let arguments = server.login("echo logged in"), agent = s.socket
            let login = Background { try Binary.run(arguments, environment: ["SSH_AUTH_SOCK": agent], program: "/usr/bin/ssh") }
            let sheet = try app.waitFor(text: "Sign with an SSH key?", seconds: 30)
            #expect(sheet.contains("│ Key       Work laptop"))
            #expect(sheet.contains("│ Asked by  /usr/bin/ssh -T -F /dev/null"), "\(sheet)")
            // The host key sshd signed this session with (not in any known_hosts here, so named by its key alone).
            #expect(sheet.contains("│ Host      the host with key") && sheet.contains(server.hostKeyFingerprint), "\(sheet)")
            #expect(sheet.contains("The key's entry asks every time. Nothing is signed until you answer."))
            #expect(sheet.contains("y approve  n decline"))
            // A key the sheet does not take is not an answer.
            try app.sendBytes("x")
            try app.sendBytes(approve ? "y" : "n")
            let result = try login.wait()
            if approve {
                #expect(result.status == 0 && result.stdout == "logged in\n", "\(result.stderr) \(server.logText)")
                _ = try app.waitFor(text: "Approved: ssh signs with Work laptop.")
            } else {
                #expect(result.status == 255 && result.stderr.contains("Permission denied (publickey)"), "\(result.stderr)")
                _ = try app.waitFor(text: "Declined: nothing was signed with Work laptop.")
            }
        }
        #expect(s.logText.contains("the app approved a signature with Work laptop for /usr/bin/ssh -T"))
        #expect(s.logText.contains("not signed with Work laptop: declined in the app"))
        try app.sendBytes("q")
        #expect(try app.exitStatus() == 0)
    }

    /// Without the app, an agent run in a terminal asks there: y signs, anything else declines.
    @Test func inItsTerminalTheAgentAsksThere() throws {
        guard SSHAgentTests.haveTools, FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux") else {
            print("SKIP inItsTerminalTheAgentAsksThere: needs openssh-client and tmux")
            return
        }
        let a = try AgentCommandTests.Agent()
        #expect(try a.unlock().status == 0)
        #expect(try a.run(["ssh-key", "new", "--title", "Laptop", "--approve", "ask"]).status == 0)
        let pub = a.f.dir.appendingPathComponent("laptop.pub")
        try (try a.run(["ssh-key", "public", "Laptop"])).stdout.write(to: pub, atomically: true, encoding: .utf8)
        let pane = try TmuxSession(width: 120, height: 30, command: "\(Binary.path) ssh-agent --vault \(a.f.vault)",
                                   environment: a.environment.merging(["TERM": "xterm-256color"]) { $1 })
        _ = try pane.waitFor(text: "asks before signing with Laptop every time: in the open app, else on this terminal")
        let agent = a.f.dir.appendingPathComponent("run/ssh-agent.sock").path, data = a.f.dir.appendingPathComponent("data").path
        try "sign me".write(toFile: data, atomically: true, encoding: .utf8)
        for (round, (typed, approved)) in [("y", true), ("no", false)].enumerated() {
            try? FileManager.default.removeItem(atPath: data + ".sig")
            let arguments = ["-Y", "sign", "-f", pub.path, "-n", "file", data]
            let signing = Background { try Binary.run(arguments, environment: ["SSH_AUTH_SOCK": agent], program: "/usr/bin/ssh-keygen") }
            let asked = try pane.waitFor("question \(round + 1)") { $0.components(separatedBy: "Allow this signature? [y/N]").count == round + 2 }
            let joined = asked.replacingOccurrences(of: "\n", with: "")
            #expect(joined.contains("bulwark ssh-agent: /usr/bin/ssh-keygen -Y sign -f") && joined.contains("asks to sign with Laptop (SHA256:"), "\(asked)")
            try pane.sendBytes(typed + "\r")
            let result = try signing.wait()
            #expect((result.status == 0) == approved, "\(result.stderr)")
            _ = try pane.waitFor(text: approved ? "Approved." : "Declined.")
        }
        _ = try pane.waitFor(text: "not signed with Laptop: declined in the terminal")
    }

    /// "Once per unlock" through `ssh-approve-command`: asked once, then not
    /// until the vault locks; a locked vault lists no key and signs nothing.
    @Test func oncePerUnlockAsksTheCommandAgainAfterALock() throws {
        guard SSHAgentTests.haveTools else { print("SKIP oncePerUnlockAsksTheCommandAgainAfterALock: needs openssh-client"); return }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("bulwark-approve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let asked = dir.appendingPathComponent("asked"), answer = dir.appendingPathComponent("answer")
        let script = dir.appendingPathComponent("approve")
        try """
        #!/bin/sh
        printf '%s|%s|%s\\n' "$1" "$BULWARK_SSH_KEY" "$BULWARK_SSH_FINGERPRINT" >> \(asked.path)
        [ "$(cat \(answer.path))" = yes ]
        """.write(to: script, atomically: true, encoding: .utf8)
        chmod(script.path, 0o755)
        try "yes".write(to: answer, atomically: true, encoding: .utf8)
        let s = try SSHAgentTests.Served(approve: "once", config: "ssh-approve-command = \(script.path)\n")
        let lines = { ((try? String(contentsOf: asked, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init) }
        #expect(try Self.sign(s, "Work laptop").status == 0)
        #expect(try Self.sign(s, "Work laptop").status == 0)
        let fingerprint = try s.a.run(["show", "Work laptop"]).stdout.split(separator: "\n").first { $0.contains("SHA256:") }.map { String($0.split(separator: " ").last!) } ?? "?"
        #expect(lines().count == 1)
        #expect(lines().first.map { $0.hasPrefix("/usr/bin/ssh-keygen -Y sign -f ") && $0.hasSuffix(" asks to sign with Work laptop (\(fingerprint)).|Work laptop|\(fingerprint)") } == true,
                "\(lines())")
        // Another key asks for itself.
        #expect(try Self.sign(s, "Build box").status == 0)
        #expect(lines().count == 2)
        // Locked: nothing listed, so nothing signed (ssh-keygen finds no key to ask for), nobody asked.
        #expect(try s.a.run(["lock"]).status == 0)
        let listed = try s.tool("/usr/bin/ssh-add", ["-l"])
        #expect(listed.status == 1 && listed.stdout == "The agent has no identities.\n", "\(listed.stdout)")
        let locked = try Self.sign(s, "Work laptop")
        #expect(locked.status != 0 && locked.stderr.contains("No private key found for public key"), "\(locked.stderr)")
        #expect(lines().count == 2)
        // Unlocked again: asked again, and a no is a no.
        #expect(try s.a.unlock().status == 0)
        try "no".write(to: answer, atomically: true, encoding: .utf8)
        #expect(try Self.sign(s, "Work laptop").status != 0)
        #expect(lines().count == 3)
        #expect(s.logText.contains("not signed with Work laptop: declined in the approval command"))
        try "yes".write(to: answer, atomically: true, encoding: .utf8)
        #expect(try Self.sign(s, "Work laptop").status == 0)
        #expect(try Self.sign(s, "Work laptop").status == 0)
        #expect(lines().count == 4)
        #expect(s.logText.contains("the approval command approved a signature with Work laptop for /usr/bin/ssh-keygen -Y sign"))
    }

    @Test func withNobodyToAskTheSignatureIsRefusedWithTheWaysOut() throws {
        guard SSHAgentTests.haveTools else { print("SKIP withNobodyToAsk…: needs openssh-client"); return }
        let s = try SSHAgentTests.Served(approve: "ask")
        // Said on the line after "serving …", which may be all the log holds yet on a busy machine.
        let said = "asks before signing with Build box every time, Old server every time, Work laptop every time: in the open app, "
            + "else refused (no ssh-approve-command, no terminal)"
        #expect(Poll.until(seconds: 10) { s.logText.contains(said) }, "\(s.logText)")
        let signed = try Self.sign(s, "Work laptop")
        #expect(signed.status != 0 && signed.stderr.contains("agent refused operation"), "\(signed.stderr)")
        #expect(s.logText.contains("refused to sign with Work laptop: its entry asks for approval and there is nobody to ask (open bulwark, "
                                   + "set ssh-approve-command, or run bulwark ssh-agent in a terminal; bulwark ssh-key approve sets a key to never)"))
        // Set to never, a new agent signs without asking.
        let set = try s.a.run(["ssh-key", "approve", "Work laptop", "never"])
        #expect(set.status == 0 && set.stdout == "Work laptop: signatures are approved never (signed without asking).\n")
        #expect(try s.a.run(["show", "Work laptop"]).stdout.contains("never"))
    }

    @Test func sshKeyApproveSaysWhatItTakes() throws {
        let a = try AgentCommandTests.Agent()
        #expect(try a.unlock().status == 0)
        #expect(try a.run(["ssh-key", "new", "--title", "Laptop"]).status == 0)
        #expect(try a.run(["show", "Laptop"]).stdout.contains("once per unlock"))
        #expect(try a.run(["ssh-key", "approve", "Laptop", "ask"]).stdout == "Laptop: signatures are approved ask every time.\n")
        let bad = try a.run(["ssh-key", "approve", "Laptop", "sometimes"])
        #expect(bad.status == 2 && bad.stderr == "bulwark: say ask, once or never (not sometimes).\n")
        let option = try a.run(["ssh-key", "new", "--title", "Other", "--approve", "maybe"])
        #expect(option.status == 2 && option.stderr.hasPrefix("bulwark: --approve takes ask, once or never, not 'maybe'.\n"))
        _ = try a.f.run(["add", "--title", "Mail", "--username", "jane", "--entry-password-stdin"], stdin: "master\nmail-Secret-1\n")
        let notKey = try a.run(["ssh-key", "approve", "Mail", "never"])
        #expect(notKey.status == 1 && notKey.stderr == "bulwark: Mail holds no SSH private key.\n")
    }
}

/// Work on a thread of its own, waited for later (a client that blocks until the app answers).
final class Background<T>: @unchecked Sendable {  // `result` is written before the semaphore, read after it
    private var result: Result<T, Error>?
    private let done = DispatchSemaphore(value: 0)

    init(_ work: @escaping @Sendable () throws -> T) {
        Thread { [self] in
            result = Result { try work() }
            done.signal()
        }.start()
    }

    func wait() throws -> T {
        done.wait()
        return try result!.get()
    }
}
