import Foundation

/// Writes an asciicast recording (the format asciinema plays): a JSON
/// header line, then one `[seconds, "o", text]` event per frame, each frame
/// drawn in full with ANSI escapes from the same Buffer the screen shows.
/// Version 2 times each event from the start; version 3 from the event
/// before it, and names the terminal's size in a `term` object.
public final class AsciicastRecorder {
    private let handle: FileHandle
    private let start: Date
    private let version: Int
    private var lastFrame: String?
    private var lastTime: Double = 0

    public init(path: String, width: Int, height: Int, title: String, start: Date = Date(), version: Int = 2) throws {
        precondition(version == 2 || version == 3, "asciicast v2 or v3")
        guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]),
              let handle = FileHandle(forWritingAtPath: path) else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path])
        }
        self.handle = handle
        self.start = start
        self.version = version
        let header: [String: Any] = version == 3
            ? ["version": 3, "term": ["cols": width, "rows": height, "type": "xterm-256color"], "timestamp": Int(start.timeIntervalSince1970),
               "title": title]
            : ["version": 2, "width": width, "height": height, "timestamp": Int(start.timeIntervalSince1970), "title": title,
               "env": ["TERM": "xterm-256color"]]
        try write(JSONSerialization.data(withJSONObject: header, options: .sortedKeys))
    }

    /// Records a frame (skipped when identical to the last one).
    public func record(_ buffer: Buffer, at time: Date = Date()) {
        let frame = Self.ansi(buffer)
        guard frame != lastFrame else { return }
        lastFrame = frame
        let elapsed = max(lastTime, time.timeIntervalSince(start))
        let event: [Any] = [version == 3 ? elapsed - lastTime : elapsed, "o", frame]
        lastTime = elapsed
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
