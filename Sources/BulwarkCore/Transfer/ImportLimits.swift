import Foundation

/// How much one imported value and one imported entry may hold. A 408 KB
/// KeePass file once brought one 400 MiB note: every later `list` of the
/// vault then read it. A password manager's values are small; a note of a
/// few megabytes is already generous, and attachments (which bulwark does
/// not keep) are not values.
public enum ImportLimits {
    public static let valueBytes = 4 << 20
    public static let entryBytes = 16 << 20

    /// What is over a limit in `entry`, or nil: "its notes are 400.0 MiB".
    /// The sizes first, each value named only when one is over: naming every
    /// field of 100,000 entries (sanitised for the terminal) was 50 ms of an import.
    static func problem(_ entry: Entry) -> String? {
        var largest = 0, total = 0
        eachValue(of: entry, named: false) { _, size in
            largest = max(largest, size)
            total += size
        }
        guard largest > valueBytes || total > entryBytes else { return nil }
        var over: (name: String, size: Int)?
        eachValue(of: entry, named: true) { name, size in if over == nil && size > valueBytes { over = (name, size) } }
        if let (name, size) = over {
            return "its \(name) \(name == "notes" ? "are" : "is") \(mebibytes(size)), over the \(mebibytes(valueBytes)) one imported value may hold"
        }
        return "its values are \(mebibytes(total)) in all, over the \(mebibytes(entryBytes)) one imported entry may hold"
    }

    /// Each value the limits count, with its size in bytes and (`named`) what a message calls it.
    private static func eachValue(of entry: Entry, named: Bool, _ visit: (String, Int) -> Void) {
        visit("title", entry.title.utf8.count)
        visit("user name", entry.username.utf8.count)
        visit("password", entry.password?.utf8.count ?? 0)
        visit("notes", entry.notes.utf8.count)
        visit("code set-up", entry.totpURI?.utf8.count ?? 0)
        for url in entry.urls { visit("website", url.utf8.count) }
        for field in entry.fields {
            visit(named ? "field \(TerminalText.visible(String(field.name.prefix(40))))" : "", field.name.utf8.count + field.value.utf8.count)
        }
        for old in entry.history { visit("old password", old.password.utf8.count) }
    }

    static func mebibytes(_ bytes: Int) -> String {
        bytes % (1 << 20) == 0 ? "\(bytes >> 20) MiB" : String(format: "%.1f MiB", Double(bytes) / Double(1 << 20))
    }

    /// Leaves out (with `skipBadRows`, each named) or refuses (naming the
    /// first) the entries over a limit.
    static func enforce(_ candidates: inout [Entry], skipBadRows: Bool, notes: inout [String]) throws(ImportError) {
        // The entries over a limit found first; the rest are copied only when
        // some are left out (copying 100,000 entries' references was 25 ms of an import).
        // Measured on every core: each entry's values are a few cache misses away, 100,000 of them 15 ms on one.
        let problems = (try? Concurrently.map(candidates, chunk: 2048, problem)) ?? candidates.map(problem)
        var over: [Int] = []
        for (index, problem) in problems.enumerated() {
            guard let problem else { continue }
            let entry = candidates[index]
            let name = "item \(index + 1) (\(TerminalText.visible(String(entry.title.prefix(60)))))"
            guard skipBadRows else { throw ImportError(line: nil, message: "\(name): \(problem) (--skip-bad-rows imports the rest)") }
            notes.append("\(name) left out: \(problem)")
            over.append(index)
        }
        for index in over.reversed() { candidates.remove(at: index) }
    }
}
