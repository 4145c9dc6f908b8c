import Foundation
#if canImport(Glibc)
import Glibc
#endif
import CHardening

/// Runs a program with posix_spawn and reaps it with waitpid. Used for tmux:
/// Foundation's Process does not reap a tmux client that forked a server.
enum Spawn {
    /// Spawn attributes with a clean signal mask and default handlers: the
    /// test runner blocks signals, and a child would inherit that (tmux
    /// would pass it on to the program under test). Destroy them after use.
    static func cleanSignals() -> posix_spawnattr_t {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        return attributes
    }

    /// Runs `arguments` (looked up on PATH); returns its exit status and,
    /// when `capture` is true, what it wrote to stdout and stderr.
    static func run(_ arguments: [String], capture: Bool) throws -> (status: Int32, output: String) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var fds: [Int32] = [-1, -1]
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if capture {
            guard bw_pipe_cloexec(&fds) == 0 else { throw POSIXError(.EIO) }
            posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
            posix_spawn_file_actions_adddup2(&actions, fds[1], 2)
            posix_spawn_file_actions_addclose(&actions, fds[0])
            posix_spawn_file_actions_addclose(&actions, fds[1])
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
        // A tmux server outlives the test: it must not keep another test's
        // pipe or lock open (a held backup lock once skipped backups in CI).
        bw_spawn_close_from(&actions, 3)
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var attributes = cleanSignals()
        defer { posix_spawnattr_destroy(&attributes) }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, arguments[0], &actions, &attributes, &argv, environ)
        if capture { close(fds[1]) }
        guard spawned == 0 else {
            if capture { close(fds[0]) }
            throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO)
        }
        var output = Data()
        if capture {
            var chunk = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = read(fds[0], &chunk, chunk.count)
                if n <= 0 { break }
                output.append(contentsOf: chunk[0..<n])
            }
            close(fds[0])
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exitStatus = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return (exitStatus, String(decoding: output, as: UTF8.self))
    }
}
