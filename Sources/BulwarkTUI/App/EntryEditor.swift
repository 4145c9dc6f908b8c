import BulwarkCore
import Foundation

/// The add and edit form: title, website, username, password, the
/// verification code's set-up (an otpauth:// URL or the secret a site
/// shows under its QR code), category (empty: guessed from the title and
/// site), tags (separated by commas), notes.
public struct EntryEditor: Sendable, Equatable {
    public static let labels = ["Title", "Website", "Username", "Password", "Code", "Category", "Tags", "Notes"]
    /// Where each field is in `fields`.
    enum Field: Int { case title, website, username, password, code, category, tags, notes }
    /// Nil for a new entry.
    public var id: String?
    public var fields: [TextField]
    public var focus = 0
    public var error: String?
    /// The row version the edit started from: saving over a newer row is a conflict.
    public var baseVersion: Int64?
    /// The fields as the form opened, to tell whether anything was typed.
    let openedWith: [String]

    /// The fields whose text differs from what the form opened with.
    public var changedLabels: [String] {
        zip(EntryEditor.labels, zip(fields, openedWith)).filter { $1.0.text != $1.1 }.map(\.0)
    }

    public init(editing entry: Entry?, version: Int64? = nil) {
        id = entry?.id
        baseVersion = version
        fields = [
            TextField(entry?.title ?? "", placeholder: "required"),
            TextField(entry?.urls.first ?? "", placeholder: "https://…"),
            TextField(entry?.username ?? ""),
            TextField(entry?.password ?? "", masked: true, placeholder: "Ctrl-G makes a strong one"),
            TextField(entry?.totpURI ?? "", masked: true, placeholder: "otpauth://…, secret, or QR image path"),
            TextField(entry.map { $0.categoryIsManual ? $0.category.label : "" } ?? "",
                      placeholder: "guessed" + (entry.map { " (\($0.category.label))" } ?? "") + "; or " + AccountCategory.allCases.prefix(3).map(\.label).joined(separator: ", ") + "…"),
            TextField(entry?.tags.joined(separator: ", ") ?? "", placeholder: "home, work"),
            TextField(entry?.notes ?? ""),
        ]
        openedWith = fields.map(\.text)
    }

    /// A category as typed: its name or the start of one, in any case; nil for empty (guessed).
    static func category(_ text: String) throws(Problem) -> AccountCategory? {
        let typed = text.trimmingCharacters(in: .whitespaces).lowercased()
        guard !typed.isEmpty else { return nil }
        let matches = AccountCategory.allCases.filter { $0.rawValue.hasPrefix(typed) }
        if let exact = matches.first(where: { $0.rawValue == typed }) { return exact }
        guard matches.count == 1 else {
            throw Problem(message: "The category: one of " + AccountCategory.allCases.map(\.label).joined(separator: ", ") + ", or empty to let bulwark guess.")
        }
        return matches[0]
    }

    /// Tags as typed: separated by commas, trimmed, each once, in order.
    static func tags(_ text: String) -> [String] {
        var seen: Set<String> = []
        return text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && seen.insert($0).inserted }
    }

    public struct Problem: Error, Equatable { public let message: String }

    /// The path of a QR picture typed in the Code field (`/…`, `~/…` or
    /// `./…`, ending .png, .jpg or .jpeg), `~` made the home directory; nil
    /// for a URL or a secret.
    static func picturePath(_ text: String) -> String? {
        let lower = text.lowercased()
        guard text.hasPrefix("/") || text.hasPrefix("~/") || text.hasPrefix("./"),
              lower.hasSuffix(".png") || lower.hasSuffix(".jpg") || lower.hasSuffix(".jpeg") else { return nil }
        return text.hasPrefix("~/") ? NSHomeDirectory() + text.dropFirst(1) : text
    }

    /// The entry the form describes, based on `original` when editing; or
    /// what stops it (no title, a code that is not one).
    func entry(original: Entry?, now: Date) throws(Problem) -> Entry {
        let title = fields[Field.title.rawValue].text.trimmingCharacters(in: .whitespaces)
        guard !title.isEmpty else { throw Problem(message: "A title is required.") }
        let code = fields[Field.code.rawValue].text.trimmingCharacters(in: .whitespaces)
        var totp: String?
        if !code.isEmpty {
            var typed = code
            // A picture of the site's QR code (PNG or JPEG), by its path: the code it holds.
            if let picture = Self.picturePath(code) {
                do { typed = try QRCodeImage.text(atPath: picture) } catch { throw Problem(message: "The code's picture \(code): \(error).") }
            }
            do { totp = try TOTPInput.normalized(typed, issuer: title, account: fields[Field.username.rawValue].text) } catch {
                throw Problem(message: "The code: \(error).")
            }
        }
        let category = try Self.category(fields[Field.category.rawValue].text)
        let url = fields[1].text.trimmingCharacters(in: .whitespaces)
        let password = fields[3].text.isEmpty ? nil : fields[3].text
        var entry = original ?? Entry(title: title, created: now)
        entry.title = title
        entry.urls = url.isEmpty ? [] : [url]
        entry.username = fields[2].text
        entry.totpURI = totp
        entry.notes = fields[Field.notes.rawValue].text
        entry.tags = Self.tags(fields[Field.tags.rawValue].text)
        entry.categoryIsManual = category != nil
        entry.category = category ?? CategoryGuess.guess(title: entry.title, urls: entry.urls)
        if original == nil { entry.password = password } else if password != entry.password {
            entry.changePassword(to: password, reason: "edited", at: now)
        }
        entry.modified = now
        return entry
    }
}
