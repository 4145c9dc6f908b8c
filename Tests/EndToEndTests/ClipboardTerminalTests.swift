import Foundation
import Testing

/// The clipboard inside tmux. tmux turns a program's OSC 52 into an
/// automatic paste buffer that a blank sent after it does not remove (the
/// password stayed in buffer0 under a blank buffer1), so bulwark copies
/// into a buffer it names itself and deletes it: after the configured time,
/// on lock and on quit, no tmux buffer holds the password.
@Suite(.serialized) struct ClipboardTerminalTests {
    static func session(seconds: Int, width: Int = 100, clipboard: String = "on") throws -> (TmuxSession, URL) {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("bulwark-clip-\(UUID().uuidString)")
        try Data("clipboard-seconds = \(seconds)\n".utf8).write(to: config)
        let tmux = try TmuxSession(width: width, height: 30, command: "\(Binary.path) demo --no-lock",
                                   environment: ["TERM": "xterm-256color", "BULWARK_CONFIG": config.path, "TMUX": "$TMUX"])
        _ = try tmux.command("set-option", "-s", "set-clipboard", clipboard)
        try tmux.waitFor(text: "1/42")
        return (tmux, config)
    }

    /// Every paste buffer's text, joined ("" when there is none).
    static func buffers(_ tmux: TmuxSession) -> String { (try? tmux.command("list-buffers", "-F", "#{buffer_name}=#{buffer_sample}")) ?? "" }

    static func waitForBuffers(_ tmux: TmuxSession, seconds: Double, _ predicate: (String) -> Bool) -> Bool {
        Poll.until(seconds: seconds, every: 0.1) { predicate(buffers(tmux)) }
    }

    static let password = "gomzyp-Wacfi4-tezmur"  // Bookshop's, the first entry

    @Test func aCopiedPasswordIsClearedAfterItsTimeOnLockAndOnQuit() throws {
        let (tmux, config) = try Self.session(seconds: 2)
        defer { tmux.close(); try? FileManager.default.removeItem(at: config) }
        try tmux.send("p")
        #expect(Self.waitForBuffers(tmux, seconds: 15) { $0.contains(Self.password) }, "the copy never reached tmux")
        #expect(Self.buffers(tmux).hasPrefix("bulwark-"))  // a buffer bulwark named, not one of tmux's automatic ones
        #expect(Self.waitForBuffers(tmux, seconds: 15) { $0.isEmpty }, "a buffer still holds: \(Self.buffers(tmux))")
        try tmux.waitFor(text: "Clipboard cleared: bulwark's tmux buffer deleted, a blank sent out.")

        try tmux.send("p")
        #expect(Self.waitForBuffers(tmux, seconds: 15) { $0.contains(Self.password) })
        try tmux.send("L")
        #expect(Self.waitForBuffers(tmux, seconds: 15) { $0.isEmpty }, "locking left the password in a tmux buffer")
    }

    /// tmux's default, set-clipboard external, takes no program's OSC 52 but
    /// sends its own buffers out: bulwark's copy goes that way.
    @Test func externalCarriesTheCopyThroughTmuxsOwnBuffer() throws {
        let (tmux, config) = try Self.session(seconds: 600, clipboard: "external")
        defer { tmux.close(); try? FileManager.default.removeItem(at: config) }
        try tmux.send("p")
        try tmux.waitFor(text: "Copied the password of Bookshop via tmux; deleted in 10 minutes, on lock and on quit.")
        #expect(Self.buffers(tmux).contains(Self.password))
    }

    /// set-clipboard off lets nothing through: said with the fix first, so
    /// an 80-column status line shows it whole; a change of the setting
    /// while the app runs is noticed at the next copy.
    @Test func tmuxThatDropsCopiesIsSaidWithTheFixAndAChangeIsNoticed() throws {
        let (tmux, config) = try Self.session(seconds: 600, width: 80, clipboard: "off")
        defer { tmux.close(); try? FileManager.default.removeItem(at: config) }
        try tmux.send("p")
        try tmux.waitFor(text: "Run: tmux set -s set-clipboard on (it is off: nothing was copied).")
        #expect(Self.buffers(tmux).isEmpty)  // and no buffer holds the password
        _ = try tmux.command("set-option", "-s", "set-clipboard", "on")
        try tmux.send("p")
        try tmux.waitFor(text: "Copied the password of Bookshop via tmux")
        #expect(Self.buffers(tmux).contains(Self.password))
    }

    /// With set-clipboard off and allow-passthrough on, the copy is wrapped
    /// for the terminal outside tmux, and the status says so.
    @Test func tmuxPassthroughCarriesTheCopyOut() throws {
        let tmux = try TmuxSession(width: 120, height: 30, command: "\(Binary.path) demo --no-lock",
                                   environment: ["TERM": "xterm-256color", "TMUX": "$TMUX"])
        defer { tmux.close() }
        _ = try tmux.command("set-option", "-s", "set-clipboard", "off")
        _ = try tmux.command("set-option", "-g", "allow-passthrough", "on")
        try tmux.waitFor(text: "1/42")
        try tmux.send("p")
        try tmux.waitFor(text: "Sent the password of Bookshop to the terminal's clipboard (OSC 52, through tmux's passthrough)")
        try tmux.send("j")
        try tmux.waitFor(text: "The clipboard is cleared in ")
        #expect(Self.buffers(tmux).isEmpty)
    }

    @Test func quittingClearsTheClipboard() throws {
        let (tmux, config) = try Self.session(seconds: 600)
        defer { tmux.close(); try? FileManager.default.removeItem(at: config) }
        try tmux.send("p")
        #expect(Self.waitForBuffers(tmux, seconds: 15) { $0.contains(Self.password) })
        try tmux.send("q")
        #expect(try tmux.exitStatus() == 0)
        #expect(Self.buffers(tmux).isEmpty, "quitting left the password in a tmux buffer")
    }
}
