/// What the analysis needs of an entry apart from its password, worked
/// out once per change (host parsing is not free at 100k entries).
struct AccountProfile: Sendable {
    let ref: AccountRef
    let titleKey: String
    /// The credential backend: a shared-credentials group or the site.
    let backend: String
    /// The site's name without its suffix (`northwind` for
    /// `bank.northwind.example`): a word zxcvbn should not credit.
    let siteWord: String
    let isSensitive: Bool
    let insecureURL: String?
    let twoFactorMethod: String?
    /// The RP ID when the account's service accepts passkeys.
    let passkeyRelyingParty: String?

    init(_ entry: Entry, sharing: SharedCredentials, services: ServiceRequirementsProvider?) {
        let site = entry.site
        ref = AccountRef(id: entry.id, title: entry.title, site: site)
        titleKey = entry.title.lowercased()
        let registrable = Domain.site(ofNormalized: site)
        backend = site.isEmpty ? "untitled-site:" + titleKey : sharing.backend(ofNormalized: site, site: registrable)
        siteWord = String(registrable.prefix { $0 != "." })
        isSensitive = entry.category.isSensitive
        insecureURL = entry.urls.first(where: SecurityAnalyzer.isInsecure)
        let service = site.isEmpty ? nil : services?.accountService(for: site)
        twoFactorMethod = service?.twoFactorMethod
        passkeyRelyingParty = service?.passkeyRelyingParty
    }
}
