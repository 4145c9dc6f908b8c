import Testing
@testable import BulwarkCore

@Suite struct AccountCategoryTests {
    @Test func sensitiveCategoriesAreTheFiveThatRaiseSeverity() {
        #expect(AccountCategory.allCases.filter(\.isSensitive) == [.email, .identity, .finance, .government, .health])
    }

    @Test func demoSitesAreAllReservedExampleDomains() {
        for entry in DemoCatalog.entries { #expect(entry.site.hasSuffix(".example")) }
    }
}
