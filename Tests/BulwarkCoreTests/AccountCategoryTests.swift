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
        #expect(entries.count == 40)
        for entry in entries {
            let url = entry["url"] as! String
            #expect(url.isEmpty || Domain.normalize(url).hasSuffix(".example"), "\(url)")
        }
    }
}
