/// A number for a user name, the same for every way of writing one
/// account's name: an e-mail address in any case, any name with spaces or
/// tabs around it. Each entry keeps its name's number, made when its texts
/// are, so that a password change finds the account's other entries by
/// comparing numbers (at 100,000 entries, comparing the names themselves
/// took most of the change). Different numbers: different accounts; the
/// same: the names are compared (`AccountEntries.sameUser`).
///
/// A name with bytes outside ASCII has `unknown`: Unicode's spaces and
/// cases are left to the comparison of Strings.
public enum UserNameKey {
    public static let unknown: UInt32 = 0

    /// FNV-1a over the name trimmed of spaces and tabs, its letters
    /// lowered when it is an e-mail address (an @ after its first
    /// character), as `AccountEntries.normalizedUser` makes it. Not a
    /// secret nor a defence, only a quick inequality: kept in memory, never written.
    public static func of(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
        if bytes.contains(where: { $0 >= 0x80 }) { return unknown }
        var start = 0, end = bytes.count
        while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
        while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
        var email = false
        if end - start > 1 {
            for at in (start + 1)..<end where bytes[at] == 0x40 { email = true; break }
        }
        var hash: UInt32 = 0x811C_9DC5
        for at in start..<end {
            var byte = bytes[at]
            if email, byte >= 0x41, byte <= 0x5A { byte += 0x20 }
            hash = (hash ^ UInt32(byte)) &* 0x0100_0193
        }
        return hash == unknown ? 1 : hash
    }

    public static func of(_ name: String) -> UInt32 {
        var name = name
        return name.withUTF8 { of($0) }
    }
}
