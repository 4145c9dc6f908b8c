import Foundation
#if canImport(Glibc)
import Glibc
#endif
import CHardening

/// The built `bulwark` binary, run as a user would run it.
enum Binary {
    static var path: String {
        if let path = ProcessInfo.processInfo.environment["BULWARK_BIN"], !path.isEmpty { return path }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug/bulwark").path
    }

    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
        /// Ended by the test's SIGKILL.
        var killed = false
    }

    /// Where the binary under test keeps its state (the change counters it saw).
    static let stateDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("bulwark-e2e-state").path

    /// Runs the binary to completion with the given arguments, standard
    /// input and extra environment; with `killAfter`, sends it SIGKILL
    /// after that many seconds if it is still running. Standard input and
    /// output go through files, so many children at once (and signals
    /// arriving meanwhile) never interrupt a read.
    static func run(_ arguments: [String], stdin: String = "", environment: [String: String] = [:], killAfter: Double? = nil,
                    program: String? = nil) throws -> Result {
        let path = program ?? Self.path
        var env = ProcessInfo.processInfo.environment
        // The tester's own config file must not change what a test sees.
        env["BULWARK_CONFIG"] = "/nonexistent/bulwark-test-config"
        // Nor its record of the vaults it has seen (and tests leave none there).
        env["XDG_STATE_HOME"] = stateDirectory
        for (key, value) in environment { env[key] = value }

        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("bulwark-run-\(UUID().uuidString)")
        let files = ["in", "out", "err"].map { scratch.path + "." + $0 }
        defer { files.forEach { unlink($0) } }
        guard FileManager.default.createFile(atPath: files[0], contents: Data(stdin.utf8)) else { throw POSIXError(.EIO) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, files[0], O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, files[1], O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, files[2], O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        bw_spawn_close_from(&actions, 3)  // nothing of the test process goes with it
        var attributes = Spawn.cleanSignals()
        defer { posix_spawnattr_destroy(&attributes) }
        var argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        var envp: [UnsafeMutablePointer<CChar>?] = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, path, &actions, &attributes, &argv, &envp)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO) }
        var killed = false
        if let killAfter {
            usleep(UInt32(killAfter * 1_000_000))
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == 0 {
                kill(pid, SIGKILL)
                killed = true
            } else {
                return result(status, files, killed: false)
            }
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return result(status, files, killed: killed)
    }

    private static func result(_ status: Int32, _ files: [String], killed: Bool) -> Result {
        let exitStatus = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        let read = { (path: String) in String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self) }
        return Result(status: exitStatus, stdout: read(files[1]), stderr: read(files[2]), killed: killed && exitStatus == 128 + SIGKILL)
    }
}
