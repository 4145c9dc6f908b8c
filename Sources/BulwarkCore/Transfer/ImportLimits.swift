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
    static func problem(_ entry: Entry) -> String? {
        // The sizes first, each value named only when one is over: naming every
        // field of 100,000 entries (sanitised for the terminal) was 50 ms of an import.
        var largest = 0, total = 0
        func add(_ size: Int) {
            largest = max(largest, size)
            total += size
        }
        for size in [entry.title.utf8.count, entry.username.utf8.count, entry.password?.utf8.count ?? 0, entry.notes.utf8.count,
                     entry.totpURI?.utf8.count ?? 0] { add(size) }
        for url in entry.urls { add(url.utf8.count) }
        for field in entry.fields { add(field.name.utf8.count + field.value.utf8.count) }
        for old in entry.history { add(old.password.utf8.count) }
        guard largest > valueBytes || total > entryBytes else { return nil }
        var values: [(String, Int)] = [("title", entry.title.utf8.count), ("user name", entry.username.utf8.count),
                                       ("password", entry.password?.utf8.count ?? 0), ("notes", entry.notes.utf8.count),
                                       ("code set-up", entry.totpURI?.utf8.count ?? 0)]
        for url in entry.urls { values.append(("website", url.utf8.count)) }
        for field in entry.fields { values.append(("field \(TerminalText.visible(String(field.name.prefix(40))))", field.name.utf8.count + field.value.utf8.count)) }
        for old in entry.history { values.append(("old password", old.password.utf8.count)) }
        if let (name, size) = values.first(where: { $0.1 > valueBytes }) {
            return "its \(name) \(name == "notes" ? "are" : "is") \(mebibytes(size)), over the \(mebibytes(valueBytes)) one imported value may hold"
        }
        if total > entryBytes { return "its values are \(mebibytes(total)) in all, over the \(mebibytes(entryBytes)) one imported entry may hold" }
        return nil
    }

    static func mebibytes(_ bytes: Int) -> String {
        bytes % (1 << 20) == 0 ? "\(bytes >> 20) MiB" : String(format: "%.1f MiB", Double(bytes) / Double(1 << 20))
    }

    /// Leaves out (with `skipBadRows`, each named) or refuses (naming the
    /// first) the entries over a limit.
    static func enforce(_ candidates: inout [Entry], skipBadRows: Bool, notes: inout [String]) throws(ImportError) {
        var kept: [Entry] = []
        kept.reserveCapacity(candidates.count)
        for (index, entry) in candidates.enumerated() {
            guard let problem = problem(entry) else {
                kept.append(entry)
                continue
            }
            let name = "item \(index + 1) (\(TerminalText.visible(String(entry.title.prefix(60)))))"
            guard skipBadRows else { throw ImportError(line: nil, message: "\(name): \(problem) (--skip-bad-rows imports the rest)") }
            notes.append("\(name) left out: \(problem)")
        }
        if kept.count != candidates.count { candidates = kept }
    }
}
