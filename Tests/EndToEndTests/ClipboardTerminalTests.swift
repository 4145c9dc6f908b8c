import Foundation
import Testing

/// The clipboard through tmux with `set-clipboard on` (tmux takes OSC 52
/// into a paste buffer): a copied password is there, and it is gone after
/// the configured time, on lock, and on quit. tmux ignores an empty OSC 52,
/// the clear xterm takes; bulwark's blank is taken by both.
@Suite(.serialized) struct ClipboardTerminalTests {
    static func session(seconds: Int) throws -> (TmuxSession, URL) {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("bulwark-clip-\(UUID().uuidString)")
        try Data("clipboard-seconds = \(seconds)\n".utf8).write(to: config)
        let tmux = try TmuxSession(width: 100, height: 30, command: "\(Binary.path) demo --no-lock",
                                   environment: ["TERM": "xterm-256color", "BULWARK_CONFIG": config.path])
        _ = try tmux.command("set-option", "-s", "set-clipboard", "on")
        try tmux.waitFor(text: "1/42")
        return (tmux, config)
    }

    /// The newest paste buffer, or "" when there is none.
    static func buffer(_ tmux: TmuxSession) -> String { (try? tmux.command("show-buffer")) ?? "" }

    static func waitForBuffer(_ tmux: TmuxSession, seconds: Double, _ predicate: (String) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if predicate(buffer(tmux)) { return true }
            usleep(100_000)
        }
        return false
    }

    @Test func aCopiedPasswordIsClearedAfterItsTimeOnLockAndOnQuit() throws {
        let (tmux, config) = try Self.session(seconds: 2)
        defer { tmux.close(); try? FileManager.default.removeItem(at: config) }
        let password = "gomzyp-Wacfi4-tezmur"  // Bookshop's, the first entry
        try tmux.send("p")
        #expect(Self.waitForBuffer(tmux, seconds: 5) { $0 == password }, "the copy never reached tmux")
        #expect(Self.waitForBuffer(tmux, seconds: 6) { $0 == " " }, "still on the clipboard: \(Self.buffer(tmux) == password)")
        try tmux.waitFor(text: "The clipboard was cleared.")

        try tmux.send("p")
        #expect(Self.waitForBuffer(tmux, seconds: 5) { $0 == password })
        try tmux.send("L")
        #expect(Self.waitForBuffer(tmux, seconds: 1.5) { $0 == " " }, "locking left the password on the clipboard")
    }

    /// tmux's default (set-clipboard external) drops a program's OSC 52: the
    /// app asks tmux and says so, instead of claiming a copy.
    @Test func tmuxThatDropsCopiesIsSaidPlainly() throws {
        let tmux = try TmuxSession(width: 120, height: 30, command: "\(Binary.path) demo --no-lock",
                                   environment: ["TERM": "xterm-256color", "TMUX": "$TMUX"])
        defer { tmux.close() }
        _ = try tmux.command("set-option", "-s", "set-clipboard", "external")
        try tmux.waitFor(text: "1/42")
        try tmux.send("p")
        try tmux.waitFor(text: "tmux passes no program's copy on (its set-clipboard is external)")
        #expect(!Self.buffer(tmux).contains("gomzyp"))  // and no buffer holds the password
    }

    /// With tmux's allow-passthrough on, the copy is wrapped for the
    /// terminal outside tmux, and the status says so.
    @Test func tmuxPassthroughCarriesTheCopyOut() throws {
        let tmux = try TmuxSession(width: 120, height: 30, command: "\(Binary.path) demo --no-lock",
                                   environment: ["TERM": "xterm-256color", "TMUX": "$TMUX"])
        defer { tmux.close() }
        _ = try tmux.command("set-option", "-s", "set-clipboard", "external")
        _ = try tmux.command("set-option", "-g", "allow-passthrough", "on")
        try tmux.waitFor(text: "1/42")
        try tmux.send("p")
        try tmux.waitFor(text: "Sent the password of Bookshop to the terminal's clipboard (OSC 52, through tmux's passthrough)")
        try tmux.send("j")
        try tmux.waitFor(text: "The clipboard is cleared in ")
    }

    @Test func quittingClearsTheClipboard() throws {
        let (tmux, config) = try Self.session(seconds: 600)
        defer { tmux.close(); try? FileManager.default.removeItem(at: config) }
        try tmux.send("p")
        #expect(Self.waitForBuffer(tmux, seconds: 5) { $0 == "gomzyp-Wacfi4-tezmur" })
        try tmux.send("q")
        #expect(try tmux.exitStatus() == 0)
        #expect(Self.buffer(tmux) == " ", "quitting left the password on the clipboard")
    }
}
