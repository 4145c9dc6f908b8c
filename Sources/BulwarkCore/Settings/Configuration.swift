import Foundation

/// Settings kept in `$XDG_CONFIG_HOME/bulwark/config` (else
/// `~/.config/bulwark/config`; `BULWARK_CONFIG` names another file). One
/// `key = value` per line, `#` starts a comment; relative paths are read
/// from the file's directory and `~/` is the home directory. Command-line
/// flags override what is set here, and the TUI reads the same file.
///
///     breach-corpus = ~/pwned/pwned-passwords-sha1-ordered-by-hash-v8.txt
///     quirks = ~/src/password-manager-resources/quirks
///     services = ~/bulwark-services
///     weak-below-bits = 35
///     old-after-days = 365
///     lock-after-minutes = 5
///     reveal-seconds = 30
///     clipboard-seconds = 30
///     backups-kept = 20
///     backup-every-minutes = 1
///     symbols = unicode          # or console, ascii (found from TERM and the locale otherwise)
///     mouse = on                 # or off
///     confirm-service-changes = on   # off: u tells the service without asking first
///     git-credential-store = off     # on: `git-credential store` keeps what git hands it
///     agent = off                # on: the first command that unlocks starts `bulwark agent` with the key
///     agent-lock-after-minutes = 15  # the agent forgets a key unused this long
///     ssh-approve-command = /usr/bin/my-approver   # asked when no app is open: exit 0 approves a signature
///     ssh-approve-wait-seconds = 60  # a signature question unanswered this long is declined
///     online = off               # on: analyze asks a Pwned Passwords range API (k-anonymity)
///     range-url = https://api.pwnedpasswords.com/range
public struct Configuration: Sendable, Equatable {
    /// Pwned Passwords files searched after the built-in list (repeatable).
    public var breachCorpora: [String] = []
    public var quirks: String?
    public var services: String?
    public var analysis = AnalysisSettings()
    /// Idle time after which an open vault locks.
    public var lockAfterMinutes: Double = 5
    /// How long a revealed password stays shown in the app.
    public var revealSeconds: Double = 30
    /// How long a copied secret stays on the clipboard.
    public var clipboardSeconds: Double = 30
    /// Copies of the vault taken before changes (0 kept: none).
    public var backups = BackupPolicy.standard
    /// The symbols the app draws with (`unicode`, `console`, `ascii`); nil: found from TERM and the locale.
    public var symbols: String?
    /// Whether the app takes mouse clicks and the wheel.
    public var mouse = true
    /// Whether the app asks before `u` tells a service to take a new password.
    public var confirmServiceChanges = true
    /// Whether `git-credential store` keeps what git hands it.
    public var gitCredentialStore = false
    /// Whether a command that unlocks with the master password hands the key to `bulwark agent` (started if need be).
    public var agent = false
    /// How long `bulwark agent` keeps a key nobody asks for.
    public var agentLockAfterMinutes: Double = 15
    /// A program `bulwark ssh-agent` runs to ask for a signature's approval when no app is open (its path; exit 0 approves).
    public var sshApproveCommand: String?
    /// How long the SSH agent waits for an answer before it declines.
    public var sshApproveWaitSeconds: Double = 60
    /// Whether `analyze` also asks a Pwned Passwords range API (only each
    /// password's 5-hex-digit SHA-1 prefix leaves the machine).
    public var onlineBreachCheck = false
    /// The range API: `URL/ABCDE` is fetched for prefix ABCDE.
    public var rangeURL = Configuration.pwnedPasswordsRangeURL

    /// The generator's choices, as the app's Ctrl-G sheet last left them.
    public var generator = GeneratorChoice()
    /// The largest attachment and the most all may hold (`attachment-limit-mib`, `attachments-limit-mib`).
    public var attachmentLimits = AttachmentLimits.standard

    public static let pwnedPasswordsRangeURL = "https://api.pwnedpasswords.com/range"

    public init() {}

    public static let keys = ["breach-corpus", "quirks", "services", "weak-below-bits", "old-after-days", "lock-after-minutes",
                              "reveal-seconds", "clipboard-seconds", "backups-kept",
                              "backup-every-minutes", "symbols", "mouse", "online", "range-url", "generator",
                              "attachment-limit-mib", "attachments-limit-mib", "confirm-service-changes", "git-credential-store",
                              "agent", "agent-lock-after-minutes", "ssh-approve-command", "ssh-approve-wait-seconds"]

    public struct ParseError: Error, Equatable, CustomStringConvertible {
        public let file: String
        public let line: Int
        public let reason: String
        public var description: String { "\(file):\(line): \(reason)" }
    }

    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let path = environment["BULWARK_CONFIG"], !path.isEmpty { return URL(fileURLWithPath: path) }
        if let base = environment["XDG_CONFIG_HOME"], base.hasPrefix("/") {
            return URL(fileURLWithPath: base).appendingPathComponent("bulwark/config")
        }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return URL(fileURLWithPath: home).appendingPathComponent(".config/bulwark/config")
    }

    /// Writes one key's line into the config file at `url`: the line that
    /// sets it replaced, or one added; every other line (comments too) kept;
    /// the file made (0600, its folder 0700) when there is none, and replaced whole.
    public static func remember(_ key: String, _ value: String, at url: URL) throws {
        let old = FileManager.default.contents(atPath: url.path).map { String(decoding: $0, as: UTF8.self) } ?? ""
        var lines = old.isEmpty ? [] : old.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        let line = "\(key) = \(value)"
        if let index = lines.firstIndex(where: { $0.split(separator: "=", maxSplits: 1).first?.trimmingCharacters(in: .whitespaces) == key }) {
            lines[index] = line
        } else {
            lines.append(line)
        }
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let scratch = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString.prefix(8))")
        guard FileManager.default.createFile(atPath: scratch.path, contents: Data((lines.joined(separator: "\n") + "\n").utf8),
                                             attributes: [.posixPermissions: 0o600]) else {
            throw ParseError(file: url.path, line: 0, reason: "cannot be written")
        }
        guard rename(scratch.path, url.path) == 0 else {
            try? FileManager.default.removeItem(at: scratch)
            throw ParseError(file: url.path, line: 0, reason: "cannot be written")
        }
    }

    /// The configuration at the default path; the defaults when there is no file.
    public static func load(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Configuration {
        let url = defaultPath(environment: environment)
        guard FileManager.default.fileExists(atPath: url.path) else { return Configuration() }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw ParseError(file: url.path, line: 0, reason: "cannot be read")
        }
        return try parse(String(decoding: data, as: UTF8.self), file: url.path,
                         home: environment["HOME"] ?? NSHomeDirectory())
    }

    public static func parse(_ text: String, file: String, home: String) throws -> Configuration {
        var config = Configuration()
        let directory = (file as NSString).deletingLastPathComponent
        func path(_ value: String) -> String {
            if value == "~" { return home }
            if value.hasPrefix("~/") { return home + value.dropFirst(1) }
            return value.hasPrefix("/") ? value : (directory as NSString).appendingPathComponent(value)
        }
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let lineNumber = index + 1
            let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let eq = line.firstIndex(of: "=") else {
                throw ParseError(file: file, line: lineNumber, reason: "expected 'key = value'")
            }
            let key = line[..<eq].trimmingCharacters(in: .whitespaces)
            let value = line[line.index(after: eq)...].trimmingCharacters(in: .whitespaces)
            guard !value.isEmpty else { throw ParseError(file: file, line: lineNumber, reason: "'\(key)' has no value") }
            func number<T: LosslessStringConvertible & Comparable>(_ range: ClosedRange<T>) throws -> T {
                guard let n = T(value), range.contains(n) else {
                    throw ParseError(file: file, line: lineNumber, reason: "'\(key)' must be a number from \(range.lowerBound) to \(range.upperBound)")
                }
                return n
            }
            switch key {
            case "breach-corpus": config.breachCorpora.append(path(value))
            case "quirks": config.quirks = path(value)
            case "services": config.services = path(value)
            case "weak-below-bits": config.analysis.weakBelowBits = try number(0.0...200.0)
            case "old-after-days": config.analysis.oldAfterDays = try number(1...36_500)
            case "lock-after-minutes": config.lockAfterMinutes = try number(0.5...1440.0)
            case "reveal-seconds": config.revealSeconds = try number(1.0...3600.0)
            case "clipboard-seconds": config.clipboardSeconds = try number(1.0...600.0)
            case "backups-kept": config.backups.kept = try number(0...1000)
            case "backup-every-minutes": config.backups.interval = try number(0.0...10_080.0) * 60
            case "symbols":
                guard ["unicode", "console", "ascii"].contains(value.lowercased()) else {
                    throw ParseError(file: file, line: lineNumber, reason: "'symbols' must be unicode, console or ascii")
                }
                config.symbols = value.lowercased()
            case "mouse":
                guard ["on", "off"].contains(value.lowercased()) else { throw ParseError(file: file, line: lineNumber, reason: "'mouse' must be on or off") }
                config.mouse = value.lowercased() == "on"
            case "git-credential-store":
                guard ["on", "off"].contains(value.lowercased()) else {
                    throw ParseError(file: file, line: lineNumber, reason: "'git-credential-store' must be on or off")
                }
                config.gitCredentialStore = value.lowercased() == "on"
            case "agent":
                guard ["on", "off"].contains(value.lowercased()) else { throw ParseError(file: file, line: lineNumber, reason: "'agent' must be on or off") }
                config.agent = value.lowercased() == "on"
            case "agent-lock-after-minutes": config.agentLockAfterMinutes = try number(0.01...1440.0)
            case "ssh-approve-command":
                guard value.hasPrefix("/") else {
                    throw ParseError(file: file, line: lineNumber, reason: "'ssh-approve-command' must be a program's absolute path (it is run without a shell)")
                }
                config.sshApproveCommand = value
            case "ssh-approve-wait-seconds": config.sshApproveWaitSeconds = try number(1.0...3600.0)
            case "confirm-service-changes":
                guard ["on", "off"].contains(value.lowercased()) else {
                    throw ParseError(file: file, line: lineNumber, reason: "'confirm-service-changes' must be on or off")
                }
                config.confirmServiceChanges = value.lowercased() == "on"
            case "online":
                let yes = ["on", "true", "yes"], no = ["off", "false", "no"]
                guard (yes + no).contains(value.lowercased()) else { throw ParseError(file: file, line: lineNumber, reason: "'online' must be on or off (true or false)") }
                config.onlineBreachCheck = yes.contains(value.lowercased())
            case "range-url":
                guard let url = URL(string: value), ["https", "http"].contains(url.scheme ?? ""), url.host != nil else {
                    throw ParseError(file: file, line: lineNumber, reason: "'range-url' must be an http or https URL")
                }
                config.rangeURL = value
            case "generator": config.generator = GeneratorChoice(text: value)
            case "attachment-limit-mib": config.attachmentLimits.perFile = Int64(try number(1...1_048_576)) << 20
            case "attachments-limit-mib": config.attachmentLimits.perVault = Int64(try number(1...16_777_216)) << 20
            default:
                throw ParseError(file: file, line: lineNumber, reason: "unknown key '\(key)' (known: \(keys.joined(separator: ", ")))")
            }
        }
        return config
    }
}
