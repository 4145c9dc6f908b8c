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
                // Readable by everyone, as man pages are; never written through a link (`ExportFile`).
                try ExportFile.write(to: directory.appendingPathComponent(page.name).path, mode: 0o644, throughDevices: false) { sink in
                    sink.append(Array(page.text.utf8))
                }
            }
        } catch {
            Output.error("cannot write the manual pages into \(directory.path): \(error)")
            return 1
        }
        print("\(ManPages.all().count) pages written to \(directory.path)")
        return 0
    }
}
