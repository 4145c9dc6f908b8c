import Foundation
import Testing
@testable import BulwarkCore

@Suite struct SiteRequirementsTests {
    static func quirks() throws -> QuirksDirectory { try QuirksDirectory.load(from: SharedData.quirksDirectory) }

    @Test func rulesForAnExactDomainAndItsSubdomains() throws {
        let quirks = try Self.quirks()
        #expect(quirks.passwordRules.count == 434)
        #expect(quirks.rulesEntry(for: "163.com")?.rules == "minlength: 6; maxlength: 16;")
        #expect(quirks.rulesEntry(for: "https://Mail.163.COM/login")?.rules == "minlength: 6; maxlength: 16;")
        #expect(quirks.rulesEntry(for: "www.163.com")?.rules == "minlength: 6; maxlength: 16;")
        #expect(quirks.rulesEntry(for: "not-listed.example") == nil)
    }

    @Test func exactDomainMatchOnlyEntriesDoNotCoverSubdomains() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("quirks-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("""
        {"bank.example": {"password-rules": "minlength: 8;", "exact-domain-match-only": true},
         "shop.example": {"password-rules": "maxlength: 12;"}}
        """.utf8).write(to: directory.appendingPathComponent("password-rules.json"))
        let quirks = try QuirksDirectory.load(from: directory)
        #expect(quirks.rulesEntry(for: "bank.example")?.rules == "minlength: 8;")
        #expect(quirks.rulesEntry(for: "login.bank.example") == nil)
        #expect(quirks.rulesEntry(for: "a.b.shop.example")?.rules == "maxlength: 12;")
    }

    @Test func changePasswordURLFromQuirksElseWellKnown() throws {
        let requirements = SiteRequirements(quirks: try Self.quirks())
        let quirked = requirements.changePasswordURL(for: "247sports.com")
        #expect(quirked.url == "https://247sports.com/my/settings/password/" && quirked.source == .quirks)
        let standard = requirements.changePasswordURL(for: "HTTPS://Shiny.Example/login")
        #expect(standard.url == "https://shiny.example/.well-known/change-password" && standard.source == .wellKnown)
    }

    struct Manifests: ServiceRequirementsProvider {
        func passwordRules(for host: String) -> String? { host == "shiny.example" ? "maxlength: 16;" : nil }
        func changePasswordURL(for host: String) -> String? { host == "shiny.example" ? "https://shiny.example/account/password" : nil }
    }

    @Test func manifestsAnswerWhenQuirksDoNot() throws {
        let requirements = SiteRequirements(quirks: try Self.quirks(), services: Manifests())
        #expect(requirements.passwordRules(for: "shiny.example")?.source == .manifest)
        #expect(requirements.changePasswordURL(for: "shiny.example").url == "https://shiny.example/account/password")
        #expect(requirements.passwordRules(for: "163.com")?.source == .quirks)
        #expect(SiteRequirements().passwordRules(for: "163.com") == nil)
    }

    @Test func aMalformedQuirksFileIsNamed() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("quirks-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("{ not json".utf8).write(to: directory.appendingPathComponent("change-password-URLs.json"))
        #expect { try QuirksDirectory.load(from: directory) } throws: {
            ($0 as? QuirksDirectory.LoadError)?.description == "cannot read change-password-URLs.json: not valid JSON"
        }
    }

    @Test func domainNormalisation() {
        #expect(Domain.normalize(" https://user@Login.Example.COM.:8443/path?q#f ") == "login.example.com")
        #expect(Domain.selfAndParents("a.b.example.com") == ["a.b.example.com", "b.example.com", "example.com"])
        #expect(Domain.selfAndParents("localhost") == ["localhost"])
    }

    @Test(arguments: ["", "example", "example.com", "login.example.com", "a.b.c.example.com", "bank.co.uk", "www.bank.co.uk",
                      "x.com.au", "shop.example.co", "co.uk", ".example.com", "example.com.", "a..example.com", "..",
                      "münchen.de", "www.bücher.co.uk", "127.0.0.1", "[::1]"])
    func registrableSiteOnBytesAgreesWithTheLabelDefinition(host: String) {
        #expect(Domain.site(ofNormalized: host) == Domain.siteSplittingLabels(host))
    }

    @Test func registrableSite() {
        #expect(Domain.site(of: "https://login.bank.co.uk/x") == "bank.co.uk")
        #expect(Domain.site(of: "https://a.b.example.com") == "example.com")
        #expect(Domain.site(of: "example.com") == "example.com")
    }
}
