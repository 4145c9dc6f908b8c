/// Text as XML character data or an attribute value: `&`, `<`, `>` and `"`
/// escaped (KDBX's XML, the SVG pictures).
public enum XMLText {
    /// Byte by byte: the four are ASCII, which UTF-8 never uses inside another
    /// character (and a `<` followed by a combining mark, one Character to
    /// Swift, is escaped all the same).
    public static func escaped(_ text: String) -> String {
        let utf8 = text.utf8
        guard utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 }) else { return text }
        var out: [UInt8] = []
        out.reserveCapacity(utf8.count + 16)
        for byte in utf8 {
            switch byte {
            case 0x26: out += Array("&amp;".utf8)
            case 0x3C: out += Array("&lt;".utf8)
            case 0x3E: out += Array("&gt;".utf8)
            case 0x22: out += Array("&quot;".utf8)
            default: out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
