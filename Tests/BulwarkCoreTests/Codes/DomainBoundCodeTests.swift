import Testing
@testable import BulwarkCore

@Suite struct DomainBoundCodeTests {
    @Test func readsTheLastLine() throws {
        let code = try #require(DomainBoundCode.parse(message: "Your Shiny code is 123456.\n\n@shiny.example #123456"))
        #expect(code == DomainBoundCode(domain: "shiny.example", code: "123456", embeddedDomain: nil))
        let embedded = try #require(DomainBoundCode.parse(message: "747723 is your code\r\n@Shop.Example #747723 %pay.example\n"))
        #expect(embedded == DomainBoundCode(domain: "shop.example", code: "747723", embeddedDomain: "pay.example"))
    }

    @Test(arguments: [
        "Your code is 123456", "@shiny.example 123456", "@shiny.example #123456\nthanks!", "@ #1", "@a.example #",
        "@a.example #1 %", "@a.example #1 x.example", "@-bad-.example #1", "@localhost #123", "@a.example #1 %b.example more",
        "@shiny.example #123456789012345678901234567890123",
    ])
    func notADomainBinding(message: String) {
        #expect(DomainBoundCode.parse(message: message) == nil)
    }

    @Test func offeredToTheDomainAndItsSubdomainsOnly() throws {
        let code = try #require(DomainBoundCode.parse(message: "@shiny.example #123456"))
        #expect(code.isOffered(forSite: "shiny.example"))
        #expect(code.isOffered(forSite: "https://login.shiny.example/signin"))
        #expect(!code.isOffered(forSite: "example"))
        #expect(!code.isOffered(forSite: "notshiny.example"))
        #expect(!code.isOffered(forSite: "shiny.example.evil.example"))
        #expect(!code.isOffered(forSite: "shiny.example", embeddedSite: "pay.example"))
    }

    @Test func embeddedCodesNeedTheEmbeddedSiteInsideTheTopLevelOne() throws {
        let code = try #require(DomainBoundCode.parse(message: "@shop.example #747723 %pay.example"))
        #expect(code.isOffered(forSite: "shop.example", embeddedSite: "pay.example"))
        #expect(!code.isOffered(forSite: "shop.example"))
        #expect(!code.isOffered(forSite: "pay.example"))
        #expect(!code.isOffered(forSite: "shop.example", embeddedSite: "evil.example"))
    }
}
