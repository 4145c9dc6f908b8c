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
                try Data(page.text.utf8).write(to: directory.appendingPathComponent(page.name))
                // Readable by everyone, as man pages are (bulwark's umask keeps its own files private).
                chmod(directory.appendingPathComponent(page.name).path, 0o644)
            }
        } catch {
            Output.error("cannot write the manual pages into \(directory.path): \(error.localizedDescription)")
            return 1
        }
        print("\(ManPages.all().count) pages written to \(directory.path)")
        return 0
    }
}
