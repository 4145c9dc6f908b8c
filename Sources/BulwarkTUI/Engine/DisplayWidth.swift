/// Terminal display width of text, measured per grapheme cluster: a family
/// emoji joined by ZWJ is one cluster of two cells, not the sum of its parts.
public enum DisplayWidth {
    /// 0 for clusters that take no cell (a lone combining mark, a zero-width
    /// joiner, a control character), 2 for East Asian wide and emoji, else 1.
    public static func of(_ character: Character) -> Int {
        // Fast paths for what screens draw most: ASCII, box drawing, punctuation.
        if let ascii = character.asciiValue { return ascii < 0x20 || ascii == 0x7F ? 0 : 1 }
        let scalars = character.unicodeScalars
        if scalars.count == 1, let only = scalars.first,
           (0x2500...0x259F).contains(only.value) || (0x2010...0x2027).contains(only.value) { return 1 }
        guard let first = scalars.first else { return 0 }
        if isControl(first) { return 0 }
        if scalars.contains(where: { $0.value == 0xFE0F }) { return 2 }  // emoji presentation selector
        if scalars.count > 1, scalars.contains(where: { $0.value == 0x200D }),
           scalars.contains(where: { $0.properties.isEmoji && $0.value > 0xFF }) { return 2 }
        if isZeroWidth(first) { return 0 }
        if first.properties.isEmojiPresentation || isWide(first.value) { return 2 }
        return 1
    }

    public static func of(_ text: String) -> Int {
        text.reduce(0) { $0 + of($1) }
    }

    /// C0 and C1 controls and DEL never reach the screen.
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (scalar.value >= 0x7F && scalar.value < 0xA0)
    }

    static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return true
        default: return scalar.value == 0x200B || (0x1160...0x11FF).contains(scalar.value)
        }
    }

    /// East Asian Wide and Fullwidth blocks (Unicode 15, UAX #11), compacted.
    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0...0x23F0,
        0x23F3...0x23F3, 0x25FD...0x25FE, 0x2614...0x2615, 0x2648...0x2653, 0x267F...0x267F,
        0x2693...0x2693, 0x26A1...0x26A1, 0x26AA...0x26AB, 0x26BD...0x26BE, 0x26C4...0x26C5,
        0x26CE...0x26CE, 0x26D4...0x26D4, 0x26EA...0x26EA, 0x26F2...0x26F3, 0x26F5...0x26F5,
        0x26FA...0x26FA, 0x26FD...0x26FD, 0x2705...0x2705, 0x270A...0x270B, 0x2728...0x2728,
        0x274C...0x274C, 0x274E...0x274E, 0x2753...0x2755, 0x2757...0x2757, 0x2795...0x2797,
        0x27B0...0x27B0, 0x27BF...0x27BF, 0x2B1B...0x2B1C, 0x2B50...0x2B50, 0x2B55...0x2B55,
        0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
        0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F,
        0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4, 0x17000...0x18CFF, 0x1B000...0x1B2FF,
        0x1F004...0x1F004, 0x1F0CF...0x1F0CF, 0x1F18E...0x1F18E, 0x1F191...0x1F19A,
        0x1F200...0x1F251, 0x1F300...0x1F64F, 0x1F680...0x1F6FF, 0x1F7E0...0x1F7EB,
        0x1F90C...0x1F9FF, 0x1FA70...0x1FAFF, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]

    static func isWide(_ value: UInt32) -> Bool {
        var low = 0, high = wideRanges.count - 1
        while low <= high {
            let mid = (low + high) / 2
            let range = wideRanges[mid]
            if value < range.lowerBound { high = mid - 1 }
            else if value > range.upperBound { low = mid + 1 }
            else { return true }
        }
        return false
    }

    /// Cuts `text` to at most `width` cells, ending with `…` when it was cut.
    public static func truncate(_ text: String, to width: Int, ellipsis: Bool = true) -> String {
        guard width > 0 else { return "" }
        if of(text) <= width { return text }
        let budget = ellipsis ? width - 1 : width
        var used = 0
        var out = ""
        for character in text {
            let w = of(character)
            if used + w > budget { break }
            out.append(character)
            used += w
        }
        guard ellipsis else { return out }
        while out.last == " " { out.removeLast() }
        return out + "…"
    }

    /// Pads with spaces on the right to exactly `width` cells (truncating first).
    public static func pad(_ text: String, to width: Int) -> String {
        let cut = truncate(text, to: width)
        return cut + String(repeating: " ", count: max(0, width - of(cut)))
    }
}
