import BulwarkCore
import BulwarkTerminal
import CHardening
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `get --copy`: the value onto the desktop's clipboard (wl-copy, xclip or
/// xsel), then a keeper of its own session that, after `clipboard-seconds`,
/// puts back what was there before (or empties it), unless the person has
/// copied something else meanwhile. The command returns at once, as `pass
/// -c` does. The secret reaches the keeper through a pipe, never its
/// arguments or a file.
enum ClipboardHandOff {
    static let keeperCommand = "__clipboard-keeper"

    struct Failure: Error, CustomStringConvertible { let description: String }

    /// Copies; what to say.
    static func copy(_ text: String, subject: String, seconds: Double) throws(Failure) -> String {
        guard let system = SystemClipboard.find() else {
            throw Failure(description: "no clipboard tool is installed (wl-copy, xclip or xsel); nothing was copied")
        }
        let previous = system.read()
        guard system.write(text) else { throw Failure(description: "\(system.name) could not take it; nothing was copied") }
        do { try startKeeper(secret: text, previous: previous, seconds: seconds) } catch {
            // No keeper, no copy left behind.
            _ = system.takeBack(text, previous: previous)
            throw Failure(description: "cannot start the process that takes it back (\(error)); nothing was left copied")
        }
        return "Copied \(subject) with \(system.name); what it replaced comes back in \(Int(seconds.rounded())) s."
    }

    private static func startKeeper(secret: String, previous: String?, seconds: Double) throws {
        let input = try JSONSerialization.data(withJSONObject: ["secret": secret, "previous": previous ?? "", "seconds": seconds])
        var fds: [Int32] = [-1, -1]
        guard bw_pipe_cloexec(&fds) == 0 else { throw Failure(description: String(cString: strerror(errno))) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, fds[0], 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        defer { close(fds[1]) }
        do {
            _ = try Spawn.start("/proc/self/exe", ["bulwark", keeperCommand], environment: ProcessInfo.processInfo.environment,
                                actions: &actions, newSession: true)
            close(fds[0])
        } catch {
            close(fds[0])
            throw Failure(description: error.message)
        }
        input.withUnsafeBytes { bytes in
            var done = 0
            while done < bytes.count {
                let wrote = write(fds[1], bytes.baseAddress! + done, bytes.count - done)
                if wrote < 0, errno == EINTR { continue }
                if wrote <= 0 { break }
                done += wrote
            }
        }
    }

    /// The keeper: waits, then takes the secret back; exit 0 either way.
    static func keep() -> Int32 {
        let data = FileHandle.standardInput.readDataToEndOfFile()
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any], let secret = object["secret"] as? String,
              let seconds = object["seconds"] as? Double else { return 2 }
        let previous = (object["previous"] as? String).flatMap { $0.isEmpty ? nil : $0 }
        // The product's own timer: the time the person set for a copied secret.
        Thread.sleep(forTimeInterval: max(0, seconds))
        _ = SystemClipboard.find()?.takeBack(secret, previous: previous)
        return 0
    }
}
