/// What the analysis needs of an entry apart from its password, worked
/// out once per change (host parsing is not free at 100k entries).
///
/// The analysis keeps one per account, so it holds only what the entry
/// does not: the account's id and title are the entry's (see `ref`), and
/// the rarely set findings share one optional box.
struct AccountProfile: Sendable {
    /// The entry's site, normalised.
    let site: String
    let titleKey: String
    /// The credential backend: a shared-credentials group or the site.
    let backend: String
    let isSensitive: Bool
    private let traits: Traits?

    /// What few accounts have: nil for most, so one word of the profile.
    private final class Traits: Sendable {
        let insecureURL: String?
        let twoFactorMethod: String?
        let passkeyRelyingParty: String?

        init(insecureURL: String?, twoFactorMethod: String?, passkeyRelyingParty: String?) {
            self.insecureURL = insecureURL
            self.twoFactorMethod = twoFactorMethod
            self.passkeyRelyingParty = passkeyRelyingParty
        }
    }

    var insecureURL: String? { traits?.insecureURL }
    var twoFactorMethod: String? { traits?.twoFactorMethod }
    /// The RP ID when the account's service accepts passkeys.
    var passkeyRelyingParty: String? { traits?.passkeyRelyingParty }

    /// The account as findings name it.
    func ref(_ entry: Entry) -> AccountRef { AccountRef(id: entry.id, title: entry.title, site: site, backend: backend) }

    /// The site's name without its suffix (`northwind` for
    /// `bank.northwind.example`): a word zxcvbn should not credit. Worked
    /// out again when asked; `made` hands it over with a new profile.
    var siteWord: String { Self.siteWord(ofRegistrable: Domain.site(ofNormalized: site)) }

    init(_ entry: Entry, sharing: SharedCredentials, services: ServiceRequirementsProvider?) {
        self = Self.made(entry, sharing: sharing, services: services).profile
    }

    /// A profile and its site word, the registrable domain parsed once for both.
    static func made(_ entry: Entry, sharing: SharedCredentials, services: ServiceRequirementsProvider?) -> (profile: AccountProfile, siteWord: String) {
        let site = entry.site
        let titleKey = entry.title.lowercased()
        let registrable = Domain.site(ofNormalized: site)
        let backend = site.isEmpty ? "untitled-site:" + titleKey : sharing.backend(ofNormalized: site, site: registrable)
        let insecureURL = entry.firstURL.flatMap { SecurityAnalyzer.isInsecure($0) ? $0 : nil }
            ?? entry.urlsAfterTheFirst.first(where: SecurityAnalyzer.isInsecure)
        let service = site.isEmpty ? nil : services?.accountService(for: site)
        let twoFactorMethod = service?.twoFactorMethod, passkeyRelyingParty = service?.passkeyRelyingParty
        let traits = insecureURL == nil && twoFactorMethod == nil && passkeyRelyingParty == nil ? nil
            : Traits(insecureURL: insecureURL, twoFactorMethod: twoFactorMethod, passkeyRelyingParty: passkeyRelyingParty)
        let profile = AccountProfile(site: site, titleKey: titleKey, backend: backend, isSensitive: entry.category.isSensitive, traits: traits)
        return (profile, siteWord(ofRegistrable: registrable))
    }

    private init(site: String, titleKey: String, backend: String, isSensitive: Bool, traits: Traits?) {
        self.site = site
        self.titleKey = titleKey
        self.backend = backend
        self.isSensitive = isSensitive
        self.traits = traits
    }

    private static func siteWord(ofRegistrable registrable: String) -> String {
        String(registrable.prefix { $0 != "." })
    }
}
