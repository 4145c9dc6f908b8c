/// What an export format cannot carry of an entry, named so that nothing
/// is left behind without a word. Apple's CSV has six columns (title,
/// website, user name, password, notes, code): an entry's kind, custom
/// fields (a card's number, an identity's address), tags, old passwords
/// and passkeys have no place in it. A KeePass entry holds one passkey.
/// Bitwarden's JSON carries all of them.
public enum ExportLoss {
    /// Per entry with a loss: its title and what of it is not written.
    public struct Item: Sendable, Equatable {
        public let title: String
        public let lost: [String]
    }

    public static func appleCSV(_ entries: [Entry]) -> [Item] {
        entries.compactMap { e in
            var lost: [String] = []
            if e.kind != .login { lost.append("kind (\(e.kind.label.lowercased()))") }
            if !e.fields.isEmpty { lost.append(count(e.fields.count, "custom field")) }
            if !e.tags.isEmpty { lost.append(count(e.tags.count, "tag")) }
            if e.categoryIsManual { lost.append("category") }
            if !e.history.isEmpty { lost.append(count(e.history.count, "old password")) }
            if !e.passkeys.isEmpty { lost.append(count(e.passkeys.count, "passkey")) }
            if e.expires != nil { lost.append("expiry") }
            if !e.snapshots.isEmpty { lost.append(count(e.snapshots.count, "earlier version")) }
            return lost.isEmpty ? nil : Item(title: e.title, lost: lost)
        }
    }

    public static func kdbx(_ entries: [Entry]) -> [Item] {
        entries.compactMap { e in
            e.passkeys.count > 1 ? Item(title: e.title, lost: [count(e.passkeys.count - 1, "passkey") + " beyond the first"]) : nil
        }
    }

    static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
}
