/// What can go wrong with a vault, each with a message a person can act on.
/// No message ever contains a password or an entry's secret.
public enum VaultError: Error, Equatable, CustomStringConvertible {
    case wrongPassword
    case damaged(String)
    case notFound(String)
    case alreadyExists(String)
    case newerFormat(Int)
    case locked
    case entryNotFound(String)
    case ambiguousEntry(String, [String])
    case storage(String)

    public var description: String {
        switch self {
        case .wrongPassword: "wrong master password; nothing was changed."
        case .damaged(let detail): "vault damaged: \(detail). Nothing was changed; restore the file from a backup."
        case .notFound(let path): "no vault at \(path). Create one with 'bulwark init'."
        case .alreadyExists(let path): "a vault already exists at \(path); nothing was changed."
        case .newerFormat(let version): "this vault was written by a newer bulwark (format \(version)); upgrade bulwark to open it."
        case .locked: "the vault is locked."
        case .entryNotFound(let name): "no entry matches '\(name)'."
        case .ambiguousEntry(let name, let titles): "'\(name)' matches \(titles.count) entries (\(titles.joined(separator: ", "))); use the id."
        case .storage(let detail): "cannot write the vault: \(detail)."
        }
    }
}
