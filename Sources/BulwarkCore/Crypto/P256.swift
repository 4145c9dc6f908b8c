import CCrypto
import Foundation

/// An ECDSA key on NIST P-256 (WebAuthn's ES256, COSE algorithm -7),
/// entirely through OpenSSL 3: generation, PKCS#8 (the form Bitwarden's
/// export and every key store read), the public point, SPKI, and DER
/// signatures over SHA-256.
public final class P256PrivateKey: @unchecked Sendable {  // the EVP_PKEY is only read after init
    private let key: OpaquePointer

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    private init(_ key: OpaquePointer) { self.key = key }
    deinit { EVP_PKEY_free(key) }

    /// A fresh key from OpenSSL's CSPRNG.
    public static func generate() throws -> P256PrivateKey {
        guard let context = EVP_PKEY_CTX_new_from_name(nil, "EC", nil) else { throw Failure(description: "OpenSSL has no EC keys") }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard EVP_PKEY_keygen_init(context) == 1, EVP_PKEY_CTX_set_group_name(context, "P-256") == 1,
              EVP_PKEY_generate(context, &key) == 1, let key else { throw Failure(description: "P-256 key generation failed") }
        return P256PrivateKey(key)
    }

    /// A key from its PKCS#8 DER (PrivateKeyInfo); refused unless it is P-256.
    public convenience init(pkcs8 der: [UInt8]) throws {
        let info: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_PKCS8_PRIV_KEY_INFO(nil, &cursor, buffer.count)
        }
        guard let info else { throw Failure(description: "not a PKCS#8 private key") }
        defer { PKCS8_PRIV_KEY_INFO_free(info) }
        guard let key = EVP_PKCS82PKEY(info) else { throw Failure(description: "not a private key OpenSSL can read") }
        var name = [CChar](repeating: 0, count: 32)
        guard EVP_PKEY_get_group_name(key, &name, name.count, nil) == 1,
              String(cString: name) == "prime256v1" || String(cString: name) == "P-256" else {
            EVP_PKEY_free(key)
            throw Failure(description: "not a P-256 key")
        }
        self.init(key)
    }

    /// The private key as PKCS#8 DER.
    public var pkcs8: [UInt8] {
        guard let info = EVP_PKEY2PKCS8(key) else { preconditionFailure("OpenSSL could not encode a P-256 key") }
        defer { PKCS8_PRIV_KEY_INFO_free(info) }
        return Self.der { i2d_PKCS8_PRIV_KEY_INFO(info, $0) }
    }

    /// The public key: the uncompressed point, 0x04 ‖ x ‖ y.
    public var publicPoint: [UInt8] {
        var point = [UInt8](repeating: 0, count: 65)
        var length = 0
        guard EVP_PKEY_get_octet_string_param(key, "encoded-pub-key", &point, point.count, &length) == 1, length == 65 else {
            preconditionFailure("OpenSSL gave no uncompressed P-256 point")
        }
        return point
    }

    /// The public key as SubjectPublicKeyInfo DER (what WebAuthn's `getPublicKey()` returns).
    public var subjectPublicKeyInfo: [UInt8] { Self.der { i2d_PUBKEY(key, $0) } }

    /// ECDSA with SHA-256 over `message`, DER-encoded as WebAuthn expects.
    public func sign(_ message: [UInt8]) throws -> [UInt8] {
        guard let context = EVP_MD_CTX_new() else { throw Failure(description: "out of memory") }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestSignInit_ex(context, nil, "SHA256", nil, nil, key, nil) == 1 else { throw Failure(description: "cannot sign") }
        var length = 0
        guard EVP_DigestSign(context, nil, &length, message, message.count) == 1 else { throw Failure(description: "cannot sign") }
        var signature = [UInt8](repeating: 0, count: length)
        guard EVP_DigestSign(context, &signature, &length, message, message.count) == 1 else { throw Failure(description: "signing failed") }
        return Array(signature.prefix(length))
    }

    /// Whether `signature` (DER) is this curve's ECDSA-SHA-256 over `message` by the key whose point is `publicPoint`.
    public static func verify(_ signature: [UInt8], over message: [UInt8], publicPoint: [UInt8]) -> Bool {
        guard publicPoint.count == 65, publicPoint[0] == 4, let key = publicKey(publicPoint) else { return false }
        defer { EVP_PKEY_free(key) }
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestVerifyInit_ex(context, nil, "SHA256", nil, nil, key, nil) == 1 else { return false }
        return EVP_DigestVerify(context, signature, signature.count, message, message.count) == 1
    }

    /// EVP_PKEY_PUBLIC_KEY, a composite macro Swift does not import.
    private static let publicKeySelection = Int32(OSSL_KEYMGMT_SELECT_PUBLIC_KEY | OSSL_KEYMGMT_SELECT_DOMAIN_PARAMETERS | OSSL_KEYMGMT_SELECT_OTHER_PARAMETERS)

    /// A public key from its uncompressed point; nil when the point is not on the curve.
    private static func publicKey(_ point: [UInt8]) -> OpaquePointer? {
        guard let builder = OSSL_PARAM_BLD_new() else { return nil }
        defer { OSSL_PARAM_BLD_free(builder) }
        // The builder keeps pointers to the names and the group until to_param,
        // and the parameters keep the names' pointers: C strings that outlive both.
        let groupKey = strdup("group"), groupName = strdup("P-256"), publicKeyName = strdup("pub")
        defer { free(groupKey); free(groupName); free(publicKeyName) }
        let parameters: UnsafeMutablePointer<OSSL_PARAM>? = point.withUnsafeBytes { bytes in
            guard OSSL_PARAM_BLD_push_utf8_string(builder, groupKey, groupName, 0) == 1,
                  OSSL_PARAM_BLD_push_octet_string(builder, publicKeyName, bytes.baseAddress, bytes.count) == 1 else { return nil }
            return OSSL_PARAM_BLD_to_param(builder)
        }
        guard let parameters else { return nil }
        defer { OSSL_PARAM_free(parameters) }
        guard let context = EVP_PKEY_CTX_new_from_name(nil, "EC", nil) else { return nil }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard EVP_PKEY_fromdata_init(context) == 1, EVP_PKEY_fromdata(context, &key, publicKeySelection, parameters) == 1 else { return nil }
        return key
    }

    /// Runs an i2d_ function twice: once for the length, once into a buffer.
    private static func der(_ encode: (UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?) -> Int32) -> [UInt8] {
        let length = encode(nil)
        precondition(length > 0, "OpenSSL could not DER-encode a key")
        var bytes = [UInt8](repeating: 0, count: Int(length))
        bytes.withUnsafeMutableBufferPointer { buffer in
            var cursor: UnsafeMutablePointer<UInt8>? = buffer.baseAddress
            _ = encode(&cursor)
        }
        return bytes
    }
}
