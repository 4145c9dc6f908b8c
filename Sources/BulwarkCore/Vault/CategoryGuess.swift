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

    /// Each keyword by its first byte, with its category's place in
    /// `keywords`: the title and sites are read once, every keyword that
    /// starts at a byte tried there (sixty searches of each entry's text
    /// were 7 % of an Enpass import), and the earliest category found wins,
    /// as a search of the categories in turn would find it.
    private static let byFirstByte: [[(word: [UInt8], rank: Int)]] = {
        var table = Array(repeating: [(word: [UInt8], rank: Int)](), count: 256)
        for (rank, (_, words)) in keywords.enumerated() {
            for word in words { table[Int(word.utf8.first!)].append((Array(word.utf8), rank)) }
        }
        return table
    }()

    /// Keywords are ASCII, so they are searched for in the UTF-8 bytes
    /// (Foundation's string search took most of an import's time).
    public static func guess(title: String, urls: [String]) -> AccountCategory {
        var haystack: [UInt8] = []
        haystack.reserveCapacity(title.utf8.count + urls.count * 24)
        appendLowercased(title, to: &haystack)
        for url in urls {
            haystack.append(UInt8(ascii: " "))
            appendLowercased(Domain.normalize(url), to: &haystack)
        }
        var best = keywords.count
        haystack.withUnsafeBufferPointer { text in
            for at in text.indices {
                for (word, rank) in byFirstByte[Int(text[at])] where rank < best && at + word.count <= text.count {
                    if word.indices.allSatisfy({ text[at + $0] == word[$0] }) { best = rank }
                }
            }
        }
        return best < keywords.count ? keywords[best].0 : .other
    }

    /// ASCII lowered byte by byte; anything else as Swift lowers it (a
    /// letter may lower to an ASCII one: the Kelvin sign to k).
    private static func appendLowercased(_ text: String, to bytes: inout [UInt8]) {
        guard text.utf8.allSatisfy({ $0 < 0x80 }) else {
            bytes.append(contentsOf: text.lowercased().utf8)
            return
        }
        for byte in text.utf8 { bytes.append(byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte) }
    }
}
