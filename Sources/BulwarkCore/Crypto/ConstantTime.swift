import CCrypto

/// Comparisons of secrets (signatures, MACs) that take the same time
/// wherever the first difference is: OpenSSL's CRYPTO_memcmp.
public enum ConstantTime {
    public static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        if a.isEmpty { return true }
        return a.withUnsafeBytes { x in b.withUnsafeBytes { y in CRYPTO_memcmp(x.baseAddress, y.baseAddress, a.count) == 0 } }
    }
}
