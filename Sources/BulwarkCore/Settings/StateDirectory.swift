import Foundation

/// Where bulwark keeps what a machine remembers about its vaults:
/// `$XDG_STATE_HOME/bulwark/NAME`, else `~/.local/state/bulwark/NAME`.
public enum StateDirectory {
    public static func url(_ name: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            return URL(fileURLWithPath: state).appendingPathComponent("bulwark/" + name)
        }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return URL(fileURLWithPath: home).appendingPathComponent(".local/state/bulwark/" + name)
    }
}
