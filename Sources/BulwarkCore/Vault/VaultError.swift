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
    /// Another process held the vault's write lock past the busy timeout.
    case busy
    /// The entry's row moved on (or went) since this edit was based on it.
    case conflict(title: String, deleted: Bool)
    /// Another process changed the master password, and with it the key.
    case keyChanged

    public var description: String {
        switch self {
        case .wrongPassword: "wrong master password; nothing was changed."
        case .damaged(let detail): "vault damaged: \(detail). Nothing was changed."
        case .notFound(let path): "no vault at \(path). Create one with 'bulwark init'."
        case .alreadyExists(let path): "a vault already exists at \(path); nothing was changed."
        case .newerFormat(let version): "this vault was written by a newer bulwark (format \(version)); upgrade bulwark to open it."
        case .locked: "the vault is locked."
        case .entryNotFound(let name): "no entry matches '\(name)'."
        case .ambiguousEntry(let name, let titles): "'\(name)' matches \(titles.count) entries (\(titles.joined(separator: ", "))); use the id."
        case .storage(let detail): "cannot write the vault: \(detail)."
        case .busy:
            "another bulwark kept the vault busy for more than \(SQLiteDatabase.busyTimeoutMilliseconds / 1000) s; nothing was changed. Try again."
        case .conflict(let title, let deleted):
            "'\(title)' was \(deleted ? "deleted" : "changed") by another bulwark since it was read; nothing was changed."
        case .keyChanged: "the master password was changed by another bulwark; nothing was changed. Open the vault again with the new one."
        }
    }

    /// A SQLite failure: a lock held too long is busy, a damaged file is
    /// damage, anything else is the surroundings (permissions, a full disk).
    init(_ failure: SQLiteDatabase.Failure, whileReading damage: String) {
        if failure.isBusy { self = .busy } else if failure.isDamage { self = .damaged(damage) } else { self = .storage(failure.message) }
    }
}
