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
        return entries.filter(belongs(to: entry, manifest: manifest, sharing: sharing))
    }

    /// The test of whether another entry is `entry`'s account's. The user
    /// name is compared first, by the key each entry keeps of it: an
    /// entry's site is worked out from its URL each time it is asked for,
    /// and most entries are someone else's.
    static func belongs(to entry: Entry, manifest: ServiceManifest?, sharing: SharedCredentials) -> (Entry) -> Bool {
        let user = normalizedUser(entry.username), key = UserNameKey.of(user), site = entry.site
        return { other in
            sameUser(other, key, user) && other.id != entry.id && other.kind.holdsPassword
                && other.pendingChange == nil && !other.site.isEmpty
                && (manifest?.covers(other.site) == true || sharing.shareCredentials(site, other.site))
        }
    }

    /// E-mail addresses are one account whatever their case; other user
    /// names are compared as the service would, exactly (trimmed).
    static func normalizedUser(_ user: String) -> String {
        let trimmed = user.trimmingCharacters(in: .whitespaces)
        return trimmed.dropFirst().contains("@") ? trimmed.lowercased() : trimmed
    }

    /// Whether `other`'s user name is `normalized`, whose key is `key`:
    /// decided by the keys each entry keeps (`UserNameKey`) but for the few
    /// that share one, or whose name is outside ASCII and has none.
    static func sameUser(_ other: Entry, _ key: UInt32, _ normalized: String) -> Bool {
        let otherKey = other.userNameKey
        guard otherKey == key || otherKey == UserNameKey.unknown else { return false }
        return normalizedUser(other.username) == normalized
    }

    /// A password typed or generated for one entry, given to the account's
    /// other entries that sign in with a password, each keeping its old one
    /// in its history, within the change that set it (one transaction: a
    /// crash never leaves the account's entries with different passwords).
    /// Returns the entries changed.
    @discardableResult
    public static func sharePassword(of entry: Entry, in change: VaultTransaction, manifest: ServiceManifest?,
                                     sharing: SharedCredentials, at date: Date = Date()) throws -> [Entry] {
        guard let password = entry.password, !entry.site.isEmpty else { return [] }
        let others = change.entries(withUserNameKey: UserNameKey.of(normalizedUser(entry.username)),
                                    where: belongs(to: entry, manifest: manifest, sharing: sharing))
            .filter { $0.signInWithApple == nil && $0.password != password }
        guard !others.isEmpty else { return [] }
        return try change.update(others.map(\.id)) { other in
            guard other.signInWithApple == nil, other.pendingChange == nil, other.password != password else { return }
            other.changePassword(to: password, reason: "changed with \(entry.title), the same account", at: date)
        }
    }
}
