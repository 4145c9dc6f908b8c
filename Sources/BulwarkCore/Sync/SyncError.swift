import Foundation

/// Why a sync did not happen, each in one line with what to do. Nothing
/// local has changed when one of these is thrown.
public enum SyncError: Error, Equatable, CustomStringConvertible {
    /// The vault has no remote yet.
    case notLinked
    /// The remote is not a bulwark sync repository (or not one this bulwark reads).
    case notARepository(String)
    /// The remote holds a different vault.
    case anotherVault(String)
    /// The remote failed a check: rolled back, a file dropped, swapped, replayed or altered.
    case untrusted(String)
    /// git is missing, the host unreachable, or git refused.
    case git(String)
    /// Another machine changed the master password; this one must follow it first.
    case rekeyed
    /// Another bulwark on this machine is syncing the same vault.
    case busy

    /// A remote's URL as it may be shown: a password or token in it (`https://me:TOKEN@host/…`) hidden.
    public static func redacted(_ text: String) -> String {
        text.replacingOccurrences(of: #"://([^/@:\s]+):([^/@\s]+)@"#, with: "://$1:•••@", options: .regularExpression)
    }

    public var description: String { Self.redacted(unredacted) }

    private var unredacted: String {
        switch self {
        case .notLinked:
            "this vault is not linked to a sync remote; `bulwark sync init REMOTE` links it"
        case .notARepository(let why):
            "the remote is not a bulwark sync repository: \(why); give an empty repository or one `bulwark sync init` made"
        case .anotherVault(let why):
            "the remote holds another vault (\(why)); give this vault's remote, or an empty repository"
        case .untrusted(let why):
            "the remote failed a check and was not used: \(why). Nothing here changed; restore the remote from a machine you trust"
        case .git(let why):
            why
        case .rekeyed:
            "the master password was changed on another machine; `bulwark sync` in a terminal asks for the new one, once, and this vault follows"
        case .busy:
            "another bulwark on this machine is syncing this vault (the app, in the background?); sync again when it ends"
        }
    }
}
