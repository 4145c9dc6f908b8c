import Foundation
import Testing
@testable import BulwarkCore

@Suite struct AccountCategoryTests {
    @Test func sensitiveCategoriesAreTheFiveThatRaiseSeverity() {
        #expect(AccountCategory.allCases.filter(\.isSensitive) == [.email, .identity, .finance, .government, .health])
    }

    @Test func demoSitesAreAllReservedExampleDomains() throws {
        // The demo seed (Assets/demo/vault.json): every site under .example (RFC 2606), or none.
        let data = try Data(contentsOf: SharedData.repositoryRoot.appendingPathComponent("Assets/demo/vault.json"))
        let seed = try JSONSerialization.jsonObject(with: data) as! [String: Any]
        let entries = seed["entries"] as! [[String: Any]]
        #expect(entries.count == 42)
        for entry in entries {
            let url = entry["url"] as! String
            #expect(url.isEmpty || Domain.normalize(url).hasSuffix(".example"), "\(url)")
        }
    }

    @Test(arguments: [
        ("Northwind Bank", ["https://bank.northwind.example"], AccountCategory.finance),
        ("Tax Office", ["https://www.tax.example"], .government),   // government comes before finance
        ("Post", ["https://MAIL.Example.com/inbox"], .email),      // the host, lower-cased
        ("Café Crème", ["https://login.cafe.example"], .identity),  // "login." in the host
        ("Ärztezentrum Clinic", [], .health),
        ("Garden", ["https://garden.example"], .other),
        ("", [], .other),
    ])
    func categoryIsGuessedFromTitleAndHost(title: String, urls: [String], expected: AccountCategory) {
        #expect(CategoryGuess.guess(title: title, urls: urls) == expected)
    }
}
