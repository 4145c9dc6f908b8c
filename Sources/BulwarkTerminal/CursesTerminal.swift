import BulwarkTUI
import CNcurses
import Foundation
import Glibc
import CHardening

/// The ncurses screen. Only this type calls curses; it must be used from one
/// thread (ncurses is not thread-safe), and closed on every exit path.
public final class CursesTerminal {
    public private(set) var colors: Bool = false
    /// What the terminal shows beyond ASCII: the frame is narrowed to it.
    public private(set) var glyphs: GlyphSupport = .unicode
    private var lastFrame: Buffer?
    /// A key read while looking past an Esc, given at the next call.
    private var pendingEvent: TerminalEvent?
    /// Whether curses reports the mouse (the config's `mouse`).
    private var mouseEnabled = true
    /// A pipe a finished effect writes a byte to, so a wait for keys ends
    /// then and its result is drawn at once (not at the wait's time-out).
    private let wakePipe: [Int32]

    /// Opens the terminal. `allowColor` is false when NO_COLOR is set;
    /// `symbols` is the config's choice, else TERM and the locale decide.
    public init(allowColor: Bool, symbols: String? = nil, mouse: Bool = true) throws {
        var fds: [Int32] = [-1, -1]
        if bw_pipe_cloexec(&fds) == 0 {
            for fd in fds { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        }
        wakePipe = fds
        let codeset = Self.useUTF8Locale()
        glyphs = GlyphSupport.detect(term: getenv("TERM").map { String(cString: $0) }, codeset: codeset,
                                     override: symbols ?? getenv("BULWARK_SYMBOLS").map { String(cString: $0) })
        switch Int(bw_open()) {
        case Int(BW_OPEN_OK): break
        case Int(BW_OPEN_NO_TTY): throw TerminalError.notATerminal
        case Int(BW_OPEN_NO_TERM): throw TerminalError.noTerm
        case Int(BW_OPEN_DUMB): throw TerminalError.dumbTerminal(String(cString: getenv("TERM") ?? strdup("")))
        default: throw TerminalError.openFailed
        }
        colors = bw_start_colors(allowColor) > 0
        bw_enable_mouse(mouse ? 1 : 0)
        mouseEnabled = mouse
        bw_install_signal_handlers()
    }

    deinit {
        close()
        for fd in wakePipe where fd >= 0 { Glibc.close(fd) }
    }

    public func close() { bw_close() }

    public var size: (width: Int, height: Int) { (Int(bw_cols()), Int(bw_lines())) }

    /// Whether the terminal is likely to take an OSC 52 clipboard write
    /// (the Linux console and dumb terminals do not).
    public var canCopy: Bool {
        let term = getenv("TERM").map { String(cString: $0) } ?? ""
        return !(term == "linux" || term.hasPrefix("vt") || term.isEmpty)
    }

    /// Puts text on the terminal's clipboard with OSC 52 (written straight
    /// to the terminal: it moves no cursor, so curses' picture stays true).
    /// `tmuxPassthrough`: wrapped for tmux to hand to the terminal outside
    /// it (its allow-passthrough), when tmux itself drops programs' copies.
    public func copyToClipboard(_ text: String, tmuxPassthrough: Bool = false) {
        let osc = "\u{1b}]52;c;" + Data(text.utf8).base64EncodedString() + "\u{07}"
        let sequence = tmuxPassthrough ? "\u{1b}Ptmux;" + osc.replacingOccurrences(of: "\u{1b}", with: "\u{1b}\u{1b}") + "\u{1b}\\" : osc
        fflush(nil)
        _ = sequence.withCString { write(STDOUT_FILENO, $0, strlen($0)) }
    }

    /// Replaces a copied secret. An empty OSC 52 clears xterm's clipboard
    /// but tmux ignores it and keeps its buffer; a blank is taken by both.
    public func clearClipboard(tmuxPassthrough: Bool = false) {
        copyToClipboard(" ", tmuxPassthrough: tmuxPassthrough)
    }

    /// Waits up to `timeoutMilliseconds` for a key or a resize; nil at the
    /// time-out or when woken (`wake`).
    public func nextEvent(timeoutMilliseconds: Int) -> TerminalEvent? {
        if let pending = pendingEvent {
            pendingEvent = nil
            return pending
        }
        var value: Int32 = 0
        // A key ncurses holds already; else wait on the terminal and the wake pipe together.
        var kind = bw_read_key(0, &value)
        if kind == Int32(BW_KEY_NONE) {
            if wakePipe[0] >= 0 {
                guard bw_wait_input(wakePipe[0], Int32(timeoutMilliseconds)) == 1 else { return nil }
                kind = bw_read_key(0, &value)
            } else {
                kind = bw_read_key(Int32(timeoutMilliseconds), &value)
            }
        }
        if kind == Int32(BW_KEY_NONE) { return nil }
        if kind != Int32(BW_KEY_CODE) && value == 27 { return afterEscape() }
        // A mouse report with the mouse off: curses knows its start ("\e[<"
        // is the terminal's kmous) but leaves the rest, which would be read
        // as keys ("0;5;5M": M opens the log). Swallowed to its final letter.
        if !mouseEnabled, kind == Int32(BW_KEY_CODE), value == bw_key_mouse() {
            for _ in 0..<64 {
                guard bw_read_key(0, &value) != Int32(BW_KEY_NONE) else { break }
                if value == 77 || value == 109 { break }  // "M" (press) or "m" (release)
            }
            return nil
        }
        return KeyDecoder.decode(kind: kind, value: value)
    }

    /// An Esc, or the start of an escape sequence curses does not know (a
    /// mouse report sent with the mouse off, another terminal's function
    /// key): such a sequence is swallowed whole rather than read as keys
    /// ("\e[<0;5;5M" once opened the message log with its M). An Esc with
    /// a key right after it is the Esc, that key next.
    private func afterEscape() -> TerminalEvent? {
        var value: Int32 = 0
        let kind = bw_read_key(0, &value)  // only what has already arrived
        if kind == Int32(BW_KEY_NONE) { return .key(.escape) }
        guard kind != Int32(BW_KEY_CODE), value == 91 || value == 79 else {  // "[" or "O"
            pendingEvent = KeyDecoder.decode(kind: kind, value: value)
            return .key(.escape)
        }
        // Parameters and intermediates (0x20 to 0x3F), then one final byte (0x40 to 0x7E).
        for _ in 0..<64 {
            guard bw_read_key(0, &value) != Int32(BW_KEY_NONE) else { break }
            if (64...126).contains(value) { break }
        }
        return nil
    }

    /// Ends a wait in `nextEvent` now (from any thread: a finished effect).
    public var wake: @Sendable () -> Void {
        let fd = wakePipe[1]
        return { if fd >= 0 { var byte: UInt8 = 1; _ = Glibc.write(fd, &byte, 1) } }
    }

    /// Whether the terminal has gone away (its pty closed).
    public var inputHungUp: Bool { bw_input_hung_up() }

    /// A signal that arrived since the last call (SIGINT, SIGTERM, SIGHUP), or nil.
    public func takeSignal() -> Int32? {
        let signal = bw_take_signal()
        return signal == 0 ? nil : signal
    }

    /// After a resize the old frame means nothing: redraw everything.
    public func invalidate() {
        lastFrame = nil
        bw_clear_all()
    }

    /// Draws only the cells that changed since the last frame.
    public func draw(_ frame: Buffer) {
        for change in frame.changes(since: lastFrame) {
            var wide = change.cell.grapheme.unicodeScalars.prefix(5).map { wchar_t(bitPattern: $0.value) }
            if wide.isEmpty { wide = [wchar_t(32)] }
            wide.append(0)
            let style = change.cell.style
            let flags = (style.bold ? BW_BOLD : 0) | (style.dim ? BW_DIM : 0)
                | (style.underline ? BW_UNDERLINE : 0) | (style.reverse ? BW_REVERSE : 0)
            bw_put(Int32(change.y), Int32(change.x), wide, Int32(flags),
                   Int32(style.foreground?.rawValue ?? -1), Int32(style.background?.rawValue ?? -1))
        }
        bw_refresh()
        lastFrame = frame
    }

    /// Wide text needs a UTF-8 locale; when the environment's is not UTF-8,
    /// fall back to C.UTF-8 (the only one some systems have).
    /// Returns the person's own character set (before any switch to UTF-8,
    /// which width calculations need): what their terminal shows.
    @discardableResult
    static func useUTF8Locale() -> String {
        setlocale(LC_ALL, "")
        let codeset = String(cString: nl_langinfo(nl_item(CODESET)))
        if codeset.uppercased().replacingOccurrences(of: "-", with: "") != "UTF8" {
            setlocale(LC_ALL, "C.UTF-8")
        }
        return codeset
    }
}
