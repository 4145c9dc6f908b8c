import BulwarkCore
import CHardening
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A program on a pseudo-terminal of its own, as a person's terminal runs
/// it: keys are written to the terminal's side, and what the program draws
/// is read back from it, byte for byte. What a latency is here: from the
/// write of the key to the read that brings the awaited bytes.
final class PseudoTerminal {
    private let master: Int32
    let pid: pid_t
    /// What the program wrote since the last key (or the last `drain`).
    private(set) var sinceKey: [UInt8] = []
    /// What the last `drain` read, the bytes since the key before it included.
    private(set) var lastDrained: [UInt8] = []

    init?(_ arguments: [String], environment: [String: String], columns: UInt16, rows: UInt16) {
        var path = [CChar](repeating: 0, count: 128)
        let master = bw_open_pseudo_terminal(&path, path.count)
        guard master >= 0 else { return nil }
        let name = String(cString: path)
        var size = winsize(ws_row: rows, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // Opened after the new session starts: it becomes the program's controlling terminal.
        posix_spawn_file_actions_addopen(&actions, 0, name, O_RDWR, 0)
        posix_spawn_file_actions_adddup2(&actions, 0, 1)
        posix_spawn_file_actions_adddup2(&actions, 0, 2)
        guard let pid = try? Spawn.start(arguments[0], arguments, environment: environment, actions: &actions, newSession: true) else {
            close(master)
            return nil
        }
        self.master = master
        self.pid = pid
    }

    deinit {
        kill(pid, SIGKILL)
        _ = Spawn.wait(pid)
        close(master)
    }

    func type(_ text: String) {
        sinceKey = []
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBufferPointer { write(master, $0.baseAddress, $0.count) }
    }

    /// Reads what comes within `milliseconds`; false when nothing came.
    @discardableResult
    private func read(within milliseconds: Int32) -> Bool {
        var poller = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, milliseconds) == 1 else { return false }
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = chunk.withUnsafeMutableBufferPointer { Glibc.read(master, $0.baseAddress, $0.count) }
        guard count > 0 else { return false }
        sinceKey += chunk[0..<count]
        return true
    }

    /// Seconds from `start` until the program's output since the key holds
    /// `text`; nil when it did not within `limit` seconds.
    func seconds(from start: UInt64, until text: String, limit: Double = 10) -> Double? {
        let wanted = Array(text.utf8)
        while !ByteSearch.contains(sinceKey, wanted) {
            guard Double(Measure.now() - start) / 1e9 < limit else { return nil }
            read(within: 50)
        }
        return Double(Measure.now() - start) / 1e9
    }

    /// Seconds from `start` until the first bytes of output; nil when none came within `limit`.
    func secondsToFirstOutput(from start: UInt64, limit: Double = 10) -> Double? {
        while sinceKey.isEmpty {
            guard Double(Measure.now() - start) / 1e9 < limit else { return nil }
            read(within: 50)
        }
        return Double(Measure.now() - start) / 1e9
    }

    /// Reads until the program has been quiet for `quiet` milliseconds: the
    /// rest of a frame, a status that follows it, an analysis still drawing.
    func drain(quiet: Int32 = 60) {
        while read(within: quiet) {}
        lastDrained = sinceKey
        sinceKey = []
    }
}
