import CHardening
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Starting another program (git, gpg) as a person's shell would: posix_spawn
/// with no signal blocked and the usual dispositions (the app blocks some
/// for its own handling, and ignores SIGPIPE), none of our descriptors past
/// the three standard ones, and waitpid for its end (Foundation's Process
/// learns of an exit by a run loop that polls, which cost up to 50 ms a run).
public enum Spawn {
    public struct Failure: Error, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }

    /// Starts `arguments` (the first is the program's name) with `actions`
    /// already set up for descriptors 0 to 2; `newSession`: in a session of
    /// its own (POSIX_SPAWN_SETSID), to outlive the terminal's process group.
    public static func start(_ executable: String, _ arguments: [String], environment: [String: String],
                             actions: inout posix_spawn_file_actions_t, newSession: Bool = false) throws(Failure) -> pid_t {
        bw_spawn_close_from(&actions, 3)  // the vault's files stay ours
        var cArguments: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        var cEnvironment: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (cArguments + cEnvironment).forEach { free($0) } }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t(), defaults = sigset_t()
        sigemptyset(&empty)
        sigemptyset(&defaults)
        for signal in [SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF) | (newSession ? bw_spawn_setsid_flag() : 0))
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, &attributes, &cArguments, &cEnvironment)
        guard spawned == 0 else { throw Failure(message: "cannot run \(executable): \(String(cString: strerror(spawned)))") }
        return pid
    }

    /// Its exit status; a signal is 128 plus the signal's number.
    public static func wait(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        // WIFEXITED and WEXITSTATUS, which Swift does not import.
        return status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }

    /// Runs a program from the PATH to its end, its output thrown away:
    /// its exit status, or nil when there is no such program.
    public static func run(_ name: String, _ arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment) -> Int32? {
        guard let program = find(name, environment: environment) else { return nil }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for descriptor in Int32(0)...2 { posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY, 0) }
        guard let pid = try? start(program, [name] + arguments, environment: environment, actions: &actions) else { return nil }
        return wait(pid)
    }

    /// The program on the PATH, or nil.
    public static func find(_ name: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        for directory in (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}
