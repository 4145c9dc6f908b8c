import BulwarkCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A passphrase-protected private key opened by the person's own
/// `ssh-keygen -p`: OpenSSH's format derives its key with bcrypt_pbkdf,
/// which no library bulwark links has (and bulwark writes no crypto of its
/// own). ssh-keygen takes the passphrase from bulwark itself, run as its
/// SSH_ASKPASS, over a socket of bulwark's own user in the 0700 runtime
/// folder (never an argument or a variable another process could read),
/// and rewrites a copy in that folder without a passphrase; the copy is
/// read, overwritten and removed at once, and the key kept in the vault
/// (which encrypts it).
enum SSHKeyDecryption {
    /// Set in ssh-keygen's environment: where bulwark, run as its askpass, fetches the passphrase.
    static let socketVariable = "BULWARK_ASKPASS_SOCKET"

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// bulwark run by ssh-keygen as its SSH_ASKPASS (one argument, the
    /// prompt): the passphrase on standard output, exit 0; else nil.
    static func askpassIfAsked() -> Int32? {
        // ssh-keygen's question ("Enter old passphrase: "), not a command a person typed with the variable left set.
        guard CommandLine.arguments.count == 2, CommandLine.arguments[1].lowercased().contains("passphrase"),
              let socket = ProcessInfo.processInfo.environment[socketVariable], !socket.isEmpty else { return nil }
        guard let connection = AgentSocket.connect(to: socket) else { return 1 }
        defer { close(connection) }
        guard let line = AgentSocket.readLine(connection) else { return 1 }
        let out = line + [0x0A]
        return out.withUnsafeBytes { Glibc.write(STDOUT_FILENO, $0.baseAddress, $0.count) } == out.count ? 0 : 1
    }

    /// The key's text without its passphrase, in OpenSSH's format.
    static func open(_ text: String, passphrase: String, fileName: String) throws(Failure) -> String {
        guard let keygen = Spawn.find("ssh-keygen") else {
            throw Failure(description: "\(fileName) is protected by a passphrase, and opening it needs ssh-keygen (Debian's openssh-client); "
                          + "or give bulwark a copy without one (ssh-keygen -p -N '' -f COPY): the vault encrypts it")
        }
        let folder = (AgentSocket.path() as NSString).deletingLastPathComponent
        let socket = folder + "/askpass-\(getpid()).sock", copy = folder + "/import-\(getpid()).key"
        let listener: Int32
        do { listener = try AgentSocket.listen(at: socket, answering: "another import") } catch { throw Failure(description: "\(error)") }
        defer { unlink(socket) }
        // The passphrase to ssh-keygen's askpass (ours, its own user), once; the wait ends when ssh-keygen does.
        let answer = Thread {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            if AgentSocket.peerUID(client) == getuid() { _ = AgentSocket.writeAll(client, Array(passphrase.utf8) + [0x0A]) }
            close(client)
        }
        answer.start()
        defer {
            shutdown(listener, Int32(SHUT_RDWR))
            close(listener)
        }
        try save(text, to: copy)
        defer { wipe(copy) }
        let (status, said) = run(keygen, ["ssh-keygen", "-p", "-f", copy, "-N", ""], askpassSocket: socket)
        guard status == 0, let opened = try? String(contentsOfFile: copy, encoding: .utf8) else {
            if said.contains("incorrect passphrase") { throw Failure(description: "the passphrase does not open \(fileName)") }
            throw Failure(description: "ssh-keygen could not open \(fileName): \(TerminalText.visible(said.trimmingCharacters(in: .whitespacesAndNewlines)))")
        }
        return opened
    }

    /// The copy ssh-keygen rewrites: the user's alone from the start, never an existing file.
    private static func save(_ text: String, to path: String) throws(Failure) {
        let descriptor = Glibc.open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Failure(description: "cannot make a working copy in \((path as NSString).deletingLastPathComponent)") }
        defer { close(descriptor) }
        let bytes = Array(text.utf8)
        guard bytes.withUnsafeBytes({ Glibc.write(descriptor, $0.baseAddress, $0.count) }) == bytes.count else {
            throw Failure(description: "cannot write the working copy")
        }
    }

    /// Overwritten with zeros, then removed (ssh-keygen may have replaced the file: whatever is there now).
    private static func wipe(_ path: String) {
        var status = stat()
        if lstat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG {
            let descriptor = Glibc.open(path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC)
            if descriptor >= 0 {
                let zeros = [UInt8](repeating: 0, count: Int(status.st_size))
                _ = zeros.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
                fsync(descriptor)
                close(descriptor)
            }
        }
        unlink(path)
    }

    /// ssh-keygen to its end: its exit status and what it said (its standard output and error).
    private static func run(_ program: String, _ arguments: [String], askpassSocket: String) -> (Int32, String) {
        var environment = ProcessInfo.processInfo.environment
        environment["SSH_ASKPASS"] = WatchUnits.executable()
        environment["SSH_ASKPASS_REQUIRE"] = "force"
        environment[socketVariable] = askpassSocket
        let said = (AgentSocket.path() as NSString).deletingLastPathComponent + "/import-\(getpid()).said"
        defer { unlink(said) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, said, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // Its own session: no terminal for it to ask on, so the askpass is the only way.
        guard let pid = try? Spawn.start(program, arguments, environment: environment, actions: &actions, newSession: true) else {
            return (127, "it could not be started")
        }
        let status = Spawn.wait(pid)
        return (status, (try? String(contentsOfFile: said, encoding: .utf8)) ?? "")
    }
}
