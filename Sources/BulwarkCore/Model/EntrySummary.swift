/// What a list row needs to know about an entry: no secrets.
public struct EntrySummary: Sendable, Hashable, Identifiable {
    public var id: String
    public var title: String
    public var username: String
    public var site: String
    public var category: AccountCategory
    public var tags: [String]

    public init(id: String, title: String, username: String, site: String,
                category: AccountCategory, tags: [String] = []) {
        self.id = id
        self.title = title
        self.username = username
        self.site = site
        self.category = category
        self.tags = tags
    }
}
