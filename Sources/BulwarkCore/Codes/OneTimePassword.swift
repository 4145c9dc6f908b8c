/// HOTP (RFC 4226) and TOTP (RFC 6238).
public enum OneTimePassword {
    /// The code for one counter value: HMAC, dynamic truncation, then the
    /// low `digits` decimal digits, zero-padded.
    public static func hotp(secret: [UInt8], counter: UInt64, digits: Int = 6, digest: HMACDigest = .sha1) -> String {
        let binary = truncated(secret: secret, counter: counter, digest: digest)
        var modulus: UInt32 = 1
        for _ in 0..<digits { modulus *= 10 }
        let value = String(binary % modulus)
        return String(repeating: "0", count: max(0, digits - value.count)) + value
    }

    /// Steam Guard's code: the same 31-bit truncation as HOTP, written as
    /// five characters of Steam's alphabet, least significant first.
    public static func steam(secret: [UInt8], counter: UInt64, digest: HMACDigest = .sha1) -> String {
        var value = truncated(secret: secret, counter: counter, digest: digest)
        var code = ""
        for _ in 0..<steamLength {
            code.append(steamAlphabet[Int(value % UInt32(steamAlphabet.count))])
            value /= UInt32(steamAlphabet.count)
        }
        return code
    }

    public static let steamLength = 5
    static let steamAlphabet = Array("23456789BCDFGHJKMNPQRTVWXY")

    /// RFC 4226's dynamic truncation: 31 bits of the counter's HMAC.
    static func truncated(secret: [UInt8], counter: UInt64, digest: HMACDigest) -> UInt32 {
        let message = (0..<8).map { UInt8(truncatingIfNeeded: counter >> UInt64(56 - 8 * $0)) }
        let mac = HMAC.authenticate(message, key: secret, digest: digest)
        let offset = Int(mac[mac.count - 1] & 0x0F)
        return (UInt32(mac[offset] & 0x7F) << 24) | (UInt32(mac[offset + 1]) << 16)
            | (UInt32(mac[offset + 2]) << 8) | UInt32(mac[offset + 3])
    }

    /// The TOTP time step for a moment (seconds since 1970), T0 = 0.
    public static func timeStep(at unixSeconds: Int64, period: Int) -> UInt64 {
        UInt64(max(0, unixSeconds) / Int64(period))
    }

    public static func totp(secret: [UInt8], at unixSeconds: Int64, period: Int = 30, digits: Int = 6,
                            digest: HMACDigest = .sha1) -> String {
        hotp(secret: secret, counter: timeStep(at: unixSeconds, period: period), digits: digits, digest: digest)
    }

    /// Seconds until the code shown at `unixSeconds` changes.
    public static func secondsRemaining(at unixSeconds: Int64, period: Int) -> Int {
        period - Int(max(0, unixSeconds) % Int64(period))
    }
}
