import Foundation

/// Box-drawing and block characters as SVG paths on their cell, so that
/// borders join and blocks fill edge to edge whatever font draws the text.
enum BoxGlyphs {
    struct Shape { let d: String; let stroked: Bool; let opacity: Double? }

    /// Arms from the centre: left, right, up, down; 1 light, 2 heavy, 3 double.
    static let arms: [Character: (Int, Int, Int, Int)] = [
        "─": (1, 1, 0, 0), "│": (0, 0, 1, 1), "┌": (0, 1, 0, 1), "┐": (1, 0, 0, 1), "└": (0, 1, 1, 0), "┘": (1, 0, 1, 0),
        "├": (0, 1, 1, 1), "┤": (1, 0, 1, 1), "┬": (1, 1, 0, 1), "┴": (1, 1, 1, 0), "┼": (1, 1, 1, 1),
        "━": (2, 2, 0, 0), "┃": (0, 0, 2, 2), "┏": (0, 2, 0, 2), "┓": (2, 0, 0, 2), "┗": (0, 2, 2, 0), "┛": (2, 0, 2, 0),
        "┣": (0, 2, 2, 2), "┫": (2, 0, 2, 2), "┳": (2, 2, 0, 2), "┻": (2, 2, 2, 0), "╋": (2, 2, 2, 2),
        "═": (3, 3, 0, 0), "║": (0, 0, 3, 3), "╔": (0, 3, 0, 3), "╗": (3, 0, 0, 3), "╚": (0, 3, 3, 0), "╝": (3, 0, 3, 0),
        "╠": (0, 3, 3, 3), "╣": (3, 0, 3, 3), "╦": (3, 3, 0, 3), "╩": (3, 3, 3, 0), "╬": (3, 3, 3, 3),
        "╴": (1, 0, 0, 0), "╶": (0, 1, 0, 0), "╵": (0, 0, 1, 0), "╷": (0, 0, 0, 1),
    ]

    static func path(_ grapheme: String, x: Int, y: Int, width w: Int, height h: Int) -> Shape? {
        guard grapheme.count == 1, let character = grapheme.first else { return nil }
        let cx = Double(x) + Double(w) / 2, cy = Double(y) + Double(h) / 2
        let left = Double(x), right = Double(x + w), top = Double(y), bottom = Double(y + h)
        func rect(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> String { "M\(f(x0)) \(f(y0))H\(f(x1))V\(f(y1))H\(f(x0))Z" }
        if let (l, r, u, d) = arms[character] {
            var parts: [String] = []
            // Each arm a thin rectangle from the cell's edge to just past the centre, so arms meet.
            func arm(_ weight: Int, horizontal: Bool, toStart: Bool) {
                guard weight > 0 else { return }
                let t = weight == 2 ? 3.0 : 1.4
                let offsets: [Double] = weight == 3 ? [-2, 2] : [0]
                for o in offsets {
                    let reach = weight == 3 ? 2 + t / 2 : t / 2
                    if horizontal {
                        parts.append(toStart ? rect(left, cy + o - t / 2, cx + reach, cy + o + t / 2) : rect(cx - reach, cy + o - t / 2, right, cy + o + t / 2))
                    } else {
                        parts.append(toStart ? rect(cx + o - t / 2, top, cx + o + t / 2, cy + reach) : rect(cx + o - t / 2, cy - reach, cx + o + t / 2, bottom))
                    }
                }
            }
            arm(l, horizontal: true, toStart: true)
            arm(r, horizontal: true, toStart: false)
            arm(u, horizontal: false, toStart: true)
            arm(d, horizontal: false, toStart: false)
            return Shape(d: parts.joined(), stroked: false, opacity: nil)
        }
        // Rounded corners: a quarter circle between the two edges they join.
        let radius = Double(w) / 2
        switch character {
        case "╭": return Shape(d: "M\(f(right)) \(f(cy))H\(f(cx + radius))A\(f(radius)) \(f(radius)) 0 0 0 \(f(cx)) \(f(cy + radius))V\(f(bottom))", stroked: true, opacity: nil)
        case "╮": return Shape(d: "M\(f(left)) \(f(cy))H\(f(cx - radius))A\(f(radius)) \(f(radius)) 0 0 1 \(f(cx)) \(f(cy + radius))V\(f(bottom))", stroked: true, opacity: nil)
        case "╰": return Shape(d: "M\(f(right)) \(f(cy))H\(f(cx + radius))A\(f(radius)) \(f(radius)) 0 0 1 \(f(cx)) \(f(cy - radius))V\(f(top))", stroked: true, opacity: nil)
        case "╯": return Shape(d: "M\(f(left)) \(f(cy))H\(f(cx - radius))A\(f(radius)) \(f(radius)) 0 0 0 \(f(cx)) \(f(cy - radius))V\(f(top))", stroked: true, opacity: nil)
        case "█": return Shape(d: rect(left, top, right, bottom), stroked: false, opacity: nil)
        case "▀": return Shape(d: rect(left, top, right, cy), stroked: false, opacity: nil)
        case "▄": return Shape(d: rect(left, cy, right, bottom), stroked: false, opacity: nil)
        case "▌": return Shape(d: rect(left, top, cx, bottom), stroked: false, opacity: nil)
        case "▐": return Shape(d: rect(cx, top, right, bottom), stroked: false, opacity: nil)
        case "░", "▒", "▓":
            return Shape(d: rect(left, top, right, bottom), stroked: false, opacity: character == "░" ? 0.25 : character == "▒" ? 0.5 : 0.75)
        case "▁", "▂", "▃", "▅", "▆", "▇":
            let eighths = Double(Array("▁▂▃▄▅▆▇").firstIndex(of: character)! + 1)
            return Shape(d: rect(left, bottom - Double(h) * eighths / 8, right, bottom), stroked: false, opacity: nil)
        default: return nil
        }
    }

    /// Numbers without a trailing ".0", so the bytes stay short and stable.
    static func f(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}
