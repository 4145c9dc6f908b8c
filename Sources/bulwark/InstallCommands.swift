import Foundation

/// `bulwark completions SHELL` and `bulwark manpages DIR`: what an install
/// puts beside the binary, written from the command tables.
enum InstallCommands {
    static func completions(_ parsed: ParsedCommandLine) -> Int32 {
        guard parsed.arguments.count == 1, let script = ShellCompletions.script(for: parsed.arguments[0]) else {
            Output.error("usage: bulwark completions bash|zsh|fish")
            return 2
        }
        print(script, terminator: "")
        return 0
    }

    static func manpages(_ parsed: ParsedCommandLine) -> Int32 {
        guard parsed.arguments.count == 1 else {
            Output.error("usage: bulwark manpages DIR")
            return 2
        }
        let directory = URL(fileURLWithPath: parsed.arguments[0])
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            for page in ManPages.all() {
                try writeReplacing(directory.appendingPathComponent(page.name).path, Array(page.text.utf8))
            }
        } catch {
            Output.error("cannot write the manual pages into \(directory.path): \(error)")
            return 1
        }
        print("\(ManPages.all().count) pages written to \(directory.path)")
        return 0
    }

    struct WriteFailure: Error, CustomStringConvertible {
        let description: String
    }

    /// Writes `bytes` under a new temporary name (O_EXCL and O_NOFOLLOW:
    /// never through a link someone left there), then renames it over
    /// `path`: a link at `path` is replaced, its target never written.
    /// Readable by everyone, as man pages are (bulwark's umask keeps its
    /// own files private).
    static func writeReplacing(_ path: String, _ bytes: [UInt8]) throws {
        let temporary = path + ".bulwark-\(getpid()).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw WriteFailure(description: "\(temporary): \(String(cString: strerror(errno)))") }
        var done = false
        defer {
            close(descriptor)
            if !done { unlink(temporary) }
        }
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == bytes.count, fchmod(descriptor, 0o644) == 0, fsync(descriptor) == 0 else {
            throw WriteFailure(description: "\(temporary): \(String(cString: strerror(errno)))")
        }
        guard rename(temporary, path) == 0 else { throw WriteFailure(description: "\(path): \(String(cString: strerror(errno)))") }
        done = true
    }
}
