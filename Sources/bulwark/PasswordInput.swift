import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Where secrets come from: with --password-stdin, one line of standard input
/// each, in order (the master password, then any new or entry password);
/// otherwise a prompt on the terminal with echo off. Never from arguments.
final class PasswordInput {
    private let fromStdin: Bool
    private var lines: [String]?

    init(fromStdin: Bool) { self.fromStdin = fromStdin }

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

    struct StdinExhausted: Error, CustomStringConvertible {
        let prompt: String
        var description: String { "standard input ended before the \(prompt.lowercased())" }
    }

    private func ask(_ prompt: String) throws -> String {
        let tty = Glibc.open("/dev/tty", O_RDWR)
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
        return String(decoding: bytes, as: UTF8.self)
    }
}
