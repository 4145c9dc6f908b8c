import Foundation

/// Which entries a verification code belongs to, going by what its
/// `otpauth://` URL says: the issuer ("Shiny") named in an entry's title or
/// site, and, when the URL names an account, the entry's user name.
public enum CodeOwner {
    /// Entries the code looks like it belongs to, best first: issuer and account, then issuer alone.
    public static func suggestions(for config: OTPConfiguration, in entries: [Entry]) -> [Entry] {
        guard let issuer = config.issuer.map(folded), !issuer.isEmpty else { return [] }
        let account = folded(config.account)
        let byIssuer = entries.filter { entry in
            entry.kind.holdsPassword && (folded(entry.title).contains(issuer) || folded(entry.site).contains(issuer))
        }
        let both = byIssuer.filter { !account.isEmpty && folded($0.username) == account }
        return both + byIssuer.filter { entry in !both.contains { $0.id == entry.id } }
    }

    /// Whether the code looks like the entry's (or says nothing of whose it is).
    public static func fits(_ config: OTPConfiguration, _ entry: Entry) -> Bool {
        guard let issuer = config.issuer.map(folded), !issuer.isEmpty else { return true }
        return folded(entry.title).contains(issuer) || folded(entry.site).contains(issuer)
    }

    /// An entry's code whose issuer names someone else: the issuer, and up
    /// to three other entries that look like the code's; nil when the code
    /// fits its entry (or the entry has none).
    public static func misplaced(_ entry: Entry, in entries: [Entry]) -> (issuer: String, owners: [String])? {
        guard let uri = entry.totpURI, let config = try? OTPAuthURL.parse(uri), !fits(config, entry) else { return nil }
        let owners = suggestions(for: config, in: entries).filter { $0.id != entry.id }.prefix(3).map(\.title)
        return (config.issuer ?? "", Array(owners))
    }

    /// Letters and digits, lower-cased: "Northwind Bank" meets "northwind.example".
    static func folded(_ text: String) -> String {
        String(text.lowercased().unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) }.map(Character.init))
    }
}
