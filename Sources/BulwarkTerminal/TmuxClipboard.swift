import Foundation

/// The clipboard inside tmux, through tmux itself. An OSC 52 that a program
/// writes under `set-clipboard on` becomes one of tmux's automatic paste
/// buffers, which a blank sent after it does not remove (the password
/// stayed in `buffer0` under a blank `buffer1`). So bulwark writes a buffer
/// it names itself (`load-buffer -b bulwark-PID -w`, the text on standard
/// input, never in arguments; `-w` also hands it to the terminal outside
/// tmux as tmux's own copies go), and takes the secret back by deleting that
/// buffer and sending a blank the same way under a second name, deleted too.
struct TmuxClipboard {
    /// What tmux's `set-clipboard` lets through, asked at each copy: a
    /// change while the app runs is noticed.
    enum Route: Equatable {
        /// `on` or `external`: tmux keeps and forwards copies it makes itself.
        case buffers
        /// `off`, with `allow-passthrough` on: OSC 52 wrapped for the outer terminal.
        case passthrough
        /// `off`: nothing reaches any clipboard. The setting's value, to say.
        case blocked(String)
    }

    let bufferName = "bulwark-\(getpid())"
    private var clearName: String { bufferName + "-clear" }

    /// Nil when not inside tmux, or tmux does not answer.
    static func route(environment: [String: String]) -> Route? {
        guard !(environment["TMUX"] ?? "").isEmpty, let value = option("set-clipboard") else { return nil }
        if value == "on" || value == "external" { return .buffers }
        if let passthrough = option("allow-passthrough", scope: "-Apv"), passthrough == "on" || passthrough == "all" { return .passthrough }
        return .blocked(value)
    }

    /// The status line when tmux lets nothing through: the fix first, so a
    /// narrow status line never cuts the command off.
    static func blockedMessage(_ value: String) -> String {
        "Run: tmux set -s set-clipboard on (it is \(value): nothing was copied)."
    }

    func copy(_ text: String) -> Bool {
        SystemClipboard.run(["tmux", "load-buffer", "-w", "-b", bufferName, "-"], input: Data(text.utf8)) != nil
    }

    /// Deletes the buffer that held the secret and sends the outer terminal
    /// a blank; says exactly what was done.
    func takeBack() -> String {
        let deleted = SystemClipboard.run(["tmux", "delete-buffer", "-b", bufferName], input: nil) != nil
        let blanked = SystemClipboard.run(["tmux", "load-buffer", "-w", "-b", clearName, "-"], input: Data(" ".utf8)) != nil
        _ = SystemClipboard.run(["tmux", "delete-buffer", "-b", clearName], input: nil)
        switch (deleted, blanked) {
        case (true, true): return "Clipboard cleared: bulwark's tmux buffer deleted, a blank sent out."
        case (true, false): return "bulwark's tmux buffer deleted; tmux refused the blank for the terminal."
        case (false, true): return "A blank sent out; bulwark's tmux buffer was already gone."
        case (false, false): return "tmux did not answer: run tmux delete-buffer -b \(bufferName)"
        }
    }

    /// `scope`: the server's (`-sv`) or the pane's with what it inherits (`-Apv`).
    static func option(_ name: String, scope: String = "-sv") -> String? {
        guard let output = SystemClipboard.run(["tmux", "show-options", scope, name], input: nil) else { return nil }
        return String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
