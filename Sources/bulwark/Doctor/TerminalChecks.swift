import BulwarkTUI
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The terminal bulwark would draw on: TERM and its terminfo, colours,
/// the locale's character set, the size, and whether a copy can reach the
/// desktop's clipboard through OSC 52 (tmux's set-clipboard included).
struct TerminalChecks {
    let environment: [String: String]
    /// The terminfo directories searched, in ncurses' order.
    var terminfoDirectories: [String] {
        var directories: [String] = []
        if let dir = environment["TERMINFO"], !dir.isEmpty { directories.append(dir) }
        if let home = environment["HOME"] { directories.append(home + "/.terminfo") }
        for dir in (environment["TERMINFO_DIRS"] ?? "").split(separator: ":") { directories.append(String(dir)) }
        return directories + ["/etc/terminfo", "/lib/terminfo", "/usr/share/terminfo"]
    }
    static let area = "terminal"

    func run() -> [DoctorCheck] {
        [term(), locale(), size(), clipboard()].flatMap { $0 }
    }

    func term() -> [DoctorCheck] {
        let area = Self.area
        let fix = "export TERM=xterm-256color   # or run bulwark in a terminal emulator"
        guard let term = environment["TERM"], !term.isEmpty else {
            return [.problem(area, "TERM", "TERM is not set: the full-screen app cannot draw", fix: fix)]
        }
        if term == "dumb" {
            return [.problem(area, "TERM", "TERM=dumb: this terminal cannot move the cursor, so the full-screen app cannot draw (the other commands work)", fix: fix)]
        }
        guard let file = terminfoFile(for: term) else {
            return [.problem(area, "TERM", "TERM=\(term), but no terminfo entry for it in \(terminfoDirectories.joined(separator: ", "))",
                             fix: "sudo apt-get install ncurses-term   # or: export TERM=xterm-256color")]
        }
        var checks: [DoctorCheck] = [.ok(area, "TERM", "\(term) (\(file))")]
        let colours = Self.colours(inTerminfo: file)
        switch colours {
        case let count? where count >= 256: checks.append(.ok(area, "colours", "\(count)"))
        case let count? where count >= 8: checks.append(.ok(area, "colours", "\(count) (the app's theme fits in 8)"))
        default:
            checks.append(.warning(area, "colours", "none: the app draws in bold and reverse only",
                                   fix: "export TERM=xterm-256color   # if the terminal has colours"))
        }
        return checks
    }

    /// The terminfo file ncurses would load: DIR/x/NAME, or DIR/78/NAME on
    /// file systems that fold case.
    func terminfoFile(for term: String) -> String? {
        guard let first = term.unicodeScalars.first, !term.contains("/") else { return nil }
        for directory in terminfoDirectories {
            for sub in [String(first), String(format: "%02x", first.value)] {
                let path = "\(directory)/\(sub)/\(term)"
                if FileManager.default.isReadableFile(atPath: path) { return path }
            }
        }
        return nil
    }

    /// max_colors from a compiled terminfo file (term(5): the legacy
    /// format's 16-bit numbers or the extended 32-bit ones).
    static func colours(inTerminfo path: String) -> Int? {
        guard let data = FileManager.default.contents(atPath: path), data.count >= 12 else { return nil }
        let bytes = [UInt8](data)
        func short(_ at: Int) -> Int { Int(Int16(bitPattern: UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8)) }
        let magic = short(0)
        guard magic == 0o432 || magic == 0o1036 else { return nil }
        let width = magic == 0o432 ? 2 : 4
        let names = short(2), booleans = short(4), numbers = short(6)
        var offset = 12 + names + booleans
        if offset % 2 == 1 { offset += 1 }
        let index = 13  // max_colors, the 14th number capability
        guard numbers > index, offset + (index + 1) * width <= bytes.count else { return nil }
        let at = offset + index * width
        let value = width == 2 ? short(at)
            : Int(Int32(bitPattern: UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24))
        return value < 0 ? nil : value
    }

    func locale() -> [DoctorCheck] {
        let name = ["LC_ALL", "LC_CTYPE", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? "C"
        let fix = "export LANG=C.UTF-8"
        guard let set = setlocale(LC_CTYPE, name) else {
            return [.problem(Self.area, "locale", "\(name) is not installed on this machine: the app falls back to ASCII and shows other characters as escapes",
                             fix: "\(fix)   # or: sudo dpkg-reconfigure locales")]
        }
        _ = set
        let codeset = String(cString: nl_langinfo(nl_item(CODESET)))
        setlocale(LC_CTYPE, "C")
        if codeset == "UTF-8" { return [.ok(Self.area, "locale", "\(name) (UTF-8)")] }
        return [.problem(Self.area, "locale", "\(name) (\(codeset)): not UTF-8, so the app draws ASCII symbols and cannot show characters outside ASCII",
                         fix: fix)]
    }

    func size() -> [DoctorCheck] {
        var window = winsize()
        guard isatty(STDOUT_FILENO) == 1, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0 else {
            return [.ok(Self.area, "size", "not a terminal (standard output is redirected)")]
        }
        let found = "\(window.ws_col)x\(window.ws_row)"
        let width = AppState.minimumWidth, height = AppState.minimumHeight
        if Int(window.ws_col) < width || Int(window.ws_row) < height {
            return [.problem(Self.area, "size", "\(found): the app needs at least \(width)x\(height) and asks for a bigger window",
                             fix: "make the window at least \(width) columns by \(height) rows")]
        }
        return [.ok(Self.area, "size", found)]
    }

    /// OSC 52 is an escape sequence the terminal must choose to honour;
    /// this names the ones known to, and tmux passes it on only with
    /// set-clipboard on or external.
    func clipboard() -> [DoctorCheck] {
        var checks: [DoctorCheck] = []
        let term = environment["TERM"] ?? "", program = environment["TERM_PROGRAM"] ?? ""
        let knownPrograms = ["iTerm.app", "WezTerm", "vscode", "ghostty", "tmux"]
        let knownTerms = ["xterm-kitty", "alacritty", "foot", "wezterm", "xterm-ghostty", "tmux", "screen"]
        if !(environment["TMUX"] ?? "").isEmpty {
            let value = Self.tmuxOption("set-clipboard")
            switch value {
            case "on"?, "external"?: checks.append(.ok(Self.area, "clipboard", "tmux passes OSC 52 copies on (set-clipboard \(value!))"))
            case let value?: checks.append(.warning(Self.area, "clipboard", "tmux's set-clipboard is \(value): copies sent as OSC 52 stop at tmux",
                                                    fix: "tmux set -g set-clipboard on   # and in ~/.tmux.conf"))
            case nil: checks.append(.warning(Self.area, "clipboard", "inside tmux, but its set-clipboard option could not be read"))
            }
        } else if knownPrograms.contains(program) || knownTerms.contains(where: { term.hasPrefix($0) }) {
            checks.append(.ok(Self.area, "clipboard", "OSC 52 copies are likely to work (\(program.isEmpty ? term : program))"))
        } else if !(environment["DISPLAY"] ?? "").isEmpty || !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty {
            checks.append(.ok(Self.area, "clipboard", "a desktop session: copies go through xclip, xsel or wl-copy when installed, else OSC 52"))
        } else {
            checks.append(.warning(Self.area, "clipboard", "unknown whether this terminal honours OSC 52 copies (TERM=\(term.isEmpty ? "unset" : term))"))
        }
        return checks
    }

    /// A tmux server option's value, or nil when tmux does not answer within a second.
    static func tmuxOption(_ name: String) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["tmux", "show-options", "-gv", name]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let deadline = Date().addingTimeInterval(1)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { process.terminate(); return nil }
        guard process.terminationStatus == 0 else { return nil }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
