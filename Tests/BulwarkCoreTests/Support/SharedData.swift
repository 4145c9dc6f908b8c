import Foundation

/// The project's shared data (../shared beside the repository): the
/// password-manager-resources quirks corpus that tests use as real-world input.
enum SharedData {
    static var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
    }

    static var quirksDirectory: URL {
        if let path = ProcessInfo.processInfo.environment["BULWARK_QUIRKS"] { return URL(fileURLWithPath: path) }
        return repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/quirks")
    }

    /// domain → passwordrules string, from the corpus.
    static func passwordRulesCorpus() throws -> [(domain: String, rules: String)] {
        let data = try Data(contentsOf: quirksDirectory.appendingPathComponent("password-rules.json"))
        let table = try JSONSerialization.jsonObject(with: data) as! [String: [String: Any]]
        return table.compactMap { domain, entry in (entry["password-rules"] as? String).map { (domain, $0) } }
            .sorted { $0.domain < $1.domain }
    }
}
