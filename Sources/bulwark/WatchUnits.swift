import BulwarkCore
import Foundation

/// The systemd user units of `bulwark watch --install`: a oneshot service
/// that runs the look, and a daily timer (Persistent, so a day the machine
/// was off is made up at the next start), named by a hash of the vault's
/// path so that each watched vault has its own.
struct WatchUnits {
    let vaultPath: URL
    let executable: String
    let online: Bool
    let directory: URL

    init(vaultPath: URL, executable: String, online: Bool, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.vaultPath = vaultPath.standardizedFileURL
        self.executable = executable
        self.online = online
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
            directory = URL(fileURLWithPath: config).appendingPathComponent("systemd/user")
        } else {
            directory = URL(fileURLWithPath: environment["HOME"] ?? NSHomeDirectory()).appendingPathComponent(".config/systemd/user")
        }
    }

    /// This program as installed (`/proc/self/exe`), so the timer runs the same one.
    static func executable() -> String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    var name: String { "bulwark-watch-" + String(Digest.sha256(Array(vaultPath.path.utf8)).hex.prefix(12)) }
    var timerName: String { name + ".timer" }
    var service: URL { directory.appendingPathComponent(name + ".service") }
    var timer: URL { directory.appendingPathComponent(timerName) }

    /// The look as a shell or cron line would run it.
    var command: String {
        ([executable, "--vault", vaultPath.path, "watch", "--quiet"] + (online ? ["--online"] : [])).map(shellQuoted).joined(separator: " ")
    }

    /// A word of ExecStart: quoted as systemd reads it, `%` and `$` doubled so no specifier or variable is expanded.
    static func execWord(_ word: String) -> String {
        let escaped = word.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "%", with: "%%").replacingOccurrences(of: "$", with: "$$")
        return "\"" + escaped + "\""
    }

    /// Unit text is one line per setting: a newline in a path would end it.
    static func describe(_ path: String) -> String { String(path.map { $0.isNewline || $0.asciiValue.map { $0 < 0x20 } == true ? "?" : $0 }) }

    var serviceText: String {
        let words = [executable, "--vault", vaultPath.path, "watch", "--quiet"] + (online ? ["--online"] : [])
        return """
        [Unit]
        Description=bulwark: look for the passwords of \(Self.describe(vaultPath.path).replacingOccurrences(of: "%", with: "%%")) in new breach data

        [Service]
        Type=oneshot
        ExecStart=\(words.map(Self.execWord).joined(separator: " "))

        """
    }

    var timerText: String {
        """
        [Unit]
        Description=bulwark: a daily look for new breach data (\(name))

        [Timer]
        OnCalendar=daily
        Persistent=true
        RandomizedDelaySec=1h

        [Install]
        WantedBy=timers.target

        """
    }

    func write() throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data(serviceText.utf8).write(to: service, options: .atomic)
        try Data(timerText.utf8).write(to: timer, options: .atomic)
    }

    enum Enabled: Equatable { case enabled, noSystemctl, failed(Int32) }

    func enable() -> Enabled {
        guard let reload = Spawn.run("systemctl", ["--user", "daemon-reload"]) else { return .noSystemctl }
        guard reload == 0 else { return .failed(reload) }
        let status = Spawn.run("systemctl", ["--user", "enable", "--now", timerName]) ?? 127
        return status == 0 ? .enabled : .failed(status)
    }

    /// Disables and removes the units; whether there were any.
    func remove() -> Bool {
        let present = FileManager.default.fileExists(atPath: timer.path) || FileManager.default.fileExists(atPath: service.path)
        guard present else { return false }
        _ = Spawn.run("systemctl", ["--user", "disable", "--now", timerName])
        try? FileManager.default.removeItem(at: timer)
        try? FileManager.default.removeItem(at: service)
        _ = Spawn.run("systemctl", ["--user", "daemon-reload"])
        return true
    }
}
