import CHardening
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The system's `git`, run as a person runs it (their ssh keys, credential
/// helpers and ~/.gitconfig apply), in one repository. Output is read
/// from files, so a chatty git never blocks on a full pipe.
public struct Git: Sendable {
    public let executable: String
    /// false in the app: git must not stop to ask on a terminal the app owns.
    public var mayPrompt: Bool

    public struct Run: Sendable {
        public let status: Int32
        public let data: Data
        public let errors: String
        public var output: String { String(decoding: data, as: UTF8.self) }
        /// git's first error line, for a one-line message.
        public var firstError: String {
            let lines = errors.split(separator: "\n").map(String.init)
            return SyncError.redacted((lines.first { $0.hasPrefix("fatal:") || $0.hasPrefix("error:") } ?? lines.first ?? "git exited \(status)")
                .replacingOccurrences(of: "fatal: ", with: "").replacingOccurrences(of: "error: ", with: ""))
        }
    }

    public init(executable: String, mayPrompt: Bool = true) {
        self.executable = executable
        self.mayPrompt = mayPrompt
    }

    /// `git` on the PATH (or `$BULWARK_GIT`); nil when there is none.
    public static func find(mayPrompt: Bool = true, environment: [String: String] = ProcessInfo.processInfo.environment) -> Git? {
        if let given = environment["BULWARK_GIT"], !given.isEmpty {
            return FileManager.default.isExecutableFile(atPath: given) ? Git(executable: given, mayPrompt: mayPrompt) : nil
        }
        for directory in (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let candidate = "\(directory)/git"
            if FileManager.default.isExecutableFile(atPath: candidate) { return Git(executable: candidate, mayPrompt: mayPrompt) }
        }
        return nil
    }

    /// Runs `git ARGS` in `directory` (nil: the current one), `input` on
    /// its standard input (from a file: any size, never a blocked pipe).
    /// posix_spawn and waitpid: Foundation's Process learns of an exit by a
    /// run loop that polls, which cost up to 50 ms a git command.
    public func run(_ arguments: [String], in directory: URL?, input: Data? = nil) throws -> Run {
        var environment = ProcessInfo.processInfo.environment
        environment["LC_ALL"] = "C"
        environment["GIT_TERMINAL_PROMPT"] = mayPrompt ? nil : "0"
        if !mayPrompt { environment["GIT_SSH_COMMAND"] = environment["GIT_SSH_COMMAND"] ?? "ssh -o BatchMode=yes" }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("bulwark-git-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: scratch) }
        let inFile = scratch.appendingPathComponent("in").path, out = scratch.appendingPathComponent("out").path,
            err = scratch.appendingPathComponent("err").path
        if let input {
            guard FileManager.default.createFile(atPath: inFile, contents: input, attributes: [.posixPermissions: 0o600]) else {
                throw SyncError.git("cannot write git's input in \(scratch.path)")
            }
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, input == nil ? "/dev/null" : inFile, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, err, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        bw_spawn_close_from(&actions, 3)  // the vault's files stay ours
        let argv = [executable] + (directory.map { ["-C", $0.path] } ?? []) + arguments
        var cArguments: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        var cEnvironment: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (cArguments + cEnvironment).forEach { free($0) } }
        // git starts with no signal blocked and the usual dispositions (the app
        // blocks some for its own handling, and ignores SIGPIPE).
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t(), defaults = sigset_t()
        sigemptyset(&empty)
        sigemptyset(&defaults)
        for signal in [SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, &attributes, &cArguments, &cEnvironment)
        guard spawned == 0 else { throw SyncError.git("cannot run \(executable): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let data = FileManager.default.contents(atPath: out) ?? Data()
        let errors = FileManager.default.contents(atPath: err).map { String(decoding: $0, as: UTF8.self) } ?? ""
        // WIFEXITED and WEXITSTATUS, which Swift does not import; a signal is a failure.
        let code: Int32 = status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return Run(status: code, data: data, errors: errors)
    }

    /// Runs and throws git's own first error line (with `context` before it) when it fails.
    @discardableResult
    public func must(_ arguments: [String], in directory: URL?, _ context: String, input: Data? = nil) throws -> String {
        let run = try run(arguments, in: directory, input: input)
        guard run.status == 0 else { throw SyncError.git("\(context): \(run.firstError)") }
        return run.output
    }
}
