import BulwarkCore
import Foundation
import Testing
@testable import BulwarkUpgrades

/// Universal links (WWDC19 "What's New in Authentication", Apple's
/// applinks): a link opens in an app only when the site's file covers it
/// for that app and the app claims the domain; otherwise the website.
@Suite struct AppLinkTests {
    @Test func patternsAreWholeStringsWithStarAndQuestionMark() {
        let cases: [(String, String, Bool)] = [
            ("/a/path/*", "/a/path/", true), ("/a/path/*", "/a/path/deep/er", true), ("/a/path/*", "/a/path", false),
            ("/a/path/*", "/a/pathX/y", false), ("/a/path/*", "/b/a/path/x", false), ("/orders/?*", "/orders/", false),
            ("/orders/?*", "/orders/7", true), ("/v?/*", "/v2/x", true), ("/v?/*", "/v10/x", false), ("*", "", true),
            ("*.pdf", "/docs/a.b.pdf", true), ("*.pdf", "/docs/a.pdf.txt", false), ("/a*b*c", "/aXbYbZc", true),
        ]
        for (pattern, text, expected) in cases {
            #expect(AppLinkComponent.wildcard(pattern, text, true) == expected, "\(pattern) against \(text)")
        }
        #expect(!AppLinkComponent.wildcard("/Account/*", "/account/x", true) && AppLinkComponent.wildcard("/Account/*", "/account/x", false))
    }

    /// The file on the WWDC19 slides ("Handling multiple apps"): appID and
    /// appIDs side by side, one component; both apps are the site's.
    @Test func theSlidesFileGivesItsPathToBothApps() throws {
        let slides = #"""
        { "applinks": { "apps": [], "details": [ {
            "appID": "A1B2C3D4E5.com.example.Shiny",
            "appIDs": [ "A1B2C3D4E5.com.example.Shiny", "A1B2C3D4E5.uikitformac.com.example.Shiny" ],
            "components": [ { "/" : "/a/path/*" } ] } ] } }
        """#
        let site = try SiteAssociation.parse(Data(slides.utf8), file: "aasa")
        #expect(site.appLinkApps == ["A1B2C3D4E5.com.example.Shiny", "A1B2C3D4E5.uikitformac.com.example.Shiny"])
        func match(_ link: String) -> String? { site.appLinks[0].firstMatch(URLComponents(string: link)!)?.written }
        #expect(match("https://example.com/a/path/to/page") == #"{ "/": "/a/path/*" }"#)
        #expect(match("https://example.com/a/other") == nil && match("https://example.com/") == nil)
    }

    /// Components read in order, the first that matches decides; a query by
    /// item or as a whole, a fragment; the older `paths` with NOT, ignored
    /// when the detail has components (as Apple's are).
    @Test func componentsDecideInOrderAndOlderPathsStillRead() throws {
        let file = #"""
        { "applinks": { "details": [
            { "appIDs": ["T1.one"], "components": [
                { "/": "/help/*", "exclude": true },
                { "/": "/*", "?": { "src": "app", "id": "?*" } },
                { "/": "/doc/*", "#": "page-*" },
                { "/": "/search", "?": "q=*" },
                { "/": "/Upper/*", "caseSensitive": false } ],
              "paths": ["/never/*"] },
            { "appID": "T1.two", "paths": ["NOT /shop/cart/*", "/shop/*"] } ] } }
        """#
        let site = try SiteAssociation.parse(Data(file.utf8), file: "aasa")
        func who(_ link: String) -> String {
            let url = URLComponents(string: link)!
            for detail in site.appLinks {
                guard let rule = detail.firstMatch(url) else { continue }
                return rule.exclude ? "excluded by \(detail.appIDs[0])" : detail.appIDs[0]
            }
            return "website"
        }
        #expect(who("https://h/help/x?src=app&id=1") == "excluded by T1.one")
        #expect(who("https://h/any/where?id=7&src=app&more=1") == "T1.one")
        #expect(who("https://h/any/where?src=app") == "website")
        #expect(who("https://h/doc/1#page-3") == "T1.one" && who("https://h/doc/1#top") == "website")
        #expect(who("https://h/search?q=shoes") == "T1.one" && who("https://h/search?x=1") == "website")
        #expect(who("https://h/upper/a") == "T1.one")
        #expect(who("https://h/never/x") == "website")
        #expect(who("https://h/shop/cart/1") == "excluded by T1.two" && who("https://h/shop/hat") == "T1.two")
        #expect(throws: SiteAssociation.Invalid(file: "aasa", reason: "\"applinks.details.components\" must be a list of objects")) {
            try SiteAssociation.parse(Data(#"{"applinks": {"details": [{"appIDs": ["T.a"], "components": "/x"}]}}"#.utf8), file: "aasa")
        }
        #expect(throws: SiteAssociation.Invalid(file: "aasa", reason: "\"?\" in an applinks component must be a string or an object of strings")) {
            try SiteAssociation.parse(Data(#"{"applinks": {"details": [{"appIDs": ["T.a"], "components": [{"?": 3}]}]}}"#.utf8), file: "aasa")
        }
    }

    /// Both halves, as Apple requires: the site's rule and the app's
    /// `applinks:` claim. An app that does not claim the host leaves the
    /// link to the next detail, and at the end to the website, said why.
    @Test func aLinkOpensInTheAppOnlyWhenBothHalvesAgree() throws {
        let catalog = try ServiceCatalog.builtIn()
        func route(_ link: String) -> LinkRoute { catalog.route(link: URLComponents(string: link)!) }
        #expect(route("https://shiny.example/account/security")
                == .app(service: "shiny", name: "Shiny", appID: "SHINY00001.example.shiny",
                        because: #"shiny.example's applinks give it to SHINY00001.example.shiny ({ "/": "/account/*" }) and Shiny's app claims applinks:shiny.example"#))
        #expect(route("https://shiny.example/account/help/reset")
                == .website(because: #"shiny.example excludes it from SHINY00001.example.shiny ({ "/": "/account/help/*", "exclude": true })"#))
        #expect(route("https://shinystore.example/checkout/pay") == .website(because: #"shinystore.example excludes it from SHINY00001.example.shiny ("NOT /checkout/*")"#))
        #expect(route("https://www.shiny.example/account/x") == .website(because: "www.shiny.example serves no apple-app-site-association file"))
        #expect(route("http://shiny.example/account/x") == .website(because: "only https links are universal links"))

        // A site that lists an app whose manifest does not claim applinks for it.
        var manifest = try #require(catalog.manifests.first { $0.id == "shiny" })
        manifest.associatedDomains.removeAll { $0 == "applinks:shiny.example" }
        let unclaimed = ServiceCatalog(manifests: catalog.manifests.filter { $0.id != "shiny" } + [manifest], sites: catalog.sites, providers: [])
        #expect(unclaimed.route(link: URLComponents(string: "https://shiny.example/account/security")!)
                == .website(because: "Shiny's app does not claim applinks:shiny.example"))
        #expect(unclaimed.route(link: URLComponents(string: "https://shiny.example/nothing")!)
                == .website(because: "no rule of shiny.example's applinks covers /nothing"))
    }

    @Test func aManifestMayClaimLinksButNeedsAPasswordDomain() throws {
        func decode(_ domains: String) throws -> ServiceManifest {
            try ServiceManifest.decode(Data(#"{"id": "x", "name": "X", "appID": "ABCDE12345.x", "associatedDomains": [\#(domains)], "supportsStrongPassword": true, "supportsSignInWithApple": false, "twoFactor": "none", "behaviour": {}}"#.utf8), file: "x.json")
        }
        let manifest = try decode(#""webcredentials:x.example", "applinks:x.example", "applinks:*.links.example""#)
        #expect(manifest.domains == ["x.example"] && manifest.appLinkDomains == ["x.example", "*.links.example"])
        #expect(manifest.claimsAppLinks("x.example") && manifest.claimsAppLinks("a.links.example") && !manifest.claimsAppLinks("links.example") && !manifest.claimsAppLinks("www.x.example"))
        let refusal = ServiceManifest.Invalid(file: "x.json", reason: "\"associatedDomains\" must be webcredentials:DOMAIN entries (and applinks:DOMAIN for links)")
        #expect(throws: refusal) { try decode(#""applinks:x.example""#) }
        #expect(throws: refusal) { try decode(#""webcredentials:x.example", "links:x.example""#) }
    }
}
