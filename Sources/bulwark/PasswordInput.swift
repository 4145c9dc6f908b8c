import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A secret given as an argument: every user of the machine can read a
/// process's arguments (`ps`, `/proc/PID/cmdline`), so the forms that carry
/// a lasting secret are refused with the spelling that reads it safely.
enum SecretArgument {
    static func refused(_ option: String, safe: String) -> UsageError {
        UsageError(message: "\(option) with the secret in the command line shows it to every user of this machine (ps, /proc); use \(safe) to type it, or pipe it on standard input after the other secrets. Nothing was changed.", command: nil)
    }

    /// Standard input when it is not a terminal (a pipe), else the terminal.
    static func input(_ parsed: ParsedCommandLine) -> PasswordInput {
        PasswordInput(fromStdin: parsed.globals.passwordStdin || isatty(0) == 0)
    }
}

/// Where secrets come from: with --password-stdin, one line of standard input
/// each, in order (the master password, then any new or entry password);
/// otherwise a prompt on the terminal with echo off. Never from arguments.
final class PasswordInput {
    private let fromStdin: Bool
    private var lines: [String]?

    init(fromStdin: Bool) { self.fromStdin = fromStdin }

    /// Lines already read from standard input (a command that reads the rest of it itself).
    init(lines: [String]) {
        fromStdin = true
        self.lines = lines
    }

    /// Whether secrets are typed on a terminal (a person to ask) rather than piped.
    var isTerminal: Bool { !fromStdin }

    struct Unavailable: Error, CustomStringConvertible {
        var description: String { "no terminal to ask for the password on; pipe it in with --password-stdin" }
    }

    func next(prompt: String) throws -> String {
        if fromStdin {
            if lines == nil {
                let data = FileHandle.standardInput.readDataToEndOfFile()
                lines = String(decoding: data, as: UTF8.self).components(separatedBy: "\n").map {
                    $0.hasSuffix("\r") ? String($0.dropLast()) : $0
                }
            }
            guard let line = lines?.first, !(lines!.count == 1 && line.isEmpty) else {
                throw StdinExhausted(prompt: prompt)
            }
            lines!.removeFirst()
            return line
        }
        return try ask(prompt)
    }

    /// A question on the terminal, answered with a visible line; nil when
    /// secrets come from standard input (a script: no one to ask) or there
    /// is no terminal.
    func question(_ text: String) -> String? {
        guard !fromStdin else { return nil }
        let tty = Glibc.open("/dev/tty", O_RDWR | O_CLOEXEC)
        guard tty >= 0 else { return nil }
        defer { Glibc.close(tty) }
        let prompt = text + " "
        _ = Glibc.write(tty, prompt, prompt.utf8.count)
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while Glibc.read(tty, &byte, 1) == 1, byte != 10, byte != 13 { bytes.append(byte) }
        return String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespaces).lowercased()
    }

    struct StdinExhausted: Error, CustomStringConvertible {
        let prompt: String
        var description: String { "standard input ended before the \(prompt.lowercased())" }
    }

    private func ask(_ prompt: String) throws -> String {
        let tty = Glibc.open("/dev/tty", O_RDWR | O_CLOEXEC)
        guard tty >= 0 else { throw Unavailable() }
        defer { Glibc.close(tty) }
        var saved = termios()
        tcgetattr(tty, &saved)
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(tty, TCSAFLUSH, &quiet)
        defer {
            tcsetattr(tty, TCSAFLUSH, &saved)
            _ = Glibc.write(tty, "\n", 1)
        }
        let text = prompt + ": "
        _ = Glibc.write(tty, text, text.utf8.count)
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while Glibc.read(tty, &byte, 1) == 1, byte != 10, byte != 13 { bytes.append(byte) }
        defer { bytes.wipe() }  // the String made from them cannot be wiped; this buffer can
        return String(decoding: bytes, as: UTF8.self)
    }
}
