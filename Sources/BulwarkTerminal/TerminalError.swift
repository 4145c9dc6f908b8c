/// Why the full-screen UI could not start. Each message says what to do.
public enum TerminalError: Error, CustomStringConvertible, Equatable {
    case notATerminal
    case noTerm
    case dumbTerminal(String)
    case openFailed

    public var description: String {
        switch self {
        case .notATerminal:
            "bulwark: the full-screen UI needs a terminal, but standard input or output is not one. Run it in a terminal, or use a command such as 'bulwark list'."
        case .noTerm:
            "bulwark: TERM is unset or names a terminal this system does not know. Set TERM (for example TERM=xterm-256color) and try again."
        case .dumbTerminal(let term):
            "bulwark: TERM=\(term) cannot move the cursor, so the full-screen UI cannot draw. Use a terminal such as xterm-256color."
        case .openFailed:
            "bulwark: the terminal could not be opened for the full-screen UI."
        }
    }

    /// The exit status for a terminal that cannot be used.
    public var exitCode: Int32 { 2 }
}
