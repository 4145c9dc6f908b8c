/// A one-time code bound to a domain by the last line of its SMS:
/// `@shiny.example #123456`, or `@shop.example #123456 %pay.example` for a
/// code meant for pay.example embedded in shop.example.
public struct DomainBoundCode: Sendable, Equatable {
    public let domain: String
    public let code: String
    public let embeddedDomain: String?

    /// Reads the message's last non-empty line. Nil when it is not a
    /// domain binding: then the message offers no code to fill.
    public static func parse(message: String) -> DomainBoundCode? {
        let lines = message.split(omittingEmptySubsequences: true) { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
        guard let last = lines.last else { return nil }
        let tokens = last.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard tokens.count == 2 || tokens.count == 3 else { return nil }
        guard tokens[0].hasPrefix("@"), tokens[1].hasPrefix("#") else { return nil }
        let domain = String(tokens[0].dropFirst()).lowercased()
        let code = String(tokens[1].dropFirst())
        guard isHost(domain), !code.isEmpty, code.count <= 32 else { return nil }
        var embedded: String?
        if tokens.count == 3 {
            guard tokens[2].hasPrefix("%") else { return nil }
            embedded = String(tokens[2].dropFirst()).lowercased()
            guard isHost(embedded!) else { return nil }
        }
        return DomainBoundCode(domain: domain, code: code, embeddedDomain: embedded)
    }

    /// Whether to offer this code when signing in to `site` (and, for an
    /// embedded sign-in, with `embeddedSite` inside it). The rule: the site
    /// is the bound domain itself or one of its subdomains
    /// (`login.shiny.example` for `@shiny.example`), never a parent, a
    /// sibling or a lookalike (`shiny.example.evil.example`). A code bound
    /// with `%` is offered only to that embedded site inside that top-level site.
    public func isOffered(forSite site: String, embeddedSite: String? = nil) -> Bool {
        guard DomainBoundCode.covers(domain, Domain.normalize(site)) else { return false }
        switch (embeddedDomain, embeddedSite) {
        case (nil, nil): return true
        case (let bound?, let actual?): return DomainBoundCode.covers(bound, Domain.normalize(actual))
        default: return false
        }
    }

    static func covers(_ bound: String, _ host: String) -> Bool {
        host == bound || host.hasSuffix("." + bound)
    }

    static func isHost(_ text: String) -> Bool {
        let labels = text.split(separator: ".", omittingEmptySubsequences: false)
        return labels.count >= 2 && labels.allSatisfy { label in
            !label.isEmpty && label.count <= 63 && !label.hasPrefix("-") && !label.hasSuffix("-")
                && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
        }
    }
}
