import Foundation

/// A real terminal: the built binary running in a detached tmux session of
/// a fixed size, on a tmux server of its own so tests never share one.
/// Keys go in one at a time; the screen is read back with capture-pane;
/// waiting is polling for text, never a fixed sleep.
final class TmuxSession {
    let socket: String
    let name = "bulwark"
    private(set) var closed = false

    struct Timeout: Error, CustomStringConvertible {
        let waitingFor: String
        let screen: String
        var description: String { "timed out waiting for \(waitingFor); the screen was:\n\(screen)" }
    }

    /// Starts `command` (a shell line) at width x height. After the program
    /// exits the shell prints `EXIT=<status>` and waits, so the status can
    /// be read from the pane.
    init(width: Int, height: Int, command: String, environment: [String: String] = ["TERM": "xterm-256color"]) throws {
        socket = "bulwark-test-\(getpid())-\(UUID().uuidString.prefix(8))"
        // A clean environment, so NO_COLOR, LANG or anything else set where
        // the tests run cannot change what the program under test shows.
        // A UTF-8 locale, as a desktop terminal has (without one bulwark draws in ASCII).
        let base = ["PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": NSTemporaryDirectory(), "XDG_STATE_HOME": Binary.stateDirectory,
                    "LANG": "C.UTF-8"]
        let exports = base.merging(environment) { $1 }.sorted { $0.key < $1.key }
            // "$TMUX" passes on the pane's own (the program then knows it runs in this tmux).
            .map { $0.value == "$TMUX" ? "\($0.key)=\"$TMUX\"" : "\($0.key)='\($0.value)'" }.joined(separator: " ")
        let line = "env -i \(exports) \(command); echo EXIT=$?; sleep 120"
        // The server that new-session forks keeps any pipe it inherits open:
        // give it none, or reading the client's output would never end.
        try tmux(["new-session", "-d", "-s", name, "-x", "\(width)", "-y", "\(height)", line], capture: false)
    }

    deinit { close() }

    func close() {
        guard !closed else { return }
        closed = true
        _ = try? tmux(["kill-server"])
    }

    /// Any tmux command on this session's server (options, buffers).
    func command(_ arguments: String...) throws -> String { try tmux(arguments) }

    /// Sends keys one at a time, in tmux's key names (`j`, `Enter`, `C-c`, `Escape`).
    func send(_ keys: String...) throws {
        for key in keys { try tmux(["send-keys", "-t", name, key]) }
    }

    /// Sends bytes as a terminal would (a mouse report, say), past tmux's key names.
    func sendBytes(_ text: String) throws {
        try tmux(["send-keys", "-t", name, "-H"] + text.utf8.map { String(format: "%02x", $0) })
    }

    /// A click, as an xterm reports it in SGR mode (1-based cells; button 0
    /// left, 64/65 the wheel): a press, and for a button its release.
    func click(x: Int, y: Int, button: Int = 0) throws {
        try sendBytes("\u{1b}[<\(button);\(x + 1);\(y + 1)M" + (button < 64 ? "\u{1b}[<\(button);\(x + 1);\(y + 1)m" : ""))
    }

    func capture() throws -> String {
        try tmux(["capture-pane", "-p", "-t", name])
    }

    /// The screen with its attributes and colours as SGR escape sequences.
    func captureWithStyles() throws -> String {
        try tmux(["capture-pane", "-p", "-e", "-t", name])
    }

    func resize(width: Int, height: Int) throws {
        try tmux(["resize-window", "-t", name, "-x", "\(width)", "-y", "\(height)"])
    }

    /// A tmux format value of the pane, e.g. `#{alternate_on}`.
    func paneValue(_ format: String) throws -> String {
        try tmux(["display-message", "-p", "-t", name, format]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Polls the screen until `predicate` holds or `seconds` pass, then
    /// returns the screen once it has settled. The limit is generous: a wait
    /// ends as soon as the screen matches, the limit only bounds a failure,
    /// and a loaded CI machine can take seconds over one frame.
    @discardableResult
    func waitFor(_ description: String, seconds: Double = 20, _ predicate: (String) -> Bool) throws -> String {
        let deadline = Date().addingTimeInterval(seconds)
        var screen = ""
        while Date() < deadline {
            screen = try capture()
            if predicate(screen) { return try settled(screen, predicate) }
            usleep(20_000)
        }
        throw Timeout(waitingFor: description, screen: screen)
    }

    /// A loaded machine can capture the pane while tmux is still taking in
    /// a frame: its first lines new, the rest the old frame's (CI saw a
    /// result's heading without the sentences under it). So a matching
    /// screen is read again until two reads agree. A screen that moves on
    /// past the predicate (a transient state) returns as first seen, and a
    /// screen that never rests (a spinner) as last seen after 0.4 s.
    private func settled(_ first: String, _ predicate: (String) -> Bool) throws -> String {
        var screen = first
        let limit = Date().addingTimeInterval(0.4)
        while Date() < limit {
            usleep(30_000)
            let again = try capture()
            guard predicate(again) else { return screen }
            if again == screen { return again }
            screen = again
        }
        return screen
    }

    @discardableResult
    func waitFor(text: String, seconds: Double = 20) throws -> String {
        try waitFor("'\(text)'", seconds: seconds) { $0.contains(text) }
    }

    /// Waits for the program to end and returns its exit status.
    func exitStatus(seconds: Double = 20) throws -> Int32 {
        let screen = try waitFor("the program to exit", seconds: seconds) { $0.contains("EXIT=") }
        let line = screen.split(separator: "\n").first { $0.hasPrefix("EXIT=") } ?? ""
        return Int32(line.dropFirst(5).trimmingCharacters(in: .whitespaces)) ?? -1
    }

    @discardableResult
    private func tmux(_ arguments: [String], capture: Bool = true) throws -> String {
        try Spawn.run(["tmux", "-L", socket, "-f", "/dev/null"] + arguments, capture: capture).output
    }
}
