import Foundation

/// Where a link goes (universal links, WWDC19): to a service's app when the
/// site's `applinks` cover the URL for that app and the app claims
/// `applinks:` for the host, both halves as Apple requires; else to the website.
public enum LinkRoute: Sendable, Equatable {
    /// `because`: the site's rule that covered the URL.
    case app(service: String, name: String, appID: String, because: String)
    /// `because`: why no app takes it.
    case website(because: String)
}

extension ServiceCatalog {
    /// The route of an `https` link. The site's details are read in order
    /// and the first that covers the URL decides, as Apple's are: an
    /// excluding rule, or an app that does not claim the host, leaves the
    /// link to the details after it, and at the end to the website.
    public func route(link: URLComponents) -> LinkRoute {
        guard link.scheme?.lowercased() == "https", let host = link.host?.lowercased(), !host.isEmpty else {
            return .website(because: "only https links are universal links")
        }
        guard let site = sites[host] else { return .website(because: "\(host) serves no apple-app-site-association file") }
        guard !site.appLinks.isEmpty else { return .website(because: "\(host)'s apple-app-site-association has no applinks") }
        var passedOver: [String] = []
        for detail in site.appLinks {
            guard let rule = detail.firstMatch(link) else { continue }
            let apps = detail.appIDs.joined(separator: ", ")
            if rule.exclude {
                passedOver.append("\(host) excludes it from \(apps) (\(rule.written))")
                continue
            }
            if let manifest = manifests.first(where: { detail.appIDs.contains($0.appID) && $0.claimsAppLinks(host) }) {
                return .app(service: manifest.id, name: manifest.name, appID: manifest.appID,
                            because: "\(host)'s applinks give it to \(manifest.appID) (\(rule.written)) and \(manifest.name)'s app claims applinks:\(host)")
            }
            let known = manifests.first { detail.appIDs.contains($0.appID) }
            passedOver.append(known.map { "\($0.name)'s app does not claim applinks:\(host)" } ?? "no service here is \(apps)")
        }
        if passedOver.isEmpty { return .website(because: "no rule of \(host)'s applinks covers \(link.percentEncodedPath.isEmpty ? "/" : link.percentEncodedPath)") }
        return .website(because: passedOver.joined(separator: "; "))
    }
}
