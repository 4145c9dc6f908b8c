import Foundation
import Glibc
import CHardening

/// Runs a small tool (a clipboard tool, tmux) with a time limit: posix_spawn
/// and waitpid, because Foundation's Process learns of an exit through a
/// run loop the app's curses loop never runs (a finished xclip looked
/// alive until the limit). The child gets no terminal: /dev/null, or pipes.
enum ToolRunner {
    /// What the tool wrote to stdout when it exits 0 within `seconds`; nil
    /// when it fails, cannot start, or runs over (it is then ended).
    /// `input` goes to its stdin (its stdout then goes nowhere: a tool that
    /// stays behind to serve the clipboard must not hold a pipe of ours).
    static func run(_ command: [String], input: Data?, seconds: Double = 2, limit: Int = 1 << 20) -> Data? {
        signal(SIGPIPE, SIG_IGN)  // a tool that exits before reading must not end bulwark
        var inPipe: [Int32] = [-1, -1], outPipe: [Int32] = [-1, -1]
        // Close-on-exec, as is every other descriptor the tool must not keep
        // (dup2 clears the flag on the copies it makes for 0 and 1).
        guard bw_pipe_cloexec(&inPipe) == 0 else { return nil }
        guard bw_pipe_cloexec(&outPipe) == 0 else { close(inPipe[0]); close(inPipe[1]); return nil }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if input != nil { posix_spawn_file_actions_adddup2(&actions, inPipe[0], 0) } else { posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0) }
        if input == nil { posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1) } else { posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0) }
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        // Nothing else of ours goes with it: a clipboard tool that stays to
        // serve the selection would otherwise hold a lock or a vault file.
        bw_spawn_close_from(&actions, 3)
        var argv: [UnsafeMutablePointer<CChar>?] = command.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, command[0], &actions, nil, &argv, environ)
        close(inPipe[0])
        close(outPipe[1])
        guard spawned == 0 else {
            close(inPipe[1])
            close(outPipe[0])
            return nil
        }
        if let input {
            input.withUnsafeBytes { bytes in
                var offset = 0
                while offset < bytes.count {
                    let written = write(inPipe[1], bytes.baseAddress! + offset, bytes.count - offset)
                    if written <= 0 { break }
                    offset += written
                }
            }
        }
        close(inPipe[1])
        // Read what comes until the tool closes its end, within the time limit.
        let deadline = Date().addingTimeInterval(seconds)
        var output = Data(), chunk = [UInt8](repeating: 0, count: 65536), open = input == nil
        if !open { close(outPipe[0]) }
        while open && output.count <= limit {
            var poller = pollfd(fd: outPipe[0], events: Int16(POLLIN), revents: 0)
            let left = Int32(max(0, deadline.timeIntervalSinceNow * 1000))
            guard poll(&poller, 1, left) > 0 else { break }
            let n = read(outPipe[0], &chunk, chunk.count)
            if n <= 0 { open = false } else { output.append(contentsOf: chunk[0..<n]) }
        }
        if input == nil { close(outPipe[0]) }
        var status: Int32 = 0
        while waitpid(pid, &status, WNOHANG) == 0 {
            guard Date() < deadline else {
                kill(pid, SIGTERM)
                _ = waitpid(pid, &status, 0)
                return nil
            }
            usleep(2_000)
        }
        // Exited normally with status 0 (WIFEXITED and WEXITSTATUS, which Swift does not import).
        guard status & 0x7f == 0, (status >> 8) & 0xff == 0, output.count <= limit else { return nil }
        return output
    }
}
