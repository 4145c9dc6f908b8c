import BulwarkAssets
import Foundation

/// A website's `apple-app-site-association` file, as the mock web serves it
/// at `https://DOMAIN/.well-known/apple-app-site-association`: the site's
/// half of an association. An app's entitlement says "I am shiny.example's
/// app"; only this file, served by the site, makes it true.
public struct SiteAssociation: Sendable, Equatable {
    /// App ids (`TEAMID.bundle.id`) the site trusts with its passwords.
    public let webCredentialApps: [String]
    /// Which of the site's URLs open in which app, in the file's order.
    public let appLinks: [AppLinkDetail]
    /// App ids the site's universal links open.
    public var appLinkApps: [String] { appLinks.flatMap(\.appIDs) }

    public init(webCredentialApps: [String], appLinks: [AppLinkDetail] = []) {
        self.webCredentialApps = webCredentialApps
        self.appLinks = appLinks
    }

    /// Apple's own limit for the file.
    public static let maximumBytes = 128 * 1024

    public struct Invalid: Error, Equatable, CustomStringConvertible {
        public let file: String
        public let reason: String
        public var description: String { "\(file): \(reason)" }
    }

    public static func parse(_ data: Data, file: String) throws -> SiteAssociation {
        guard data.count <= maximumBytes else { throw Invalid(file: file, reason: "larger than 128 KiB, the most a site may serve") }
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw Invalid(file: file, reason: "not an apple-app-site-association file (a JSON object)")
        }
        var web: [String] = []
        if let section = object["webcredentials"] {
            guard let apps = (section as? [String: Any])?["apps"] as? [String] else {
                throw Invalid(file: file, reason: "\"webcredentials.apps\" must be a list of app ids")
            }
            web = apps
        }
        var links: [AppLinkDetail] = []
        if let section = object["applinks"] {
            guard let details = (section as? [String: Any])?["details"] as? [[String: Any]] else {
                throw Invalid(file: file, reason: "\"applinks.details\" must be a list of objects")
            }
            links = try details.map { try AppLinkDetail.parse($0, file: file) }
        }
        return SiteAssociation(webCredentialApps: web, appLinks: links)
    }

    /// The files the built-in mock websites serve (Assets/sites/DOMAIN.json).
    public static func builtIn() throws -> [String: SiteAssociation] {
        var sites: [String: SiteAssociation] = [:]
        for path in Assets.paths(under: "sites", suffix: ".json") {
            let domain = String(path.dropFirst("sites/".count).dropLast(".json".count))
            sites[domain] = try parse(Assets.data(path) ?? Data(), file: "Assets/" + path)
        }
        return sites
    }
}

/// Whether a manifest's claim on a domain is backed by the site's file.
public enum AssociationState: String, Sendable, Equatable {
    case verified
    /// The site serves a file that does not list the manifest's app.
    case notListed = "not-listed"
    /// The site serves no apple-app-site-association file.
    case noFile = "no-file"

    /// Why a service may not act for the domain, in a sentence's middle.
    func refusal(appID: String, domain: String) -> String? {
        switch self {
        case .verified: nil
        case .notListed: "\(domain)'s apple-app-site-association does not list \(appID)"
        case .noFile: "\(domain) serves no apple-app-site-association file"
        }
    }
}
