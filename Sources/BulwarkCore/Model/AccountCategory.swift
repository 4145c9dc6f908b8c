/// What kind of account an entry is. Drives the severity of recommendations:
/// losing an e-mail or bank account costs more than losing a forum login.
public enum AccountCategory: String, Sendable, Hashable, CaseIterable, Codable {
    case email, identity, finance, government, health, work, shopping, social, other

    /// The categories whose compromise is worst; recommendations for them are raised.
    public var isSensitive: Bool {
        switch self {
        case .email, .identity, .finance, .government, .health: true
        default: false
        }
    }

    public var label: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }
}

extension String {
    /// The text as a sentence's start: its first letter capital, except
    /// the product's name, which is always written "bulwark".
    public var sentenceCased: String {
        hasPrefix("bulwark") ? self : prefix(1).uppercased() + dropFirst()
    }
}
