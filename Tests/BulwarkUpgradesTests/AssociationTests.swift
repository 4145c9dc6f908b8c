import BulwarkCore
import Foundation
import Testing
@testable import BulwarkUpgrades

/// A service acts for a domain only when both sides agree: the manifest's
/// associated domains claim it and the site's apple-app-site-association
/// lists the manifest's app.
@Suite struct AssociationTests {
    final class ServicesDirectory {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("bulwark-assoc-\(UUID().uuidString)")
        init() throws { try FileManager.default.createDirectory(at: url.appendingPathComponent("sites"), withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(at: url) }
        func manifest(_ id: String, appID: String, domains: [String]) throws {
            let claimed = domains.map { "\"webcredentials:\($0)\"" }.joined(separator: ", ")
            let json = #"{"id": "\#(id)", "name": "\#(id.capitalized)", "appID": "\#(appID)", "associatedDomains": [\#(claimed)], "#
                + #""supportsStrongPassword": true, "supportsSignInWithApple": false, "twoFactor": "none", "behaviour": {}}"#
            try Data(json.utf8).write(to: url.appendingPathComponent("\(id).json"))
        }
        func provider(_ file: String, id: String, issuer: String, loginDomain: String) throws {
            try FileManager.default.createDirectory(at: url.appendingPathComponent("providers"), withIntermediateDirectories: true)
            let json = #"{"id": "\#(id)", "name": "Rogue ID", "issuer": "\#(issuer)", "loginDomain": "\#(loginDomain)", "secondFactor": "none", "clients": []}"#
            try Data(json.utf8).write(to: url.appendingPathComponent("providers/\(file).json"))
        }
        func site(_ domain: String, apps: [String]) throws {
            let list = apps.map { "\"\($0)\"" }.joined(separator: ", ")
            try Data(#"{"webcredentials": {"apps": [\#(list)]}}"#.utf8).write(to: url.appendingPathComponent("sites/\(domain).json"))
        }
    }

    @Test func everyBuiltInDomainIsVerifiedBySitesFile() throws {
        let catalog = try ServiceCatalog.builtIn()
        for manifest in catalog.manifests {
            for domain in manifest.domains { #expect(catalog.associationState(of: manifest, domain: domain) == .verified, "\(domain)") }
        }
        #expect(catalog.manifest(forHost: "www.shinystore.example")?.id == "shiny")
        #expect(catalog.manifest(forHost: "bank.northwind.example")?.id == "northwind-bank")
        #expect(catalog.sites["shiny.example"]?.appLinkApps == ["SHINY00001.example.shiny"])
    }

    /// A provider receives the stored password of the entry for its login
    /// domain: a provider file naming another service's domain, a domain
    /// not its issuer's, another provider's, or an id that is a path, is
    /// refused by name (it once received Northwind's password and TOTP
    /// secret, and `"id": "../../x"` wrote a database outside services/).
    @Test func aProviderGetsTheChecksAServiceGets() throws {
        func refusal(_ id: String, issuer: String, loginDomain: String) throws -> String? {
            let dir = try ServicesDirectory()
            try dir.provider("rogue", id: id, issuer: issuer, loginDomain: loginDomain)
            do {
                _ = try ServiceCatalog.load(extraDirectory: dir.url.path, demoServices: true)
                return nil
            } catch let error as ServiceManifest.Invalid {
                #expect(error.file == dir.url.appendingPathComponent("providers/rogue.json").path)
                return error.reason
            }
        }
        #expect(try refusal("rogue", issuer: "https://id.rogue.example", loginDomain: "www.northwind.example")
                == "\"loginDomain\" www.northwind.example is not the issuer's (id.rogue.example): a provider's login page is its own")
        #expect(try refusal("rogue", issuer: "https://www.northwind.example", loginDomain: "www.northwind.example")
                == "its login domain www.northwind.example is claimed by the service Northwind Bank; one domain belongs to one service or provider, so neither is loaded")
        #expect(try refusal("rogue", issuer: "https://id.nimbus.example", loginDomain: "id.nimbus.example")?
            .hasPrefix("id.nimbus.example is also") == true)
        #expect(try refusal("../../x", issuer: "https://id.rogue.example", loginDomain: "id.rogue.example") == "\"id\" must be letters, digits and hyphens")
        #expect(try refusal("rogue", issuer: "https://id.rogue.example", loginDomain: "id.rogue.example") == nil)
        #expect(try refusal("rogue", issuer: "https://rogue.example", loginDomain: "login.rogue.example") == nil)
    }

    @Test func aSecondServiceClaimingADomainIsRefusedNamingBoth() throws {
        let dir = try ServicesDirectory()
        try dir.manifest("rogue", appID: "EVIL000001.example.rogue", domains: ["rogue.example", "shiny.example"])
        #expect(throws: ServiceManifest.Invalid(file: dir.url.appendingPathComponent("rogue.json").path,
                                                reason: "claims shiny.example, which Shiny (Assets/services/shiny.json) also claims; one domain belongs to one service, so neither is loaded")) {
            try ServiceCatalog.load(extraDirectory: dir.url.path, demoServices: true)
        }
        // A wildcard that covers another service's domain is the same claim.
        let wide = try ServicesDirectory()
        try wide.manifest("wide", appID: "WIDE000001.example.wide", domains: ["*.example"])
        #expect(throws: ServiceManifest.Invalid.self) { try ServiceCatalog.load(extraDirectory: wide.url.path, demoServices: true) }
    }

    @Test func aClaimTheSiteDoesNotBackIsNotActedOn() throws {
        let dir = try ServicesDirectory()
        try dir.manifest("lonely", appID: "LONELY0001.example.lonely", domains: ["lonely.example"])
        try dir.manifest("listed", appID: "LISTED0001.example.listed", domains: ["listed.example"])
        try dir.manifest("other", appID: "OTHER00001.example.other", domains: ["other.example"])
        try dir.site("listed.example", apps: ["LISTED0001.example.listed"])
        try dir.site("other.example", apps: ["SOMEONE001.example.else"])
        let catalog = try ServiceCatalog.load(extraDirectory: dir.url.path, demoServices: true)
        let lonely = Entry(title: "Lonely", urls: ["https://lonely.example"], username: "jane", password: "p1")
        let listed = Entry(title: "Listed", urls: ["https://listed.example/login"], username: "jane", password: "p1")
        let other = Entry(title: "Other", urls: ["https://other.example"], username: "jane", password: "p1")
        #expect(catalog.availability(.strongPassword, for: lonely)
                == .unavailable("Lonely claims lonely.example, but lonely.example serves no apple-app-site-association file"))
        #expect(catalog.availability(.strongPassword, for: other)
                == .unavailable("Other claims other.example, but other.example's apple-app-site-association does not list OTHER00001.example.other"))
        #expect(catalog.availability(.strongPassword, for: listed).manifest?.id == "listed")
        #expect(catalog.manifest(forHost: "lonely.example") == nil && catalog.claim(forHost: "lonely.example")?.id == "lonely")
        #expect(catalog.passwordRules(for: "other.example") == nil)
    }

    @Test func aBuiltInSitesFileCannotBeReplaced() throws {
        let dir = try ServicesDirectory()
        try dir.site("shiny.example", apps: ["EVIL000001.example.rogue"])
        #expect(throws: ServiceManifest.Invalid(file: dir.url.appendingPathComponent("sites/shiny.example.json").path,
                                                reason: "shiny.example is a built-in website; only it serves its apple-app-site-association")) {
            try ServiceCatalog.load(extraDirectory: dir.url.path, demoServices: true)
        }
    }

    /// A manifest that replaces Shiny's under its id but with another app: the sites do not know it.
    @Test func aReplacedManifestWithAnotherAppLosesTheDomains() throws {
        let dir = try ServicesDirectory()
        try dir.manifest("shiny", appID: "EVIL000001.example.shiny", domains: ["shiny.example"])
        let catalog = try ServiceCatalog.load(extraDirectory: dir.url.path, demoServices: true)
        #expect(catalog.manifest(forHost: "shiny.example") == nil)
        #expect(catalog.associationRefusal(forHost: "shiny.example") == "Shiny claims shiny.example, but shiny.example's apple-app-site-association does not list EVIL000001.example.shiny")
    }

    @Test func sitesFilesAreCheckedLikeAnyInput() {
        #expect(throws: SiteAssociation.Invalid(file: "f", reason: "\"webcredentials.apps\" must be a list of app ids")) {
            try SiteAssociation.parse(Data(#"{"webcredentials": {"apps": "X.y"}}"#.utf8), file: "f")
        }
        #expect(throws: SiteAssociation.Invalid(file: "f", reason: "not an apple-app-site-association file (a JSON object)")) {
            try SiteAssociation.parse(Data("[]".utf8), file: "f")
        }
        #expect(throws: SiteAssociation.Invalid(file: "f", reason: "larger than 128 KiB, the most a site may serve")) {
            try SiteAssociation.parse(Data(repeating: 0x20, count: 128 * 1024 + 1), file: "f")
        }
    }

    /// Chirp binds its codes to chirp.example; the same app's chirp-login.example may fill them.
    @Test func aBoundCodeIsOfferedOnEveryVerifiedDomainOfTheApp() throws {
        let f = try UpgradeFixture()
        try f.world.inbox.deliver(from: "Chirp", body: "Your Chirp code is 123456.\n\n@chirp.example #123456")
        #expect(try f.world.inbox.latestCode(forSites: f.world.catalog.codeSites(for: "chirp-login.example")) == "123456")
        #expect(try f.world.inbox.latestCode(forSites: f.world.catalog.codeSites(for: "shiny.example")) == nil)
    }

    @Test func aServiceIdentifierIsADomainOrAURL() {
        #expect(ServiceIdentifier(url: "https://WWW.Shiny.example:443/login?next=/").domain == "www.shiny.example")
        #expect(ServiceIdentifier(url: "https://shiny.example/login").type == .url)
        #expect(ServiceIdentifier(domain: "shiny.example").type == .domain)
    }
}
