import Foundation
import Testing

/// `make install` into a DESTDIR as a user would run it: the installed
/// binary runs, every man page renders without a warning, and bash, zsh
/// and fish load the completions and complete commands, options, values
/// and files. Then `make uninstall` leaves nothing behind.
@Suite(.serialized) struct InstallTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// The binary to install: BULWARK_INSTALL_BIN (make test sets the debug build, make test-release the release one), else the one under test.
    static var installedBinary: String { ProcessInfo.processInfo.environment["BULWARK_INSTALL_BIN"] ?? Binary.path }

    static func shell(_ line: String, environment: [String: String] = [:]) throws -> Binary.Result {
        try Binary.run(["-c", line], environment: environment, program: "/bin/bash")
    }

    /// Whether a Debian package put `tool` where it puts programs.
    static func has(_ tool: String) -> Bool {
        ["/usr/bin/", "/bin/", "/usr/sbin/"].contains { FileManager.default.isExecutableFile(atPath: $0 + tool) }
    }

    /// Installs into a new DESTDIR under PREFIX /usr/local; returns DESTDIR.
    static func install() throws -> URL {
        let destination = FileManager.default.temporaryDirectory.appendingPathComponent("bulwark-destdir-\(UUID().uuidString)")
        let made = try shell("make --no-print-directory -C \(root.path) install RELEASE_BIN=\(installedBinary) DESTDIR=\(destination.path) PREFIX=/usr/local")
        #expect(made.status == 0, "\(made.stdout)\(made.stderr)")
        return destination
    }

    static func files(under directory: URL) -> [String] {
        let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: [.isRegularFileKey])
        var found: [String] = []
        while let url = enumerator?.nextObject() as? URL {
            if (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
                found.append(String(url.path.dropFirst(directory.path.count)))
            }
        }
        return found.sorted()
    }

    @Test func installRunAndUninstall() throws {
        let destination = try Self.install()
        defer { try? FileManager.default.removeItem(at: destination) }
        let prefix = destination.path + "/usr/local"
        let installed = Self.files(under: destination)
        #expect(installed.contains("/usr/local/bin/bulwark"))
        // The binary named by RELEASE_BIN, byte for byte (a misspelt variable once left make install the one in .build).
        #expect(FileManager.default.contentsEqual(atPath: prefix + "/bin/bulwark", andPath: Self.installedBinary))
        #expect(installed.contains("/usr/local/share/man/man1/bulwark.1") && installed.contains("/usr/local/share/man/man1/bulwark-import.1"))
        #expect(installed.contains("/usr/local/share/bash-completion/completions/bulwark"))
        #expect(installed.contains("/usr/local/share/zsh/site-functions/_bulwark"))
        #expect(installed.contains("/usr/local/share/fish/vendor_completions.d/bulwark.fish"))
        #expect(installed.contains("/usr/local/share/applications/bulwark-code-setup.desktop"))

        let version = try Binary.run(["--version"], program: prefix + "/bin/bulwark")
        #expect(version.status == 0 && version.stdout.hasPrefix("bulwark "))

        // Every page renders with no warning from man or groff.
        let pages = installed.filter { $0.hasSuffix(".1") }
        #expect(pages.count == CommandTables.commands().count + 1)
        for page in pages {
            let rendered = try Self.shell("MANWIDTH=80 man --warnings -l \(destination.path + page) 2>&1 >/dev/null", environment: ["LC_ALL": "C.UTF-8"])
            #expect(rendered.status == 0 && rendered.stdout.isEmpty, "\(page): \(rendered.stdout)")
        }
        let importPage = try Self.shell("MANWIDTH=80 man -l \(prefix)/share/man/man1/bulwark-import.1", environment: ["LC_ALL": "C.UTF-8"])
        #expect(importPage.stdout.contains("       --skip-bad-rows\n              Import the rest when a row cannot be read (each is named)\n"))

        let removed = try Self.shell("make --no-print-directory -C \(Self.root.path) uninstall DESTDIR=\(destination.path) PREFIX=/usr/local")
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(Self.files(under: destination) == [])
    }

    /// The completion script `make install` put in place for `shell`, in a DESTDIR removed after `body`.
    static func withInstalledScript(_ path: String, _ body: (URL) throws -> Void) throws {
        let destination = try install()
        defer { try? FileManager.default.removeItem(at: destination) }
        try body(destination.appendingPathComponent("usr/local/share/" + path))
    }

    @Test func bashCompletes() throws { try Self.withInstalledScript("bash-completion/completions/bulwark") { (file: URL) throws in
        func complete(_ words: String...) throws -> String {
            let quoted = words.map { "'\($0)'" }.joined(separator: " ")
            let line = "source \(file.path); COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); _bulwark; ((${#COMPREPLY[@]})) && printf '%s\\n' \"${COMPREPLY[@]}\"; true"
            return try Self.shell(line).stdout
        }
        #expect(try complete("bulwark", "imp") == "import\n")
        #expect(try complete("bulwark", "import", "--sk") == "--skip-bad-rows\n")
        #expect(try complete("bulwark", "export", "--format", "") == "bitwarden-json\napple-csv\ncxf\nkdbx\n")
        #expect(try complete("bulwark", "--vault", file.path) == file.path + "\n")
        #expect(try complete("bulwark", "demo", "--autoplay", "upgrade-to-p") == "upgrade-to-passkey\n")
        #expect(try complete("bulwark", "services", "notify", "shiny", "email-d") == "email-disabled\n")
        #expect(try complete("bulwark", "help", "doc") == "doctor\n")
        #expect(try complete("bulwark", "show", "") == "")  // entry titles are never offered
    } }

    @Test(.enabled(if: has("fish"), "fish is not installed (make test-deps installs Debian's fish)"))
    func fishCompletes() throws { try Self.withInstalledScript("fish/vendor_completions.d/bulwark.fish") { (file: URL) throws in
        func complete(_ line: String) throws -> [String] {
            let result = try Binary.run(["--no-config", "-c", "source \(file.path); complete -C '\(line)'"], environment: ["HOME": NSTemporaryDirectory()], program: "/usr/bin/fish")
            #expect(result.stderr.isEmpty, "\(result.stderr)")
            return result.stdout.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }
        }
        #expect(try complete("bulwark imp") == ["import"])
        #expect(try complete("bulwark import --form") == ["--format"])
        #expect(try complete("bulwark export --format ") == ["apple-csv", "bitwarden-json", "cxf", "kdbx"])
        #expect(try complete("bulwark services ") == ["enroll", "notify", "transfer"])
        #expect(try complete("bulwark services notify shiny email-") == ["email-disabled", "email-enabled"])
        #expect(try complete("bulwark demo --autoplay upgrade-to-") == ["upgrade-to-passkey"])
        let directory = file.deletingLastPathComponent().path
        #expect(try complete("bulwark import \(directory)/bulwark.f") == ["\(directory)/bulwark.fish"])
    } }

    @Test(.enabled(if: has("zsh"), "zsh is not installed (make test-deps installs Debian's zsh)"))
    func zshCompletes() throws {
        let destination = try Self.install()
        defer { try? FileManager.default.removeItem(at: destination) }
        // The installed site-functions directory on $fpath; the shell's own files in a directory beside it.
        let directory = destination.appendingPathComponent("usr/local/share/zsh/site-functions")
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("_bulwark").path))
        let home = destination.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        /// An interactive zsh in tmux whose .zshrc ends with `setup`, at its prompt.
        func zsh(_ setup: String) throws -> TmuxSession {
            try Data("\(setup); PS1='zsh> '\n".utf8).write(to: home.appendingPathComponent(".zshrc"))
            let tmux = try TmuxSession(width: 140, height: 30, command: "zsh -i", environment: ["TERM": "xterm-256color", "ZDOTDIR": home.path])
            _ = try tmux.waitFor(text: "zsh>")
            return tmux
        }
        let compinit = "autoload -Uz compinit; compinit -u -d \(home.path)/dump"

        let tmux = try zsh("fpath=(\(directory.path) $fpath); \(compinit)")
        defer { tmux.close() }
        try tmux.sendBytes("bulwark imp")
        try tmux.send("Tab")
        _ = try tmux.waitFor(text: "zsh> bulwark import")
        try tmux.sendBytes("--for")
        try tmux.send("Tab")
        _ = try tmux.waitFor(text: "zsh> bulwark import --format")
        try tmux.send("Tab")
        let listed = try tmux.waitFor(text: "1password-1pux")
        #expect(listed.contains("keepassxc-csv") && listed.contains("bitwarden-json"))
        try tmux.send("C-c")
        // A fresh, empty prompt before typing on: keys typed while zsh still
        // takes the interrupt land on the old line.
        _ = try tmux.waitFor("a fresh prompt") { screen in
            screen.split(separator: "\n", omittingEmptySubsequences: false).contains { $0.trimmingCharacters(in: .whitespaces) == "zsh>" }
        }
        try tmux.sendBytes("bulwark services notify shiny email-d")
        try tmux.send("Tab")
        _ = try tmux.waitFor(text: "zsh> bulwark services notify shiny email-disabled")
        tmux.close()

        // Sourced after compinit instead, as `source <(bulwark completions zsh)` does.
        let sourced = try zsh("\(compinit); source \(directory.path)/_bulwark")
        defer { sourced.close() }
        try sourced.sendBytes("bulwark exp")
        try sourced.send("Tab")
        _ = try sourced.waitFor(text: "zsh> bulwark export")
    }

    /// A link planted where a page goes is replaced, never followed: its
    /// target keeps its bytes (the pages were written through links).
    @Test func manpagesReplacesALinkAndNeverWritesItsTarget() throws {
        let pages = FileManager.default.temporaryDirectory.appendingPathComponent("bulwark-pages-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: pages, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: pages) }
        let target = pages.appendingPathComponent("precious")
        try "keep me\n".write(to: target, atomically: true, encoding: .utf8)
        let link = pages.appendingPathComponent("bulwark.1")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        let run = try Binary.run(["manpages", pages.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try String(contentsOf: target, encoding: .utf8) == "keep me\n")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link.path)) == nil)
        #expect(try String(contentsOf: link, encoding: .utf8).hasPrefix(".TH"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: pages.path).filter { $0.hasSuffix(".tmp") }.isEmpty)
    }

    /// Every command and option the help prints reaches the man pages and
    /// all three completions (each is written from the tables; this fails
    /// when a new one is wired past them).
    @Test func everyOptionReachesEveryPageAndShell() throws {
        let pages = FileManager.default.temporaryDirectory.appendingPathComponent("bulwark-pages-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: pages) }
        #expect(try Binary.run(["manpages", pages.path]).status == 0)
        let bash = try Binary.run(["completions", "bash"]).stdout
        let zsh = try Binary.run(["completions", "zsh"]).stdout
        let fish = try Binary.run(["completions", "fish"]).stdout
        let main = try String(contentsOf: pages.appendingPathComponent("bulwark.1"), encoding: .utf8)
        for command in CommandTables.commands() {
            #expect(main.contains(".TP\n\\fB\(command)\\fR\n"), "bulwark.1 lacks \(command)")
            #expect(bash.contains("        \(command)) echo '--"), "bash lacks \(command)")
            #expect(zsh.contains("'\(command):"), "zsh lacks \(command)")
            #expect(fish.contains("-n __fish_use_subcommand -a \(command) "), "fish lacks \(command)")
            let page = try String(contentsOf: pages.appendingPathComponent("bulwark-\(command).1"), encoding: .utf8)
            let bashOptions = bash.split(separator: "\n").first { $0.hasPrefix("        \(command)) echo '--") }.map(String.init) ?? ""
            let zshCase = zsh.split(separator: "\n").first { $0.hasPrefix("            \(command)) _arguments") }.map(String.init) ?? ""
            for option in try CommandTables.options(of: command) {
                let roff = "\\fB" + option.replacingOccurrences(of: "-", with: "\\-") + "\\fR"
                #expect(page.contains(".TP\n" + roff), "bulwark-\(command).1 lacks \(option)")
                #expect(bashOptions.contains(" \(option) ") || bashOptions.contains("'\(option) "), "bash lacks \(command) \(option)")
                #expect(zshCase.contains("'\(option)[") || zshCase.contains("'*\(option)["), "zsh lacks \(command) \(option)")
                #expect(fish.contains("__fish_seen_subcommand_from \(command)' -l \(option.dropFirst(2)) "), "fish lacks \(command) \(option)")
            }
        }
    }
}

/// The commands and options as `--help` prints them, read from the binary.
enum CommandTables {
    static func commands() -> [String] {
        let help = (try? Binary.run(["--help"]).stdout) ?? ""
        let body = help.components(separatedBy: "Commands:\n").last?.components(separatedBy: "\n\n").first ?? ""
        return body.split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) }
    }

    static func options(of command: String) throws -> [String] {
        let help = try Binary.run(["help", command]).stdout
        guard let section = help.components(separatedBy: "\nOptions:\n").dropFirst().first?.components(separatedBy: "\n\n").first else { return [] }
        return section.split(separator: "\n").compactMap { line in line.split(separator: " ").first.map(String.init) }.filter { $0.hasPrefix("--") }
    }
}
