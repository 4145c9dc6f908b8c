import Foundation

/// The desktop's clipboard through its own tool, found on PATH: wl-copy
/// and wl-paste under Wayland, xclip or xsel under X11, pbcopy and pbpaste
/// on macOS. Unlike OSC 52 it can be read back, so a copied secret is
/// replaced by what was there before, and only while it is still the
/// secret (a person who copied something else since keeps it).
public struct SystemClipboard: Sendable {
    public let name: String
    let copy: [String]
    let paste: [String]
    /// How to empty it when there was nothing to put back; nil: copy "".
    let clear: [String]?

    /// The first tool the session's display has.
    public static func find(environment: [String: String] = ProcessInfo.processInfo.environment) -> SystemClipboard? {
        let path = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map(String.init)
        func has(_ tool: String) -> Bool { path.contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(tool)") } }
        let wayland = !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty, x11 = !(environment["DISPLAY"] ?? "").isEmpty
        if wayland, has("wl-copy"), has("wl-paste") {
            return SystemClipboard(name: "wl-copy", copy: ["wl-copy", "--type", "text/plain"], paste: ["wl-paste", "--no-newline"], clear: ["wl-copy", "--clear"])
        }
        if x11, has("xclip") {
            return SystemClipboard(name: "xclip", copy: ["xclip", "-selection", "clipboard", "-in"], paste: ["xclip", "-selection", "clipboard", "-out"], clear: nil)
        }
        if x11, has("xsel") {
            return SystemClipboard(name: "xsel", copy: ["xsel", "--clipboard", "--input"], paste: ["xsel", "--clipboard", "--output"], clear: ["xsel", "--clipboard", "--clear"])
        }
        if has("pbcopy"), has("pbpaste") {
            return SystemClipboard(name: "pbcopy", copy: ["pbcopy"], paste: ["pbpaste"], clear: nil)
        }
        return nil
    }

    /// The text on the clipboard now; nil when it holds none (or more than 1 MiB, or the tool failed).
    public func read() -> String? {
        guard let output = Self.run(paste, input: nil), output.count <= 1 << 20 else { return nil }
        return String(data: output, encoding: .utf8)
    }

    /// Puts text on the clipboard (through the tool's standard input, never its arguments).
    @discardableResult
    public func write(_ text: String) -> Bool { Self.run(copy, input: Data(text.utf8)) != nil }

    public enum Cleared: Sendable, Equatable { case restored, emptied, leftAlone }

    /// Takes a secret off the clipboard: what was there before goes back,
    /// else it is emptied; left alone when it no longer holds the secret.
    public func takeBack(_ secret: String, previous: String?) -> Cleared {
        guard read() == secret else { return .leftAlone }
        if let previous, !previous.isEmpty, previous != secret {
            write(previous)
            return .restored
        }
        if let clear { _ = Self.run(clear, input: nil) } else { write("") }
        return .emptied
    }

    /// Runs a tool with a time limit (a clipboard tool that hangs must not
    /// hang the app); its output, or nil when it failed.
    static func run(_ command: [String], input: Data?) -> Data? { ToolRunner.run(command, input: input) }
}
