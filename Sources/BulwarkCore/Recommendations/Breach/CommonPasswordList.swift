import CCommonPasswords

/// The built-in list of common passwords: Openwall's, zxcvbn's and
/// Django's lists joined, each lower-case word also with its first letter
/// capitalised, kept as the first 64 bits of each SHA-1 in one sorted table
/// compiled into the binary (CCommonPasswords). A hit has no breach count:
/// bulwark reads it as "on a list of the most common passwords".
public struct CommonPasswordList: Sendable {
    public static let builtIn = CommonPasswordList()

    public var name: String { BreachCorpus.builtInName }
    /// How many passwords the table holds.
    public let count: Int
    /// What each source held when the table was made.
    public let sources: [(name: String, passwords: Int)]

    nonisolated(unsafe) private static let prefixes: UnsafePointer<UInt64> = bulwark_common_password_prefixes()!

    private init() {
        count = bulwark_common_password_count()
        sources = [("Openwall", bulwark_common_password_list_sizes(0)), ("zxcvbn", bulwark_common_password_list_sizes(1)),
                   ("Django", bulwark_common_password_list_sizes(2))]
    }

    /// One line for `doctor` and the manual: what is in the list and where it came from.
    public var summary: String {
        "the built-in list of \(Warning.grouped(count)) common passwords ("
            + sources.map { "\($0.name) \(Warning.grouped($0.passwords))" }.joined(separator: ", ")
            + ", each lower-case one also capitalised)"
    }

    /// Whether a SHA-1 whose first 64 bits are `key` is on the list.
    public func contains(key: UInt64) -> Bool {
        var low = 0, high = count
        while low < high {
            let middle = (low + high) / 2, probe = Self.prefixes[middle]
            if probe == key { return true }
            if probe < key { low = middle + 1 } else { high = middle }
        }
        return false
    }

    public func contains(sha1 digest: [UInt8]) -> Bool { contains(key: PwnedPasswordsFile.key(digest)) }
}
