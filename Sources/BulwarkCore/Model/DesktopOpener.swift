import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The desktop's opener (`xdg-open`, or `BULWARK_OPENER` for tests and
/// other desktops) started on a file and left to run: its output goes
/// nowhere near the app's screen, and its end is collected in the background.
public enum DesktopOpener {
    public static func open(_ path: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        let name = environment["BULWARK_OPENER"].flatMap { $0.isEmpty ? nil : $0 } ?? "xdg-open"
        guard let program = name.hasPrefix("/") ? name : Spawn.find(name, environment: environment) else { return false }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for descriptor in Int32(0)...2 { posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY, 0) }
        guard let pid = try? Spawn.start(program, [name, path], environment: environment, actions: &actions) else { return false }
        DispatchQueue.global(qos: .utility).async { _ = Spawn.wait(pid) }
        return true
    }
}
