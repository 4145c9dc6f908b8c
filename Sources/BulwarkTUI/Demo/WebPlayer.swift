import BulwarkCore
import Foundation

/// The demo as one self-contained web page: every chosen scenario's
/// screens, as they play, with the narration as captions; chapters per
/// scenario and per step, play and pause, step forward and back, speed, a
/// progress bar, keys (Space, ←/→, 1-9), a link to each step
/// (`#scenario/step`), and the text of every frame for screen readers and
/// search. No network, no external script, style or font: it opens from a
/// mail attachment. The screens travel as rows of styled runs (far smaller
/// than a picture each) and are drawn as text in the page.
public enum WebPlayer {
    public struct Chapter {
        public let name: String
        public let title: String
        public let shows: String
        public let frames: [(buffer: Buffer, caption: String?)]
        public init(name: String, title: String, shows: String, frames: [(buffer: Buffer, caption: String?)]) {
            self.name = name
            self.title = title
            self.shows = shows
            self.frames = frames
        }
    }

    public static func page(_ chapters: [Chapter]) -> String {
        var styles: [String: Int] = [:], css: [String] = []
        func styleIndex(_ style: Style) -> Int {
            let (fg, bg) = SVGFrame.colours(style)
            var rule = "color:\(fg)"
            if let bg { rule += ";background:\(bg)" }
            if style.bold { rule += ";font-weight:bold" }
            if style.dim { rule += ";opacity:.6" }
            if style.underline { rule += ";text-decoration:underline" }
            if let index = styles[rule] { return index }
            styles[rule] = css.count
            css.append(rule)
            return css.count - 1
        }
        var data: [[String: Any]] = []
        for chapter in chapters {
            let frames: [[String: Any]] = chapter.frames.map { frame in
                let buffer = frame.buffer
                let rows: [[[Any]]] = (0..<buffer.height).map { y in
                    var runs: [[Any]] = [], text = "", current = -1
                    for x in 0..<buffer.width where buffer[x, y].width > 0 {
                        let index = styleIndex(buffer[x, y].style)
                        if index != current, !text.isEmpty { runs.append([text, current]); text = "" }
                        current = index
                        text += buffer[x, y].grapheme
                    }
                    if !text.isEmpty { runs.append([text, current]) }
                    return runs
                }
                return ["caption": frame.caption ?? "", "rows": rows, "text": buffer.textDump()]
            }
            data.append(["name": chapter.name, "title": chapter.title, "shows": chapter.shows, "frames": frames])
        }
        let json = (try? JSONSerialization.data(withJSONObject: ["styles": css, "chapters": data], options: [.sortedKeys, .withoutEscapingSlashes]))
            .map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        // Inside <script>, "</" could end the element: written as "<\/", which JSON reads the same.
        let safe = json.replacingOccurrences(of: "</", with: "<\\/")
        let transcript = chapters.map { chapter in
            "<section><h3>\(XMLText.escaped(chapter.title))</h3>" + chapter.frames.enumerated().map { index, frame in
                "<details id=\"text-\(chapter.name)-\(index + 1)\"><summary>\(index + 1). \(XMLText.escaped(frame.caption ?? "The end"))</summary><pre>"
                    + XMLText.escaped(frame.buffer.textDump()) + "</pre></details>"
            }.joined() + "</section>"
        }.joined(separator: "\n")
        return WebPlayerPage.template
            .replacingOccurrences(of: "@@DATA@@", with: safe)
            .replacingOccurrences(of: "@@TRANSCRIPT@@", with: transcript)
    }
}
