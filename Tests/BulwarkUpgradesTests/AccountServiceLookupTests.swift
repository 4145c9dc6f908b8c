import BulwarkCore
import Testing
@testable import BulwarkUpgrades

/// The analysis asks the catalog once per account for a site's two-factor
/// method and passkey relying party; that one lookup answers as the two
/// separate questions do, for every built-in service's domains, hosts
/// under them, and hosts no service claims.
@Suite struct AccountServiceLookupTests {
    @Test func oneLookupAnswersAsTheTwoQuestions() throws {
        let catalog = try ServiceCatalog.builtIn()
        var hosts = ["", "unknown.example", "www.unknown.example", "example"]
        for manifest in catalog.manifests {
            for domain in manifest.domains.map({ $0.hasPrefix("*.") ? String($0.dropFirst(2)) : $0 }) { hosts += [domain, "www." + domain, "login." + domain] }
        }
        var withTwoFactor = 0, withPasskeys = 0
        for host in hosts {
            let both = catalog.accountService(for: host)
            #expect(both.twoFactorMethod == catalog.twoFactorMethod(for: host), "\(host)")
            #expect(both.passkeyRelyingParty == catalog.passkeyRelyingParty(for: host), "\(host)")
            if both.twoFactorMethod != nil { withTwoFactor += 1 }
            if both.passkeyRelyingParty != nil { withPasskeys += 1 }
        }
        // The demo's services include both kinds, so the comparison is not of nils alone.
        #expect(withTwoFactor > 0 && withPasskeys > 0)
    }
}
