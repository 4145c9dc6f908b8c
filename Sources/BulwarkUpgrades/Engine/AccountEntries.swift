import BulwarkCore
import Foundation

/// One account can be saved in several entries: the same user name at two
/// sites of one shared-credentials group (shiny.example and
/// shinystore.example), or at two of a service's associated domains. A
/// change of the account's sign-in is a change of all of them, or the
/// others are left holding a password the service no longer takes.
public enum AccountEntries {
    /// The other entries of `entry`'s account at `manifest`'s service (or,
    /// with none, in its site's shared-credentials group), in vault order.
    public static func others(of entry: Entry, in entries: [Entry], manifest: ServiceManifest?,
                              sharing: SharedCredentials) -> [Entry] {
        guard !entry.site.isEmpty else { return [] }
        let user = normalizedUser(entry.username)
        return entries.filter { other in
            other.id != entry.id && !other.site.isEmpty && other.kind.holdsPassword && other.pendingChange == nil
                && normalizedUser(other.username) == user
                && (manifest?.covers(other.site) == true || sharing.shareCredentials(entry.site, other.site))
        }
    }

    /// E-mail addresses are one account whatever their case; other user
    /// names are compared as the service would, exactly (trimmed).
    static func normalizedUser(_ user: String) -> String {
        let trimmed = user.trimmingCharacters(in: .whitespaces)
        return trimmed.dropFirst().contains("@") ? trimmed.lowercased() : trimmed
    }

    /// A password typed or generated for one entry, given to the account's
    /// other entries that sign in with a password, each keeping its old one
    /// in its history, within the change that set it (one transaction: a
    /// crash never leaves the account's entries with different passwords).
    /// Returns the entries changed.
    @discardableResult
    public static func sharePassword(of entry: Entry, in change: VaultTransaction, manifest: ServiceManifest?,
                                     sharing: SharedCredentials, at date: Date = Date()) throws -> [Entry] {
        guard let password = entry.password else { return [] }
        let others = others(of: entry, in: change.entries, manifest: manifest, sharing: sharing)
            .filter { $0.signInWithApple == nil && $0.password != password }
        guard !others.isEmpty else { return [] }
        return try change.update(others.map(\.id)) { other in
            guard other.signInWithApple == nil, other.pendingChange == nil, other.password != password else { return }
            other.changePassword(to: password, reason: "changed with \(entry.title), the same account", at: date)
        }
    }
}
