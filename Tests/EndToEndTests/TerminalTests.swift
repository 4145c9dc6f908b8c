import Foundation
import Testing

/// The real binary in a real terminal (tmux). Serialized: each test starts
/// its own tmux server, and a full-screen program per test is plenty.
@Suite(.serialized) struct TerminalTests {
    static let demo = "\(Binary.path) demo --no-lock"

    @Test func startUpDrawsTheSkeleton() throws {
        let tmux = try TmuxSession(width: 80, height: 24, command: Self.demo)
        defer { tmux.close() }
        let screen = try tmux.waitFor(text: "1/42")
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first?.hasPrefix("┌ bulwark ─ Vault ─") == true)
        #expect(lines.first?.hasSuffix("─ unlocked · 42 items ┐") == true)  // words, no emoji a font may lack
        #expect(screen.contains("│   Bookshop"))
        #expect(screen.contains("Username   jane@mail.example"))
    }

    @Test func movingAndHelpRespondToSingleKeys() throws {
        let tmux = try TmuxSession(width: 80, height: 24, command: Self.demo)
        defer { tmux.close() }
        try tmux.waitFor(text: "1/42")
        try tmux.send("j")
        try tmux.send("Down")
        // Waited for whole: a capture can land while curses is still writing the frame.
        let third = try tmux.waitFor("the third entry") { $0.contains("3/42") && $0.contains("│ Charity") }
        #expect(!third.contains("Website    https://invest.example"))
        try tmux.send("?")
        try tmux.waitFor(text: "Keys: Vault")
        try tmux.send("Escape")
        try tmux.waitFor("the help to close") { !$0.contains("Keys: Vault") }
    }

    @Test func resizeKeepsTheLayoutAndTheSelection() throws {
        let tmux = try TmuxSession(width: 120, height: 40, command: Self.demo)
        defer { tmux.close() }
        try tmux.waitFor(text: "1/42")
        try tmux.send("j")
        try tmux.waitFor(text: "2/42")
        try tmux.resize(width: 60, height: 20)
        let small = try tmux.waitFor("the 60x20 layout") { $0.split(separator: "\n").first?.hasSuffix("items ┐") == true && $0.contains("└" + String(repeating: "─", count: 58) + "┘") }
        #expect(small.contains("2/42"))
        try tmux.resize(width: 120, height: 40)
        let large = try tmux.waitFor("the 120x40 layout") { $0.contains("└" + String(repeating: "─", count: 118) + "┘") }
        #expect(large.contains("2/42"))
        #expect(large.contains("Website    https://invest.example"))
        try tmux.send("q")
        #expect(try tmux.exitStatus() == 0)
    }

    @Test func tooSmallWindowAsksToEnlargeAndRecovers() throws {
        let tmux = try TmuxSession(width: 80, height: 24, command: Self.demo)
        defer { tmux.close() }
        try tmux.waitFor(text: "1/42")
        try tmux.resize(width: 40, height: 10)
        try tmux.waitFor(text: "Please enlarge the window")
        try tmux.resize(width: 80, height: 24)
        try tmux.waitFor(text: "1/42")
    }

    @Test func qQuitsWithZeroAndRestoresTheTerminal() throws {
        let tmux = try TmuxSession(width: 80, height: 24, command: Self.demo)
        defer { tmux.close() }
        try tmux.waitFor(text: "1/42")
        #expect(try tmux.paneValue("#{alternate_on}") == "1")
        try tmux.send("q")
        #expect(try tmux.exitStatus() == 0)
        #expect(try tmux.paneValue("#{alternate_on}") == "0")
        #expect(try tmux.paneValue("#{cursor_flag}") == "1")
        #expect(!(try tmux.capture()).contains("bulwark ─ Vault"))
    }

    @Test func keepLeavesTheDemoDirectoryAndSaysWhere() throws {
        let tmux = try TmuxSession(width: 80, height: 24, command: Self.demo + " --keep")
        defer { tmux.close() }
        try tmux.waitFor(text: "1/42")
        try tmux.send("q")
        #expect(try tmux.exitStatus() == 0)
        let screen = try tmux.capture().replacingOccurrences(of: "\n", with: "")
        let path = try #require(screen.range(of: "kept in ").map { String(screen[$0.upperBound...].prefix { $0 != " " }) })
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(FileManager.default.fileExists(atPath: path + "/vault.db") && FileManager.default.fileExists(atPath: path + "/services/shiny.db"))
    }

    @Test func ctrlCQuitsWithZero() throws {
        let tmux = try TmuxSession(width: 80, height: 24, command: Self.demo)
        defer { tmux.close() }
        try tmux.waitFor(text: "1/42")
        try tmux.send("C-c")
        #expect(try tmux.exitStatus() == 0)
        #expect(try tmux.paneValue("#{alternate_on}") == "0")
    }

    @Test func sigtermRestoresTheTerminal() throws {
        let tmux = try TmuxSession(width: 80, height: 24, command: Self.demo)
        defer { tmux.close() }
        try tmux.waitFor(text: "1/42")
        let pid = try tmux.paneValue("#{pane_pid}")
        // The pane's shell runs bulwark as its child.
        _ = try Spawn.run(["pkill", "-TERM", "-P", pid, "-x", "bulwark"], capture: false)
        #expect(try tmux.exitStatus() == 143)
        #expect(try tmux.paneValue("#{alternate_on}") == "0")
    }

    @Test func colourIsUsedUnlessNoColorIsSet() throws {
        let coloured = try TmuxSession(width: 80, height: 24, command: Self.demo)
        defer { coloured.close() }
        try coloured.waitFor(text: "1/42")
        let colours = try coloured.captureWithStyles()
        #expect(colours.contains("\u{1B}[34m"), "\(colours.prefix(300).debugDescription)")  // the blue border

        let plain = try TmuxSession(width: 80, height: 24, command: Self.demo,
                                    environment: ["TERM": "xterm-256color", "NO_COLOR": "1"])
        defer { plain.close() }
        try plain.waitFor(text: "1/42")
        let styled = try plain.captureWithStyles()
        #expect(!styled.contains("[34m") && !styled.contains("[36m"))
        #expect(styled.contains("\u{1B}[7m") || styled.contains(";7m"))  // the selection is reverse video
    }

    @Test func closingTheTerminalEndsTheProgram() throws {
        let tmux = try TmuxSession(width: 80, height: 24, command: Self.demo)
        try tmux.waitFor(text: "1/42")
        let shell = try tmux.paneValue("#{pane_pid}")
        let found = try Spawn.run(["pgrep", "-P", shell, "-x", "bulwark"], capture: true).output
        let pid = try #require(Int32(found.trimmingCharacters(in: .whitespacesAndNewlines)))
        tmux.close()  // kill-server: the pty goes away under the program
        let deadline = Date().addingTimeInterval(20)
        while kill(pid, 0) == 0 && Date() < deadline { usleep(20_000) }
        #expect(kill(pid, 0) != 0, "bulwark \(pid) kept running after its terminal closed")
    }

    @Test(arguments: ["dumb", "no-such-terminal"])
    func unusableTermSaysSoAndExitsTwo(term: String) throws {
        let tmux = try TmuxSession(width: 80, height: 24, command: Self.demo, environment: ["TERM": term])
        defer { tmux.close() }
        #expect(try tmux.exitStatus() == 2)
        let screen = try tmux.capture()
        #expect(screen.contains("TERM"))
        #expect(!screen.contains("Error opening terminal"))
    }
}
