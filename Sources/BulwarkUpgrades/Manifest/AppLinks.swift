import Foundation

/// The `applinks` half of a site's apple-app-site-association file: which
/// of the site's URLs open in which app (universal links). Each detail
/// names its apps and the URLs they take, as `components` (iOS 13 and
/// later: `/` path, `?` query as a pattern or by item, `#` fragment,
/// `exclude`, `caseSensitive`) or as the older `paths` (`NOT ` excludes);
/// a detail with `components` is read by them alone, as Apple's are.
/// Patterns are whole-string: `*` is any run of characters, `?` any one.
public struct AppLinkDetail: Sendable, Equatable {
    public var appIDs: [String]
    public var components: [AppLinkComponent]

    /// The first component that matches the URL, in the file's order; nil when none does.
    public func firstMatch(_ url: URLComponents) -> AppLinkComponent? { components.first { $0.matches(url) } }

    static func parse(_ detail: [String: Any], file: String) throws -> AppLinkDetail {
        let ids: [String]
        if let list = detail["appIDs"] as? [String] { ids = list } else if let id = detail["appID"] as? String { ids = [id] } else {
            throw SiteAssociation.Invalid(file: file, reason: "each \"applinks.details\" object needs \"appIDs\"")
        }
        if let list = detail["components"] {
            guard let components = list as? [[String: Any]] else {
                throw SiteAssociation.Invalid(file: file, reason: "\"applinks.details.components\" must be a list of objects")
            }
            return AppLinkDetail(appIDs: ids, components: try components.map { try AppLinkComponent.parse($0, file: file) })
        }
        if let list = detail["paths"] {
            guard let paths = list as? [String] else { throw SiteAssociation.Invalid(file: file, reason: "\"applinks.details.paths\" must be a list of strings") }
            return AppLinkDetail(appIDs: ids, components: paths.map(AppLinkComponent.init(legacyPath:)))
        }
        return AppLinkDetail(appIDs: ids, components: [])
    }
}

/// One rule of a detail: the parts of a URL it looks at; a part it does not name matches anything.
public struct AppLinkComponent: Sendable, Equatable {
    public var path: String?
    /// The query as one pattern (`"?": "…"`), or by item: each named item
    /// must be there with a value its pattern matches; others are ignored.
    public enum Query: Sendable, Equatable { case whole(String), items([String: String]) }
    public var query: Query?
    public var fragment: String?
    public var exclude = false
    public var caseSensitive = true
    /// The rule as the file writes it, for saying which one decided.
    public var written: String

    public init(path: String?, query: Query? = nil, fragment: String? = nil, exclude: Bool = false, caseSensitive: Bool = true, written: String) {
        self.path = path
        self.query = query
        self.fragment = fragment
        self.exclude = exclude
        self.caseSensitive = caseSensitive
        self.written = written
    }

    /// A `paths` string: `NOT /private/*` excludes, anything else is a path pattern.
    init(legacyPath: String) {
        let excluded = legacyPath.hasPrefix("NOT ")
        self.init(path: excluded ? String(legacyPath.dropFirst(4)) : legacyPath, exclude: excluded, written: "\"\(legacyPath)\"")
    }

    static func parse(_ object: [String: Any], file: String) throws -> AppLinkComponent {
        func text(_ key: String) throws -> String? {
            guard let value = object[key] else { return nil }
            guard let string = value as? String else { throw SiteAssociation.Invalid(file: file, reason: "\"\(key)\" in an applinks component must be a string") }
            return string
        }
        var query: Query?
        if let value = object["?"] {
            if let pattern = value as? String { query = .whole(pattern) } else if let items = value as? [String: String] { query = .items(items) } else {
                throw SiteAssociation.Invalid(file: file, reason: "\"?\" in an applinks component must be a string or an object of strings")
            }
        }
        let parts = ["/", "?", "#"].filter { object[$0] != nil }.map { key in "\"\(key)\": \(describe(object[key]))" }
        let exclude = object["exclude"] as? Bool ?? false
        return AppLinkComponent(path: try text("/"), query: query, fragment: try text("#"), exclude: exclude,
                                caseSensitive: object["caseSensitive"] as? Bool ?? true,
                                written: "{ " + (parts.isEmpty ? "any URL" : parts.joined(separator: ", ")) + (exclude ? ", \"exclude\": true" : "") + " }")
    }

    private static func describe(_ value: Any?) -> String {
        if let text = value as? String { return "\"\(text)\"" }
        if let items = value as? [String: String] { return "{ " + items.keys.sorted().map { "\"\($0)\": \"\(items[$0]!)\"" }.joined(separator: ", ") + " }" }
        return "…"
    }

    /// Whether every part the rule names matches the URL's (percent-encoded, as sent).
    public func matches(_ url: URLComponents) -> Bool {
        if let path, !Self.wildcard(path, url.percentEncodedPath.isEmpty ? "/" : url.percentEncodedPath, caseSensitive) { return false }
        switch query {
        case nil: break
        case .whole(let pattern): if !Self.wildcard(pattern, url.percentEncodedQuery ?? "", caseSensitive) { return false }
        case .items(let wanted):
            let items = url.queryItems ?? []
            for (name, pattern) in wanted where !items.contains(where: { $0.name == name && Self.wildcard(pattern, $0.value ?? "", caseSensitive) }) { return false }
        }
        if let fragment, !Self.wildcard(fragment, url.percentEncodedFragment ?? "", caseSensitive) { return false }
        return true
    }

    /// `*` any run of characters (none included), `?` exactly one; the whole of `text`.
    static func wildcard(_ pattern: String, _ text: String, _ caseSensitive: Bool) -> Bool {
        let p = Array(caseSensitive ? pattern : pattern.lowercased()), t = Array(caseSensitive ? text : text.lowercased())
        var pi = 0, ti = 0, star: Int?, resume = 0
        while ti < t.count {
            if pi < p.count, p[pi] == "?" || (p[pi] != "*" && p[pi] == t[ti]) {
                pi += 1
                ti += 1
            } else if pi < p.count, p[pi] == "*" {
                star = pi
                resume = ti
                pi += 1
            } else if let at = star {
                pi = at + 1
                resume += 1
                ti = resume
            } else {
                return false
            }
        }
        while pi < p.count, p[pi] == "*" { pi += 1 }
        return pi == p.count
    }
}
