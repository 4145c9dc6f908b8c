import CCrypto

/// HMAC from OpenSSL 3 (EVP_Q_mac), with the digests verification codes use.
public enum HMACDigest: String, Sendable, CaseIterable {
    case sha1 = "SHA1", sha256 = "SHA256", sha512 = "SHA512"

    var outputSize: Int {
        switch self {
        case .sha1: 20
        case .sha256: 32
        case .sha512: 64
        }
    }
}

public enum HMAC {
    public static func authenticate(_ message: [UInt8], key: [UInt8], digest: HMACDigest) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: digest.outputSize)
        var length = 0
        let result = digest.rawValue.withCString { name in
            EVP_Q_mac(nil, "HMAC", nil, name, nil, key, key.count, message, message.count, &out, out.count, &length)
        }
        // EVP_Q_mac fails only when OpenSSL itself is broken (no HMAC, no digest).
        precondition(result != nil && length == digest.outputSize, "OpenSSL HMAC-\(digest.rawValue) failed")
        return out
    }
}
