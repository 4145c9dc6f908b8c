import BulwarkCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `bulwark ssh-agent` (the vault's SSH keys served to ssh, the private
/// keys never leaving bulwark) and `bulwark ssh-key new|public`.
enum SSHCommands {
    static let specs: [CommandSpec] = [
        CommandSpec(name: "ssh-agent", summary: "Serve the vault's SSH keys to ssh (SSH_AUTH_SOCK); the private keys stay in bulwark.",
                    usage: "bulwark ssh-agent [--socket PATH] [--background]",
                    options: [OptionSpec(name: "--socket", valueName: "PATH", help: "Where to listen (default: $XDG_RUNTIME_DIR/bulwark/ssh-agent.sock)"),
                              OptionSpec(name: "--background", valueName: nil,
                                         help: "Start it in the background (after bulwark unlock), print the shell lines for eval, and return")],
                    details: """
                    Opens the vault (through bulwark agent when it is unlocked), reads every SSH key entry (Ed25519, ECDSA
                    P-256 and P-384, RSA of 2048 bits or more; PKCS#8 or unencrypted OpenSSH), prints
                    SSH_AUTH_SOCK=PATH; export SSH_AUTH_SOCK; and serves in the foreground until stopped; with --background
                    (eval "$(bulwark ssh-agent --background)"), it serves from a session of its own, logging beside bulwark
                    agent's log, and prints SSH_AGENT_PID too. Each key is listed
                    by its entry's title; RSA signs with SHA-2 when the client asks. Keys are not added, removed or locked
                    through ssh-add (refused, and said in its log on standard error). Only its own user may connect.
                    Each signature is approved as the key's entry says (bulwark ssh-key approve): ask every time, once per
                    unlock (the default), or never. The question goes to the open app (a sheet naming the key, the process
                    and the host), else to ssh-approve-command, else to the terminal the agent runs in; with none of them,
                    or no answer within ssh-approve-wait-seconds, the signature is refused. Unlocked through bulwark agent,
                    it follows the agent: once the vault locks it lists no key and signs nothing until bulwark unlock.
                    """, arguments: [.nothing]),
        CommandSpec(name: "ssh-key", summary: "Make an SSH key in the vault, print an entry's public key, or say when its signatures are approved.",
                    usage: usage,
                    options: [OptionSpec(name: "--title", valueName: "TITLE", help: "new: the entry's title (also the key's comment)"),
                              OptionSpec(name: "--type", valueName: "TYPE", help: "new: ed25519 (the default), ecdsa (P-256) or ecdsa-p384",
                                         values: .words(["ed25519", "ecdsa", "ecdsa-p384"])),
                              OptionSpec(name: "--approve", valueName: "WHEN", help: "new, import: ask (every time), once (per unlock; the default) or never",
                                         values: .words(["ask", "once", "never"]))],
                    details: """
                    new makes the key with OpenSSL, keeps it as an SSH key entry (the private key a hidden field, as PKCS#8)
                    and prints its public line for authorized_keys. import keeps a private key file (OpenSSH's format or PEM)
                    as an SSH key entry, titled by --title or the key's comment; one protected by a passphrase asks for it
                    (with --password-stdin, the line after the master password) and is opened by your ssh-keygen, then kept
                    without it (the vault encrypts it). public prints an SSH key entry's public line.
                    approve ENTRY ask|once|never says in the entry (its field "Signature approval") whether bulwark ssh-agent
                    asks before each signature, once per unlock, or never; a running ssh-agent reads it when it starts.
                    """, arguments: [.words(["new", "import", "public", "approve"]), .free, .words(["ask", "once", "never"])]),
    ]

    static let usage = "bulwark ssh-key new --title TITLE [--type ed25519|ecdsa|ecdsa-p384] [--approve WHEN] | bulwark ssh-key import FILE [--title TITLE] [--approve WHEN] "
        + "| bulwark ssh-key public ENTRY | bulwark ssh-key approve ENTRY ask|once|never"

    static func key(_ parsed: ParsedCommandLine) -> Int32 {
        switch (parsed.arguments.first, parsed.arguments.count) {
        case ("new", 1): return newKey(parsed)
        case ("public", 2): return publicKey(parsed, parsed.arguments[1])
        case ("import", 2): return importKey(parsed, parsed.arguments[1])
        case ("approve", 3): return approve(parsed, parsed.arguments[1], parsed.arguments[2])
        default:
            Output.error("usage: \(usage)")
            return 2
        }
    }

    /// `--approve` (the parser has checked its word), else once per unlock.
    static func approval(_ parsed: ParsedCommandLine) -> SSHApprovalPolicy {
        parsed.value("--approve").flatMap(SSHApprovalPolicy.init(word:)) ?? .standard
    }

    static func approve(_ parsed: ParsedCommandLine, _ name: String, _ word: String) -> Int32 {
        guard let policy = SSHApprovalPolicy(word: word) else { Output.error("say ask, once or never (not \(TerminalText.visible(word)))."); return 2 }
        return VaultCommands.withVault(parsed) { vault, _ in
            var entry = try vault.find(name)
            guard privateKeyText(entry) != nil else { Output.error("\(TerminalText.visible(entry.title)) holds no SSH private key."); return 1 }
            policy.write(to: &entry)
            try vault.save(entry)
            print("\(TerminalText.visible(entry.title)): signatures are approved \(policy == .never ? "never (signed without asking)" : policy.rawValue).")
            return 0
        }
    }

    static func newKey(_ parsed: ParsedCommandLine) -> Int32 {
        guard let title = parsed.value("--title"), !title.isEmpty else { Output.error("ssh-key new needs --title TITLE."); return 2 }
        let type = parsed.value("--type") ?? "ed25519"
        guard ["ed25519", "ecdsa", "ecdsa-p384"].contains(type) else { Output.error("--type is ed25519, ecdsa or ecdsa-p384."); return 2 }
        let policy = approval(parsed)
        return VaultCommands.withVault(parsed) { vault, _ in
            let key = type == "ed25519" ? try SSHPrivateKey.generateEd25519() : try SSHPrivateKey.generateECDSA(curve: type == "ecdsa" ? "nistp256" : "nistp384")
            try vault.save(entry(title, key, privateText: key.pkcs8PEM, approval: policy))
            print(key.publicLine(comment: title))
            return 0
        }
    }

    /// A private key file into the vault, read (and so checked) before the
    /// vault is opened; one protected by a passphrase is opened after it
    /// (the passphrase asked then: with --password-stdin, the line after the
    /// master password) by the person's own ssh-keygen (`SSHKeyDecryption`).
    static func importKey(_ parsed: ParsedCommandLine, _ file: String) -> Int32 {
        let policy = approval(parsed)
        guard let data = FileManager.default.contents(atPath: file), data.count <= 64 * 1024, let text = String(data: data, encoding: .utf8) else {
            Output.error("cannot read \(file) (a private key file of at most 64 KiB).")
            return 1
        }
        let encrypted = SSHPrivateKey.isEncrypted(text)
        if !encrypted {
            do { _ = try SSHPrivateKey(text: text) } catch {
                Output.error("\(file): \(error). Nothing was imported.")
                return 1
            }
        }
        let publicFile = try? String(contentsOfFile: file + ".pub", encoding: .utf8)
        let comment = publicFile.map { $0.split(separator: " ", maxSplits: 2).dropFirst(2).joined().trimmingCharacters(in: .whitespacesAndNewlines) } ?? ""
        let name = URL(fileURLWithPath: file).lastPathComponent
        let title = parsed.value("--title") ?? (comment.isEmpty ? name : comment)
        return VaultCommands.withVault(parsed) { vault, input in
            var kept = text
            if encrypted {
                let passphrase = try input.next(prompt: "Passphrase of \(name)")
                do { kept = try SSHKeyDecryption.open(text, passphrase: passphrase, fileName: name) } catch {
                    Output.error("\(error). Nothing was imported.")
                    return 1
                }
            }
            let key: SSHPrivateKey
            do { key = try SSHPrivateKey(text: kept) } catch {
                Output.error("\(file): \(error). Nothing was imported.")
                return 1
            }
            try vault.save(entry(title, key, privateText: kept, approval: policy))
            print(key.publicLine(comment: title))
            return 0
        }
    }

    static func publicKey(_ parsed: ParsedCommandLine, _ name: String) -> Int32 {
        VaultCommands.withVault(parsed) { vault, _ in
            let entry = try vault.find(name)
            guard let text = privateKeyText(entry) else { Output.error("\(TerminalText.visible(entry.title)) holds no SSH private key."); return 1 }
            do { print(try SSHPrivateKey(text: text).publicLine(comment: TerminalText.visible(entry.title))) } catch {
                Output.error("\(TerminalText.visible(entry.title)): \(error).")
                return 1
            }
            return 0
        }
    }

    /// The agent started in a session of its own, once the vault's key is
    /// in `bulwark agent` (a background process cannot ask for the master
    /// password); returns when it answers, with the lines for `eval`.
    static func background(_ parsed: ParsedCommandLine) -> Int32 {
        let vault = VaultCommands.path(parsed)
        guard AgentClient.key(for: vault) != nil else {
            Output.error("run bulwark unlock first: an SSH agent in the background cannot ask for the master password.")
            return 1
        }
        let path = parsed.value("--socket") ?? socketPath()
        let log = AgentCommand.logFile.deletingLastPathComponent().appendingPathComponent("ssh-agent.log")
        let pid: pid_t
        do { pid = try AgentCommand.startDetached(["ssh-agent", "--vault", vault.path, "--socket", path], log: log) } catch {
            Output.error("could not start the SSH agent: \(error).")
            return 1
        }
        // Up when its socket answers; gone (its log says why) when the process ended first.
        let until = Date().addingTimeInterval(10)
        while Date() < until {
            if let connection = AgentSocket.connect(to: path) {
                close(connection)
                print("SSH_AUTH_SOCK=\(path); export SSH_AUTH_SOCK;\nSSH_AGENT_PID=\(pid); export SSH_AGENT_PID;")
                return 0
            }
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid { break }
            usleep(20_000)
        }
        Output.error("the SSH agent did not start (its log: \(log.path)).")
        return 1
    }

    /// An SSH key entry, with the fields Bitwarden's and CXF's readers give one.
    static func entry(_ title: String, _ key: SSHPrivateKey, privateText: String, approval: SSHApprovalPolicy) -> Entry {
        Entry(title: title, kind: .sshKey, fields: [
            CustomField(name: "Private key", value: privateText, hidden: true),
            CustomField(name: "Public key", value: key.publicLine(comment: title), hidden: false),
            CustomField(name: "Fingerprint", value: key.fingerprint, hidden: false),
            CustomField(name: "Key type", value: key.typeName, hidden: false),
            CustomField(name: SSHApprovalPolicy.fieldName, value: approval.rawValue, hidden: false),
        ])
    }

    static func privateKeyText(_ entry: Entry) -> String? {
        entry.fields.first { $0.name.caseInsensitiveCompare("Private key") == .orderedSame && $0.value.contains("PRIVATE KEY-----") }?.value
    }

    /// Who is asked before a signature, and whether the vault is still
    /// unlocked: through `bulwark agent` when it holds this vault's key
    /// (its lock is the vault's), else for as long as this agent runs.
    static func approver(_ parsed: ParsedCommandLine) -> SSHApprover {
        let vault = AgentClient.name(VaultCommands.path(parsed))
        let config = (try? Configuration.load()) ?? Configuration()
        let channels = [SSHApprover.Channel.app(socket: SSHApprovalListener.path())] + (config.sshApproveCommand.map { [.command($0)] } ?? [])
            + [.terminal(device: "/dev/tty")]
        let held = AgentClient.send(.status)?.vaults.contains { $0.vault == vault } == true
        let own = "ssh-agent \(getpid())"
        return SSHApprover(vault: vault, channels: channels, waitSeconds: Int(config.sshApproveWaitSeconds)) {
            held ? AgentClient.send(.status)?.vaults.first { $0.vault == vault }?.session : own
        }
    }

    static func socketPath() -> String { (AgentSocket.path() as NSString).deletingLastPathComponent + "/ssh-agent.sock" }

    nonisolated(unsafe) static var stopRequested: sig_atomic_t = 0

    static func agent(_ parsed: ParsedCommandLine) -> Int32 {
        if parsed.flag("--background") { return background(parsed) }
        var identities: [SSHAgentIdentity] = []
        let opened = VaultCommands.withVault(parsed) { vault, _ in
            for entry in vault.entries where entry.kind == .sshKey {
                guard let text = privateKeyText(entry) else { continue }
                do { identities.append(SSHAgentIdentity(key: try SSHPrivateKey(text: text), comment: entry.title, approval: .of(entry))) } catch {
                    Output.warning("\(TerminalText.visible(entry.title)) is not served: \(error).")
                }
            }
            return 0
        }
        guard opened == 0 else { return opened }
        guard !identities.isEmpty else { Output.error("the vault holds no SSH key bulwark can sign with ('bulwark ssh-key new --title TITLE' makes one)."); return 1 }
        let path = parsed.value("--socket") ?? socketPath()
        let listener: Int32
        do { listener = try AgentSocket.listen(at: path, answering: "another ssh-agent") } catch {
            Output.error("\(error).")
            return 1
        }
        defer { close(listener); unlink(path) }
        signal(SIGTERM) { _ in SSHCommands.stopRequested = 1 }
        signal(SIGINT) { _ in SSHCommands.stopRequested = 1 }
        // Whoever started it may have these blocked (the mask is inherited): a stop must reach it.
        var stops = sigset_t()
        sigemptyset(&stops)
        sigaddset(&stops, SIGTERM)
        sigaddset(&stops, SIGINT)
        pthread_sigmask(SIG_UNBLOCK, &stops, nil)
        // Written straight to the descriptor: a caller reading the line (eval, a test) has it before the loop starts.
        FileHandle.standardOutput.write(Data("SSH_AUTH_SOCK=\(path); export SSH_AUTH_SOCK;\n".utf8))
        let names = identities.map { TerminalText.visible($0.comment) }.joined(separator: ", ")
        Output.stderr("bulwark ssh-agent: serving \(identities.count) key\(identities.count == 1 ? "" : "s") (\(names)) until stopped\n")
        let log: (String) -> Void = { line in Output.stderr("bulwark ssh-agent: \(line)\n") }
        let approver = approver(parsed)
        let asking = identities.filter { $0.approval != .never }.map { "\(TerminalText.visible($0.comment)) \($0.approval == .ask ? "every time" : "once per unlock")" }
        if !asking.isEmpty { Output.stderr("bulwark ssh-agent: asks before signing with \(asking.joined(separator: ", ")): in the open app, else \(approver.fallbacks)\n") }
        let server = SSHAgentServer(listening: listener, identities: identities, gate: approver.gate(log: log), log: log)
        server.run { SSHCommands.stopRequested != 0 }
        return 0
    }
}
