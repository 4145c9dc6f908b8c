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
    /// its standard input (from a file: any size, never a blocked pipe),
    /// or the file at `inputFile` as it is.
    /// Started by `Spawn` (posix_spawn and waitpid).
    public func run(_ arguments: [String], in directory: URL?, input: Data? = nil, inputFile: String? = nil) throws -> Run {
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
        posix_spawn_file_actions_addopen(&actions, 0, inputFile ?? (input == nil ? "/dev/null" : inFile), O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, err, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let argv = [executable] + (directory.map { ["-C", $0.path] } ?? []) + arguments
        let pid: pid_t
        do throws(Spawn.Failure) { pid = try Spawn.start(executable, argv, environment: environment, actions: &actions) } catch { throw SyncError.git(error.message) }
        let code = Spawn.wait(pid)
        let data = FileManager.default.contents(atPath: out) ?? Data()
        let errors = FileManager.default.contents(atPath: err).map { String(decoding: $0, as: UTF8.self) } ?? ""
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
