import Foundation

/// When two versions of one entry become one (an import merged into the
/// vault, an edit that met another bulwark's), one side's values stand and
/// the other's would vanish. Nothing a person wrote may vanish unnamed:
/// every value of the losing side that the standing side does not already
/// hold is kept on it, and each is named for the message that says so.
/// The password goes to history (where old passwords live); a differing
/// title, user name, notes or code generator becomes a custom field named
/// for where it came from; URLs, tags, fields and passkeys are joined.
public enum LosingSide {
    /// Keeps on `kept` what `lost` has that `kept` lacks. `label` says whose
    /// the lost values were ("your version", "from the import"): a kept
    /// title reads "Title (your version)". `reason` goes with a password
    /// kept in history. Returns what was kept, by name ("notes", "title",
    /// "the field PIN"), empty when the losing side held nothing new.
    @discardableResult
    public static func keep(_ lost: Entry, in kept: inout Entry, label: String, reason: String, at date: Date) -> [String] {
        var named: [String] = []
        if let password = lost.password, !password.isEmpty, password != kept.password,
           !kept.history.contains(where: { $0.password == password }) {
            kept.history.insert(PasswordHistoryItem(password: password, changedAt: date, reason: reason), at: 0)
            named.append("password (in history)")
        }
        let known = Set(kept.history.map(\.password) + [kept.password].compactMap { $0 })
        let missingHistory = lost.history.filter { !known.contains($0.password) }
        if !missingHistory.isEmpty {
            kept.history = (kept.history + missingHistory).sorted { $0.changedAt > $1.changedAt }
            named.append("\(missingHistory.count) old password\(missingHistory.count == 1 ? "" : "s") (in history)")
        }
        func keepText(_ value: String, _ standing: String, name: String, hidden: Bool = false) {
            guard !value.isEmpty, value != standing else { return }
            let fieldName = "\(name) (\(label))"
            guard !kept.fields.contains(where: { $0.name == fieldName && $0.value == value }) else { return }
            kept.fields.append(CustomField(name: fieldName, value: value, hidden: hidden))
            named.append(name.lowercased())
        }
        keepText(lost.title, kept.title, name: "Title")
        keepText(lost.username, kept.username, name: "User name")
        keepText(lost.notes, kept.notes, name: "Notes")
        keepText(lost.totpURI ?? "", kept.totpURI ?? "", name: "Verification code setup", hidden: true)
        keepText(lost.expires.map { ISODate.string($0) } ?? "", kept.expires.map { ISODate.string($0) } ?? "", name: "Expires")
        let newURLs = lost.urls.filter { !kept.urls.contains($0) }
        if !newURLs.isEmpty {
            kept.urls += newURLs
            named.append(newURLs.count == 1 ? "website \(newURLs[0])" : "\(newURLs.count) websites")
        }
        kept.tags += lost.tags.filter { !kept.tags.contains($0) }
        for field in lost.fields {
            if let standing = kept.fields.first(where: { $0.name == field.name }) {
                guard standing.value != field.value else { continue }
                let fieldName = "\(field.name) (\(label))"
                guard !kept.fields.contains(where: { $0.name == fieldName && $0.value == field.value }) else { continue }
                kept.fields.append(CustomField(name: fieldName, value: field.value, hidden: field.hidden || standing.hidden))
            } else {
                kept.fields.append(field)
            }
            named.append("field \(field.name)")
        }
        let newSnapshots = lost.snapshots.filter { !kept.snapshots.contains($0) }
        if !newSnapshots.isEmpty {
            kept.snapshots = (kept.snapshots + newSnapshots).sorted { $0.at < $1.at }
            named.append(newSnapshots.count == 1 ? "earlier version" : "\(newSnapshots.count) earlier versions")
        }
        let newPasskeys = lost.passkeys.filter { key in !kept.passkeys.contains(key) }
        if !newPasskeys.isEmpty {
            kept.passkeys += newPasskeys
            named.append(newPasskeys.count == 1 ? "passkey" : "\(newPasskeys.count) passkeys")
        }
        return named
    }

    /// What `keep` kept, as a person reads it: "your password is in its
    /// history; your notes and title are in fields marked (your version)".
    /// Joined websites, fields and passkeys are named after them.
    public static func describe(_ kept: [String], whose: String, label: String) -> String {
        let history = kept.filter { $0.hasSuffix(" (in history)") }.map { String($0.dropLast(" (in history)".count)) }
        let marked: Set<String> = ["title", "user name", "notes", "verification code setup", "expires"]
        let fields = kept.filter { marked.contains($0) }
        let joined = kept.filter { !$0.hasSuffix(" (in history)") && !marked.contains($0) }
        var parts: [String] = []
        if !history.isEmpty {
            let plural = history.count > 1 || history[0].hasSuffix("s")
            parts.append("\(whose) \(list(history)) \(plural ? "are" : "is") in its history")
        }
        if !fields.isEmpty {
            parts.append("\(whose) \(list(fields)) \(fields.count > 1 || fields[0] == "notes" ? "are" : "is") in \(fields.count > 1 ? "fields" : "a field") marked (\(label))")
        }
        if !joined.isEmpty { parts.append("\(whose) \(list(joined)) \(joined.count > 1 ? "were" : "was") added") }
        return parts.joined(separator: "; ")
    }

    /// "notes, title and field PIN".
    public static func list(_ names: [String]) -> String {
        switch names.count {
        case 0: ""
        case 1: names[0]
        default: names.dropLast().joined(separator: ", ") + " and " + names.last!
        }
    }
}
