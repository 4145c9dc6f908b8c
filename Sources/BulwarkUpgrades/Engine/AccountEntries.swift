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
    /// name is compared first, by the key each entry keeps of it, then its
    /// bytes: an entry's site is worked out from its URL each time it is
    /// asked for, and most entries are someone else's.
    static func belongs(to entry: Entry, manifest: ServiceManifest?, sharing: SharedCredentials) -> (Entry) -> Bool {
        let user = normalizedUser(entry.username), wanted = Array(user.utf8), site = entry.site
        let key = UserNameKey.of(user)
        return { other in
            sameUser(other, key, wanted, user) && other.id != entry.id && other.kind.holdsPassword
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

    /// Whether `raw` is the user name `normalized` (as `normalizedUser` makes it).
    static func sameUser(_ raw: String, _ normalized: String) -> Bool {
        var raw = raw
        return raw.withUTF8 { sameUser($0, Array(normalized.utf8), normalized) }
    }

    /// Whether `other`'s user name is `normalized`, whose key is `key` and
    /// bytes `wanted`: a name not in ASCII is compared as a String; an
    /// ASCII one is not the same as a name that is not (trimming and
    /// lowering ASCII leave it ASCII), nor as one with another key.
    static func sameUser(_ other: Entry, _ key: UInt32, _ wanted: [UInt8], _ normalized: String) -> Bool {
        let otherKey = other.userNameKey
        if otherKey == UserNameKey.unknown { return normalizedUser(other.username) == normalized }
        guard otherKey == key else { return false }
        return other.withUsernameUTF8 { sameUser($0, wanted, normalized) }
    }

    /// The same on a user name's bytes, `wanted` being `normalized`'s.
    /// Asked of every entry in the vault when a password changes, so the
    /// plain case is decided on the bytes where the entry keeps them: a
    /// name that is not the same length once trimmed of spaces, or not the
    /// same ASCII letters, is another account, without a String made of it
    /// nor Foundation's trimming and lowercasing (at 100,000 entries those
    /// took a quarter of a second). Anything not ASCII is compared as Strings.
    static func sameUser(_ raw: UnsafeBufferPointer<UInt8>, _ wanted: [UInt8], _ normalized: String) -> Bool {
        guard raw.allSatisfy({ $0 < 0x80 }) else { return normalizedUser(String(decoding: raw, as: UTF8.self)) == normalized }
        var bytes = raw[...]
        while let first = bytes.first, first == 0x20 || first == 0x09 { bytes = bytes.dropFirst() }
        while let last = bytes.last, last == 0x20 || last == 0x09 { bytes = bytes.dropLast() }
        guard bytes.count == wanted.count else { return false }
        // An e-mail address (an @ after the first character) is one account whatever its case.
        let email = bytes.dropFirst().contains(0x40)
        return zip(bytes, wanted).allSatisfy { byte, other in
            byte == other || (email && byte >= 0x41 && byte <= 0x5A && byte + 0x20 == other)
        }
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
