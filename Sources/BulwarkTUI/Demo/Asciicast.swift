import Foundation

/// Writes an asciicast v2 recording (the format asciinema plays): a JSON
/// header line, then one `[seconds, "o", text]` event per frame, each frame
/// drawn in full with ANSI escapes from the same Buffer the screen shows.
public final class AsciicastRecorder {
    private let handle: FileHandle
    private let start: Date
    private var lastFrame: String?

    public init(path: String, width: Int, height: Int, title: String, start: Date = Date()) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]),
              let handle = FileHandle(forWritingAtPath: path) else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path])
        }
        self.handle = handle
        self.start = start
        let header: [String: Any] = ["version": 2, "width": width, "height": height,
                                     "timestamp": Int(start.timeIntervalSince1970), "title": title,
                                     "env": ["TERM": "xterm-256color"]]
        try write(JSONSerialization.data(withJSONObject: header, options: .sortedKeys))
    }

    /// Records a frame (skipped when identical to the last one).
    public func record(_ buffer: Buffer, at time: Date = Date()) {
        let frame = Self.ansi(buffer)
        guard frame != lastFrame else { return }
        lastFrame = frame
        let event: [Any] = [max(0, time.timeIntervalSince(start)), "o", frame]
        try? write(JSONSerialization.data(withJSONObject: event))
    }

    public func close() { try? handle.close() }

    private func write(_ data: Data) throws {
        try handle.write(contentsOf: data + Data("\n".utf8))
    }

    /// A whole screen as ANSI: home, then each row with its styles.
    public static func ansi(_ buffer: Buffer) -> String {
        var out = "\u{1b}[H"
        for y in 0..<buffer.height {
            out += "\u{1b}[\(y + 1);1H"
            var current: Style?
            for x in 0..<buffer.width {
                let cell = buffer[x, y]
                if cell.width == 0 { continue }
                if cell.style != current {
                    out += "\u{1b}[0" + sgr(cell.style) + "m"
                    current = cell.style
                }
                out += cell.grapheme
            }
            out += "\u{1b}[0m"
        }
        return out
    }

    static func sgr(_ style: Style) -> String {
        var codes = ""
        if style.bold { codes += ";1" }
        if style.dim { codes += ";2" }
        if style.underline { codes += ";4" }
        if style.reverse { codes += ";7" }
        if let fg = style.foreground { codes += ";\(30 + fg.rawValue)" }
        if let bg = style.background { codes += ";\(40 + bg.rawValue)" }
        return codes
    }
}
