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

    /// The guess read in one pass finds what searching each category's
    /// keywords in turn finds, on titles and sites made of keywords, their
    /// pieces, letters outside ASCII and mixed case.
    @Test func theOnePassGuessIsTheSearchInTurn() {
        func inTurn(_ title: String, _ urls: [String]) -> AccountCategory {
            let haystack = Array(([title] + urls.map(Domain.normalize)).joined(separator: " ").lowercased().utf8)
            for (category, words) in CategoryGuess.keywords where words.contains(where: { ByteSearch.contains(haystack, Array($0.utf8)) }) {
                return category
            }
            return .other
        }
        let pieces = CategoryGuess.keywords.flatMap(\.1) + ["BANK", "Pa", "y", "ID", "Å", "İ", "\u{212A}", "é", " ", ".", "-", "x", "Mail", "ſ"]
        var generator = SplitMix64(seed: 29)
        for _ in 0..<4000 {
            let title = (0..<Int.random(in: 0...4, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            let hosts = (0..<Int.random(in: 0...2, using: &generator)).map { _ in
                "https://" + (0..<Int.random(in: 1...3, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined() + ".example/p"
            }
            #expect(CategoryGuess.guess(title: title, urls: hosts) == inTurn(title, hosts), "\(title) \(hosts)")
        }
    }
}
