import Foundation
import Testing

/// The desktop's clipboard through its tool (here a stand-in `xclip` that
/// keeps the clipboard in a file, as the real one keeps it in the X
/// server): the secret arrives, and after its time, on lock and on quit,
/// what was there before comes back; a clipboard the person has changed
/// since is left alone.
@Suite(.serialized) struct SystemClipboardTests {
    static let password = "gomzyp-Wacfi4-tezmur"  // Bookshop's, the first entry

    struct Desktop {
        let directory: URL
        var clipboard: URL { directory.appendingPathComponent("clipboard") }
        var contents: String { (try? String(contentsOf: clipboard, encoding: .utf8)) ?? "" }
        func set(_ text: String) throws { try Data(text.utf8).write(to: clipboard) }
        /// What the tool had open beyond its stdin, stdout and stderr and
        /// the shell's own (its script, and its saved copies of those
        /// three): nothing of bulwark's, which a real xclip serving the
        /// selection would keep open (a lock stays held, a file in use).
        var inherited: [String] {
            let listing = (try? String(contentsOf: directory.appendingPathComponent("descriptors"), encoding: .utf8)) ?? ""
            let open = listing.split(separator: "\n").compactMap { line -> (fd: String, target: String)? in
                let sides = line.components(separatedBy: " -> ")
                guard sides.count == 2, let fd = sides[0].split(separator: " ").last else { return nil }
                return (String(fd), sides[1])
            }
            let standard = Set(open.filter { ["0", "1", "2"].contains($0.fd) }.map(\.target))
            return open.filter { !["0", "1", "2"].contains($0.fd) && !standard.contains($0.target) && !$0.target.hasSuffix("/xclip") }
                .map { "\($0.fd) \($0.target)" }
        }

        init(seconds: Int) throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("bulwark-desktop-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let tool = directory.appendingPathComponent("xclip")
            try Data("""
            #!/bin/sh
            case "$*" in
              *-in*) cat > "\(directory.path)/clipboard"
                ls -l /proc/$$/fd > "\(directory.path)/descriptors" ;;
              *-out*) [ -f "\(directory.path)/clipboard" ] && cat "\(directory.path)/clipboard" || exit 1 ;;
            esac

            """.utf8).write(to: tool)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: tool.path)
            try Data("clipboard-seconds = \(seconds)\n".utf8).write(to: directory.appendingPathComponent("config"))
        }

        func app() throws -> TmuxSession {
            try TmuxSession(width: 120, height: 30, command: "\(Binary.path) demo --no-lock",
                            environment: ["TERM": "xterm-256color", "DISPLAY": ":99", "PATH": "\(directory.path):/usr/bin:/bin",
                                          "BULWARK_CONFIG": directory.appendingPathComponent("config").path])
        }

        func waitFor(_ text: String, seconds: Double = 20) -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if contents == text { return true }
                usleep(100_000)
            }
            return false
        }
    }

    /// `get --copy` returns at once; a keeper of its own puts the earlier
    /// text back after clipboard-seconds (the command has long ended).
    @Test func getCopyHandsTheSecretToAKeeper() throws {
        let desktop = try Desktop(seconds: 1)
        defer { try? FileManager.default.removeItem(at: desktop.directory) }
        let f = try VaultCommandTests.Fixture()
        #expect(try f.run(["add", "--title", "Mail", "--entry-password-stdin"], stdin: "master\nmail-secret-9\n").status == 0)
        try desktop.set("the earlier text")
        let environment = ["DISPLAY": ":99", "PATH": "\(desktop.directory.path):/usr/bin:/bin",
                           "BULWARK_CONFIG": desktop.directory.appendingPathComponent("config").path]
        let copied = try Binary.run(["get", "Mail", "--copy", "--vault", f.vault, "--password-stdin"], stdin: "master\n", environment: environment)
        #expect(copied.status == 0 && copied.stdout.isEmpty, "\(copied.stderr)")
        #expect(copied.stderr == "bulwark: Copied the password of Mail with xclip; what it replaced comes back in 1 s.\n")
        #expect(desktop.contents == "mail-secret-9")
        #expect(desktop.waitFor("the earlier text"))
        // No clipboard tool at all: said, exit 1, nothing copied.
        let none = try Binary.run(["get", "Mail", "--copy", "--vault", f.vault, "--password-stdin"], stdin: "master\n",
                                  environment: ["DISPLAY": "", "WAYLAND_DISPLAY": "", "PATH": "/nonexistent"])
        #expect(none.status == 1 && none.stderr == "bulwark: no clipboard tool is installed (wl-copy, xclip or xsel); nothing was copied.\n", "\(none.stderr)")
    }

    @Test func theEarlierTextComesBackAfterTheTimeAndOnQuit() throws {
        let desktop = try Desktop(seconds: 2)
        defer { try? FileManager.default.removeItem(at: desktop.directory) }
        try desktop.set("the earlier text")
        let tmux = try desktop.app()
        defer { tmux.close() }
        try tmux.waitFor(text: "1/42")
        try tmux.send("p")
        try tmux.waitFor(text: "Copied the password of Bookshop with xclip (what it replaced comes back in 2 seconds")
        #expect(desktop.contents == Self.password)
        #expect(desktop.inherited == [])
        try tmux.waitFor(text: "The clipboard was cleared: it has its earlier text back.")
        #expect(desktop.contents == "the earlier text")

        try tmux.send("p")
        #expect(desktop.waitFor(Self.password))
        try tmux.send("q")
        #expect(try tmux.exitStatus() == 0)
        #expect(desktop.contents == "the earlier text")
    }

    @Test func aClipboardChangedSinceIsLeftAlone() throws {
        let desktop = try Desktop(seconds: 600)
        defer { try? FileManager.default.removeItem(at: desktop.directory) }
        let tmux = try desktop.app()
        defer { tmux.close() }
        try tmux.waitFor(text: "1/42")
        try tmux.send("p")
        #expect(desktop.waitFor(Self.password))
        try desktop.set("something the person copied")
        try tmux.send("L")
        try tmux.waitFor(text: "Unlock")
        usleep(300_000)
        #expect(desktop.contents == "something the person copied")

        // With nothing there before, the secret is emptied away on lock.
        try desktop.set("")
        try tmux.send("d", "e", "m", "o", "Enter")
        try tmux.waitFor(text: "1/42")
        try tmux.send("p")
        #expect(desktop.waitFor(Self.password))
        try tmux.send("L")
        #expect(desktop.waitFor(""))
    }

    static let xvfb = ["/usr/bin/Xvfb"].first { FileManager.default.isExecutableFile(atPath: $0) }
    static let xclip = ["/usr/bin/xclip"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// The real thing: an X server (Xvfb) and the real xclip, which stays
    /// behind to serve the selection as it does on a desktop.
    @Test(.enabled(if: xvfb != nil && xclip != nil, "Xvfb or xclip is not installed (make test-deps installs Debian's xvfb and xclip)"))
    func aRealXServerWithXclip() throws {
        // A display no server holds (a killed run can leave its lock behind), and a server that is gone after the test.
        let number = try #require((70..<200).first { !FileManager.default.fileExists(atPath: "/tmp/.X\($0)-lock") && !FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\($0)") })
        let display = ":\(number)"
        let server = Process()
        server.executableURL = URL(fileURLWithPath: Self.xvfb!)
        server.arguments = [display, "-nolisten", "tcp"]
        server.standardOutput = FileHandle.nullDevice
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer {
            let pid = server.processIdentifier
            kill(pid, SIGTERM)
            for _ in 0..<20 where server.isRunning { usleep(100_000) }
            if server.isRunning { kill(pid, SIGKILL) }
            try? FileManager.default.removeItem(atPath: "/tmp/.X\(number)-lock")
            try? FileManager.default.removeItem(atPath: "/tmp/.X11-unix/X\(number)")
        }
        let socket = "/tmp/.X11-unix/X\(display.dropFirst())"
        for _ in 0..<50 where !FileManager.default.fileExists(atPath: socket) { usleep(100_000) }
        func clipboard(_ arguments: [String], _ input: String? = nil) throws -> String {
            let result = try Binary.run(["-selection", "clipboard"] + arguments, stdin: input ?? "", environment: ["DISPLAY": display], program: Self.xclip!)
            return result.stdout
        }
        _ = try clipboard(["-in"], "before bulwark")
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("bulwark-x11-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: config) }
        try Data("clipboard-seconds = 2\n".utf8).write(to: config)
        let tmux = try TmuxSession(width: 120, height: 30, command: "\(Binary.path) demo --no-lock",
                                   environment: ["TERM": "xterm-256color", "DISPLAY": display, "BULWARK_CONFIG": config.path])
        defer { tmux.close() }
        try tmux.waitFor(text: "1/42")
        try tmux.send("p")
        try tmux.waitFor(text: "Copied the password of Bookshop with xclip")
        #expect(try clipboard(["-out"]) == Self.password)
        try tmux.waitFor(text: "The clipboard was cleared: it has its earlier text back.")
        #expect(try clipboard(["-out"]) == "before bulwark")
    }
}
