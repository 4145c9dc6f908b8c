/// OWASP's guard against formula injection in CSV: a cell a spreadsheet
/// would run (it begins with = + - @, a tab or a carriage return) is
/// written with a leading `'`. So that bulwark reads back exactly what it
/// wrote, a cell that already begins with quotes before such a character
/// (`'=x`, `''-y`) is guarded too: then a cell of quotes followed by a
/// formula character always carries exactly one added quote, and taking
/// one away is the exact inverse. Any other cell is left as it is.
public enum SpreadsheetGuard {
    static let formulaStarts: Set<Unicode.Scalar> = ["=", "+", "-", "@", "\t", "\r"]

    /// Whether a value is written with a leading `'`.
    public static func needsGuard(_ value: String) -> Bool {
        guard let first = value.unicodeScalars.first else { return false }
        if formulaStarts.contains(first) { return true }
        return isGuardedForm(value)
    }

    public static func guarded(_ value: String) -> String { needsGuard(value) ? "'" + value : value }

    /// One or more `'`, then a formula character: what the guard writes.
    static func isGuardedForm(_ cell: String) -> Bool {
        var scalars = cell.unicodeScalars.makeIterator()
        guard scalars.next() == "'" else { return false }
        while let next = scalars.next() {
            if next == "'" { continue }
            return formulaStarts.contains(next)
        }
        return false
    }

    /// The value a guarded cell holds, or nil when the cell is not one.
    public static func unguarded(_ cell: String) -> String? {
        isGuardedForm(cell) ? String(cell.unicodeScalars.dropFirst()) : nil
    }
}
