/// Which ASCII characters libzxcvbn could take for neighbouring keys.
///
/// libzxcvbn reads a run as a keyboard pattern when each key is next to
/// the one before on one of its layouts (US and UK QWERTY, Dvorak, and two
/// number pads), a shifted character counting as its key. This is a wider
/// relation, on purpose: keys are neighbours here when they are at most one
/// row and two columns apart on any of those layouts, either character may
/// be read through either shift map, and a key neighbours itself. A wider
/// relation only finds patterns libzxcvbn would not, which lowers a floor,
/// never raises it.
enum KeyboardNeighbours {
    /// Rows as typed, a leading space where a row starts half a key in.
    private static let layouts: [[String]] = [
        ["`1234567890-=", " qwertyuiop[]\\", " asdfghjkl;'", " zxcvbnm,./"],     // US QWERTY
        ["`1234567890-=", " qwertyuiop[]", " asdfghjkl;'#", "\\zxcvbnm,./"],      // UK QWERTY
        ["`1234567890[]", " ',.pyfgcrl/=\\", " aoeuidhtns-", " ;qjkxbmwvz"],    // Dvorak
        [" /*-", "789+", "456+", "123=", "00.="],                                  // PC number pad
        ["=/*", "789-", "456+", "123=", "00.="],                                   // Mac number pad
    ]
    /// Shifted characters and their keys, US then UK.
    private static let shifts: [(String, String)] = [
        ("~!@#$%^&*()_+QWERTYUIOP{}|ASDFGHJKL:\"ZXCVBNM<>?", "`1234567890-=qwertyuiop[]\\asdfghjkl;'zxcvbnm,./"),
        ("!\"$%^&*()_+QWERTYUIOP{}ASDFGHJKL:@~|ZXCVBNM<>?", "124567890-=qwertyuiop[]asdfghjkl;'#\\zxcvbnm,./"),
    ]

    /// 128 rows of 128 bits.
    private static let table: [UInt64] = {
        var bits = [UInt64](repeating: 0, count: 128 * 2)
        func link(_ a: UInt8, _ b: UInt8) { bits[Int(a) * 2 + Int(b) / 64] |= 1 << UInt64(b % 64) }
        var keysNear = [[UInt8]](repeating: [], count: 128)
        for rows in layouts {
            var places: [(UInt8, Int, Int)] = []
            for (row, text) in rows.enumerated() {
                for (column, byte) in text.utf8.enumerated() where byte != 0x20 { places.append((byte, row, column)) }
            }
            for (a, rowA, columnA) in places {
                for (b, rowB, columnB) in places where abs(rowA - rowB) <= 1 && abs(columnA - columnB) <= 2 {
                    keysNear[Int(a)].append(b)
                }
            }
        }
        // The characters each key types: itself, and what either shift map reads as it.
        var typedBy = (0..<128).map { [UInt8($0)] }
        for (shifted, keys) in shifts {
            precondition(shifted.utf8.count == keys.utf8.count, "a shift map pairs every character with its key")
            for (character, key) in zip(shifted.utf8, keys.utf8) { typedBy[Int(key)].append(character) }
        }
        for key in 0..<128 {
            link(UInt8(key), UInt8(key))
            for near in keysNear[key] {
                for a in typedBy[key] { for b in typedBy[Int(near)] { link(a, b) } }
            }
        }
        return bits
    }()

    /// Whether libzxcvbn might take `a` then `b` as neighbouring keys (ASCII only).
    @inline(__always)
    static func near(_ a: UInt8, _ b: UInt8) -> Bool {
        table[Int(a) * 2 + Int(b) / 64] & (1 << UInt64(b % 64)) != 0
    }
}
