import Foundation

/// Guesses an account's category from its title and site, so that severity
/// can be raised for e-mail, identity, finance, government and health
/// accounts without anyone filling in a field. A person can override it.
public enum CategoryGuess {
    static let keywords: [(AccountCategory, [String])] = [
        (.government, ["gov", "tax", "irs", "hmrc", "dmv", "passport", "census", "council"]),
        (.health, ["health", "clinic", "medical", "hospital", "pharmacy", "doctor", "dental", "patient", "nhs"]),
        (.finance, ["bank", "pay", "credit", "card", "finance", "invest", "broker", "wallet", "loan", "insurance", "crypto", "tax"]),
        (.email, ["mail", "inbox", "outlook", "proton"]),
        (.identity, ["id.", "identity", "sso", "login.", "accounts.", "auth", "apple", "icloud", "sign-in"]),
        (.work, ["corp", "work", "slack", "jira", "intranet", "vpn", "hr."]),
        (.social, ["social", "chat", "forum", "chirp", "friends", "photo", "dating", "community"]),
        (.shopping, ["shop", "store", "market", "grocer", "cart", "buy", "deal", "order"]),
    ]

    private static let keywordBytes = keywords.map { ($0.0, $0.1.map { Array($0.utf8) }) }

    /// Keywords are ASCII, so they are searched for in the UTF-8 bytes
    /// (Foundation's string search took most of an import's time).
    public static func guess(title: String, urls: [String]) -> AccountCategory {
        let haystack = Array(([title] + urls.map(Domain.normalize)).joined(separator: " ").lowercased().utf8)
        for (category, words) in keywordBytes where words.contains(where: { ByteSearch.contains(haystack, $0) }) { return category }
        return .other
    }
}
