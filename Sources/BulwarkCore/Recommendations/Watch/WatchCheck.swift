import Foundation

/// One run of `bulwark watch`: each corpus file that changed since the last
/// run (and the range answers, when asked online) walked for the watched
/// prefixes, each hash found salted and compared with the list's digests.
/// What matches and was not told before is news.
public struct WatchCheck {
    public struct Result: Sendable, Equatable {
        /// Salted digests newly found, and where.
        public var found: [String: String] = [:]
        /// Corpus files read this time (the unchanged ones are skipped).
        public var read: [String] = []
        public var skipped: [String] = []
        public var problems: [String] = []
    }

    /// A file's size and modification time: a new download changes them.
    static func stamp(_ path: String) -> String? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              let size = attributes[.size] as? Int, let modified = attributes[.modificationDate] as? Date else { return nil }
        return "\(size):\(Int(modified.timeIntervalSince1970 * 1000))"
    }

    /// The offline part: every corpus file whose stamp changed since the list's last check.
    public static func corpora(_ paths: [String], list: inout WatchList, key: [UInt8], force: Bool = false) -> Result {
        var result = Result()
        let wanted = Dictionary(grouping: list.items, by: \.prefix).mapValues { Set($0.map(\.digest)) }
        for path in paths {
            guard let stamp = stamp(path) else {
                result.problems.append("\(path): cannot be read")
                continue
            }
            if !force, list.corpora[path] == stamp {
                result.skipped.append(path)
                continue
            }
            do {
                let file = try PwnedPasswordsFile(path: path)
                for (prefix, digests) in wanted {
                    for hit in try file.range(prefix) {
                        let digest = WatchList.digest(hit.sha1, key: key)
                        if digests.contains(digest), !list.reported.contains(digest) { result.found[digest] = path }
                    }
                }
                list.corpora[path] = stamp
                result.read.append(path)
            } catch {
                result.problems.append("\(error)")
            }
        }
        return result
    }

    /// The online part: range answers (suffix → count) by prefix, as a Pwned Passwords range API gives them.
    public static func ranges(_ answers: [String: [String: Int]], list: WatchList, key: [UInt8], source: String) -> Result {
        var result = Result()
        let wanted = Set(list.items.map(\.digest))
        for (prefix, suffixes) in answers {
            for suffix in suffixes.keys {
                guard let sha1 = [UInt8](hex: prefix + suffix), sha1.count == 20 else { continue }
                let digest = WatchList.digest(sha1, key: key)
                if wanted.contains(digest), !list.reported.contains(digest) { result.found[digest] = source }
            }
        }
        return result
    }

    /// Records what was found as told, and as news until it is shown.
    public static func record(_ found: [String: String], in list: inout WatchList, now: Date) {
        guard !found.isEmpty else { return }
        list.reported.formUnion(found.keys)
        var news = list.news ?? WatchList.News(passwords: 0, since: now, corpora: [])
        news.passwords += found.count
        for corpus in Set(found.values).sorted() where !news.corpora.contains(corpus) { news.corpora.append(corpus) }
        list.news = news
    }
}
