import BulwarkTUI
import CNcurses

/// What the terminal reported.
public enum TerminalEvent: Equatable {
    case key(Key)
    case resize
    case mouse(MouseEvent)
}

/// Turns curses' key reports into `Key`s. Enter arrives as 10, 13 or
/// KEY_ENTER and Backspace as KEY_BACKSPACE, 127 or 8, depending on the terminal.
enum KeyDecoder {
    static func decode(kind: Int32, value: Int32) -> TerminalEvent? {
        if kind == Int32(BW_KEY_CODE) { return decodeCode(value) }
        switch value {
        case 10, 13: return .key(.enter)
        case 9: return .key(.tab)
        case 27: return .key(.escape)
        case 127, 8: return .key(.backspace)
        case 1...26: return .key(.ctrl(Character(Unicode.Scalar(UInt8(value) + 96))))
        case 0..<32: return nil
        default:
            guard let scalar = Unicode.Scalar(UInt32(value)) else { return nil }
            return .key(.char(Character(scalar)))
        }
    }

    private static func decodeCode(_ code: Int32) -> TerminalEvent? {
        let table: [Int32: Key] = [
            bw_key_up(): .up, bw_key_down(): .down, bw_key_left(): .left, bw_key_right(): .right,
            bw_key_home(): .home, bw_key_end(): .end, bw_key_ppage(): .pageUp, bw_key_npage(): .pageDown,
            bw_key_backspace(): .backspace, bw_key_dc(): .delete, bw_key_enter(): .enter, bw_key_btab(): .backTab,
        ]
        if code == bw_key_resize() { return .resize }
        if code == bw_key_mouse() {
            var x: Int32 = 0, y: Int32 = 0
            switch bw_read_mouse(&x, &y) {
            case 1: return .mouse(.press(x: Int(x), y: Int(y)))
            case 4: return .mouse(.wheelUp)
            case 5: return .mouse(.wheelDown)
            default: return nil
            }
        }
        if let key = table[code] { return .key(key) }
        for n in 1...12 where code == bw_key_f(Int32(n)) { return .key(.function(n)) }
        return nil
    }
}
