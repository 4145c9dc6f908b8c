import BulwarkCore
import Foundation

/// The add and edit form: title, website, username, password, notes.
public struct EntryEditor: Sendable, Equatable {
    public static let labels = ["Title", "Website", "Username", "Password", "Notes"]
    /// Nil for a new entry.
    public var id: String?
    public var fields: [TextField]
    public var focus = 0
    public var error: String?
    /// The row version the edit started from: saving over a newer row is a conflict.
    public var baseVersion: Int64?

    public init(editing entry: Entry?, version: Int64? = nil) {
        id = entry?.id
        baseVersion = version
        fields = [
            TextField(entry?.title ?? "", placeholder: "required"),
            TextField(entry?.urls.first ?? "", placeholder: "https://…"),
            TextField(entry?.username ?? ""),
            TextField(entry?.password ?? "", masked: true, placeholder: "Ctrl-G makes a strong one"),
            TextField(entry?.notes ?? ""),
        ]
    }

    /// The entry the form describes, based on `original` when editing.
    func entry(original: Entry?, now: Date) -> Entry? {
        let title = fields[0].text.trimmingCharacters(in: .whitespaces)
        guard !title.isEmpty else { return nil }
        let url = fields[1].text.trimmingCharacters(in: .whitespaces)
        let password = fields[3].text.isEmpty ? nil : fields[3].text
        var entry = original ?? Entry(title: title, created: now)
        entry.title = title
        entry.urls = url.isEmpty ? [] : [url]
        entry.username = fields[2].text
        entry.notes = fields[4].text
        if !entry.categoryIsManual { entry.category = CategoryGuess.guess(title: entry.title, urls: entry.urls) }
        if original == nil { entry.password = password } else if password != entry.password {
            entry.changePassword(to: password, reason: "edited", at: now)
        }
        entry.modified = now
        return entry
    }
}
