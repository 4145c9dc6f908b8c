import CArgon2
import CCrypto

/// The password key derivations other programs' files use, from system
/// libraries: PBKDF2 and HKDF from OpenSSL 3, Argon2 from Debian's
/// libargon2 (OpenSSL 3.0 has no Argon2).
public enum PasswordKDF {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// PBKDF2 with HMAC-SHA-256 (RFC 8018).
    public static func pbkdf2SHA256(password: [UInt8], salt: [UInt8], iterations: Int, length: Int = 32) throws(Failure) -> [UInt8] {
        guard (1...10_000_000).contains(iterations) else { throw Failure(description: "PBKDF2 iterations \(iterations) are out of range (1 to 10,000,000)") }
        var out = [UInt8](repeating: 0, count: length)
        // A copy with a terminating zero, so the pointer is valid even for an empty password.
        var chars = password.map { CChar(bitPattern: $0) } + [0]
        defer { for i in chars.indices { chars[i] = 0 } }
        let ok = PKCS5_PBKDF2_HMAC(chars, Int32(password.count), salt, Int32(salt.count), Int32(iterations), EVP_sha256(), Int32(length), &out)
        guard ok == 1 else { throw Failure(description: "PBKDF2 failed") }
        return out
    }

    /// HKDF-Expand with SHA-256 (RFC 5869 section 2.3): `key` is already a
    /// pseudorandom key, so there is no extract step.
    public static func hkdfExpandSHA256(key: [UInt8], info: [UInt8], length: Int = 32) throws(Failure) -> [UInt8] {
        guard let context = EVP_PKEY_CTX_new_id(EVP_PKEY_HKDF, nil) else { throw Failure(description: "OpenSSL has no HKDF") }
        defer { EVP_PKEY_CTX_free(context) }
        var out = [UInt8](repeating: 0, count: length)
        var outLength = length
        guard EVP_PKEY_derive_init(context) == 1,
              EVP_PKEY_CTX_set_hkdf_mode(context, EVP_KDF_HKDF_MODE_EXPAND_ONLY) == 1,
              EVP_PKEY_CTX_set_hkdf_md(context, EVP_sha256()) == 1,
              EVP_PKEY_CTX_set1_hkdf_key(context, key, Int32(key.count)) == 1,
              EVP_PKEY_CTX_add1_hkdf_info(context, info, Int32(info.count)) == 1,
              EVP_PKEY_derive(context, &out, &outLength) == 1, outLength == length
        else { throw Failure(description: "HKDF failed") }
        return out
    }

    public enum Argon2Type: Sendable { case argon2d, argon2id }

    /// Argon2 version 1.3 with libargon2. Memory in KiB. The bounds keep a
    /// hostile file from asking for more than 1 GiB, or more than 32 GiB of
    /// passes in all (memory times passes: about 10 s here).
    public static let argon2WorkLimitKiB = 32 << 20
    public static func argon2(_ type: Argon2Type, password: [UInt8], salt: [UInt8], iterations: Int, memoryKiB: Int, parallelism: Int,
                              length: Int = 32) throws(Failure) -> [UInt8] {
        guard (1...100).contains(iterations), (8...(1 << 20)).contains(memoryKiB), (1...64).contains(parallelism), memoryKiB >= 8 * parallelism,
              salt.count >= 8, memoryKiB * iterations <= argon2WorkLimitKiB else {
            throw Failure(description: "Argon2 parameters out of range (iterations \(iterations), memory \(memoryKiB) KiB, parallelism \(parallelism); at most 100 iterations, 1 GiB, 64 lanes, and 32 GiB of passes in all, about 10 s here)")
        }
        var out = [UInt8](repeating: 0, count: length)
        let result = password.withUnsafeBytes { pw in
            salt.withUnsafeBytes { s in
                out.withUnsafeMutableBytes { o in
                    argon2_hash(UInt32(iterations), UInt32(memoryKiB), UInt32(parallelism), pw.baseAddress, pw.count, s.baseAddress, s.count,
                                o.baseAddress, o.count, nil, 0, type == .argon2id ? Argon2_id : Argon2_d, UInt32(ARGON2_VERSION_13.rawValue))
                }
            }
        }
        guard result == Int32(ARGON2_OK.rawValue) else {
            throw Failure(description: "Argon2 failed: \(String(cString: argon2_error_message(result)))")
        }
        return out
    }
}
