import BulwarkCore

/// A search's field words, as KeePassXC has them: `title:bank`,
/// `user:jane`, `url:example.com`, `tag:work` each keep only the entries
/// whose field holds the text (case aside); the other words are searched
/// as usual among those.
struct SearchPrefixes {
    private(set) var title: [String] = []
    private(set) var user: [String] = []
    private(set) var url: [String] = []
    private(set) var tag: [String] = []
    /// The words without a prefix, lower-cased, space-separated.
    private(set) var rest = ""

    static let prefixes = ["title:", "user:", "url:", "tag:"]

    init(_ query: String) {
        var plain: [Substring] = []
        for word in query.lowercased().split(separator: " ") {
            if word.hasPrefix("title:"), word.count > 6 { title.append(String(word.dropFirst(6))) }
            else if word.hasPrefix("user:"), word.count > 5 { user.append(String(word.dropFirst(5))) }
            else if word.hasPrefix("url:"), word.count > 4 { url.append(String(word.dropFirst(4))) }
            else if word.hasPrefix("tag:"), word.count > 4 { tag.append(String(word.dropFirst(4))) }
            else if !Self.prefixes.contains(String(word)) { plain.append(word) }  // a bare "user:" being typed narrows nothing yet
        }
        rest = plain.joined(separator: " ")
    }

    var isEmpty: Bool { title.isEmpty && user.isEmpty && url.isEmpty && tag.isEmpty }

    func admits(_ entry: Entry) -> Bool {
        func holds(_ text: String, _ word: String) -> Bool { text.lowercased().contains(word) }
        return title.allSatisfy { holds(entry.title, $0) }
            && user.allSatisfy { holds(entry.username, $0) }
            && url.allSatisfy { word in entry.urls.contains { holds($0, word) } }
            && tag.allSatisfy { word in entry.tags.contains { holds($0, word) } }
    }
}
