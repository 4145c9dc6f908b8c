import BulwarkCore
import Foundation

/// One account can be saved in several entries: the same user name at two
/// sites of one shared-credentials group (shiny.example and
/// shinystore.example), or at two of a service's associated domains. A
/// change of the account's sign-in is a change of all of them, or the
/// others are left holding a password the service no longer takes.
public enum AccountEntries {
    /// The other entries of `entry`'s account at `manifest`'s service, in vault order.
    public static func others(of entry: Entry, in entries: [Entry], manifest: ServiceManifest,
                              sharing: SharedCredentials = .builtIn) -> [Entry] {
        guard !entry.site.isEmpty else { return [] }
        let user = normalizedUser(entry.username)
        return entries.filter { other in
            other.id != entry.id && !other.site.isEmpty && other.kind.holdsPassword && other.pendingChange == nil
                && normalizedUser(other.username) == user
                && (manifest.covers(other.site) || sharing.shareCredentials(entry.site, other.site))
        }
    }

    /// E-mail addresses are one account whatever their case; other user
    /// names are compared as the service would, exactly (trimmed).
    static func normalizedUser(_ user: String) -> String {
        let trimmed = user.trimmingCharacters(in: .whitespaces)
        return trimmed.dropFirst().contains("@") ? trimmed.lowercased() : trimmed
    }
}
