/// The one sanitiser for text that leaves bulwark for a terminal: command
/// output, errors, the screens and recordings. Text from a vault or an
/// imported file can hold escape sequences (OSC 52 writes the clipboard,
/// OSC 0 the window title, CSI clears the screen), C1 controls, bidi
/// overrides that reorder what is shown, and invisible characters that
/// make `pay\u{200B}pal` look like `paypal`. Each is shown as a visible
/// escape instead: `\e]52;…`, `\x07`, `<U+202E>`, `<U+200B>`; nothing is
/// dropped, so a lookalike never passes for the real name.
public enum TerminalText {
    /// `text` with every control, bidi control and invisible format
    /// character made visible. With `lines`, line feeds (and tabs) stay,
    /// for multi-line output such as notes; carriage returns never do.
    public static func visible(_ text: String, lines: Bool = false) -> String {
        // Printable ASCII (and, with `lines`, tabs and line feeds): nothing to do.
        if text.utf8.allSatisfy({ ($0 >= 0x20 && $0 < 0x7F) || (lines && ($0 == 0x0A || $0 == 0x09)) }) { return text }
        var out = String.UnicodeScalarView()
        let scalars = Array(text.unicodeScalars)
        for (index, scalar) in scalars.enumerated() {
            if lines && (scalar == "\n" || scalar == "\t") {
                out.append(scalar)
                continue
            }
            guard let escape = escape(scalar, between: index > 0 ? scalars[index - 1] : nil,
                                      and: index + 1 < scalars.count ? scalars[index + 1] : nil) else {
                out.append(scalar)
                continue
            }
            out.append(contentsOf: escape.unicodeScalars)
        }
        return String(out)
    }

    /// Whether `scalar` is shown escaped (a joiner between two emoji is not:
    /// it is how 👩‍💻 is spelled).
    public static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool { escape(scalar, between: nil, and: nil) != nil }

    static func escape(_ scalar: Unicode.Scalar, between before: Unicode.Scalar?, and after: Unicode.Scalar?) -> String? {
        let v = scalar.value
        switch v {
        case 0x1B: return "\\e"
        case 0x0A: return "\\n"
        case 0x0D: return "\\r"
        case 0x09: return "\\t"
        case 0x00..<0x20, 0x7F: return "\\x" + hex(v, digits: 2)
        case 0x80..<0xA0: return "<U+" + hex(v, digits: 4) + ">"
        case 0x200D:
            // A zero-width joiner inside an emoji sequence is part of the emoji.
            if let before, let after, before.properties.isEmoji, after.properties.isEmoji, before.value > 0xFF { return nil }
            return "<U+200D>"
        case 0x2028, 0x2029: return "<U+" + hex(v, digits: 4) + ">"
        case 0x2100...0x2BFF, 0x3000...0xFEFE, 0x1F000...0x1FAFF:
            // Symbols, box drawing, CJK, emoji: no format characters live
            // here, and the screens draw these on every frame.
            return nil
        default:
            // Bidi controls and every other invisible format character (Cf):
            // zero-width spaces and joiners, word joiners, the BOM, soft hyphens, tags.
            if scalar.properties.generalCategory == .format { return "<U+" + hex(v, digits: 4) + ">" }
            return nil
        }
    }

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }

    /// JSON text with every character a terminal could act on or hide
    /// written as a `\u` escape, as JSON allows for any character: C1
    /// controls, DEL, line and paragraph separators, bidi and other format
    /// characters (JSONSerialization escapes only C0 controls).
    public static func jsonEscaped(_ json: String) -> String {
        if json.utf8.allSatisfy({ $0 < 0x7F }) { return json }
        var out = String.UnicodeScalarView()
        for scalar in json.unicodeScalars {
            let v = scalar.value
            let hidden = v == 0x7F || (0x80..<0xA0).contains(v) || v == 0x2028 || v == 0x2029 || scalar.properties.generalCategory == .format
            guard hidden else {
                out.append(scalar)
                continue
            }
            for unit in String(scalar).utf16 { out.append(contentsOf: ("\\u" + hex(UInt32(unit), digits: 4).lowercased()).unicodeScalars) }
        }
        return String(out)
    }
}
