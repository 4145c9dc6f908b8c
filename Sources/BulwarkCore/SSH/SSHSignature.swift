import CCrypto
import Foundation

/// Signatures as SSH agents answer them (RFC 8709 Ed25519, RFC 5656
/// ECDSA, RFC 8332 RSA with SHA-2): the blob's algorithm name, then the
/// signature in that algorithm's own encoding.
public enum SSHSignature {
    /// The agent's flags for RSA (draft-miller-ssh-agent §4.5.1).
    public static let rsaSHA256: UInt32 = 2, rsaSHA512: UInt32 = 4

    public static func sign(_ data: [UInt8], with key: SSHPrivateKey, flags: UInt32) throws(SSHPrivateKey.Failure) -> [UInt8] {
        let (name, digest): (String, String?) = switch key.kind {
        case .ed25519: ("ssh-ed25519", nil)
        case .ecdsa(let curve): (key.typeName, curve == "nistp384" ? "SHA384" : "SHA256")
        case .rsa:
            flags & rsaSHA512 != 0 ? ("rsa-sha2-512", "SHA512") : flags & rsaSHA256 != 0 ? ("rsa-sha2-256", "SHA256") : ("ssh-rsa", "SHA1")
        }
        let raw = try rawSignature(data, key: key.key, digest: digest)
        var out = SSHWriter()
        out.string(name)
        if case .ecdsa = key.kind {
            out.string(try ecdsaRS(raw))
        } else {
            out.string(raw)
        }
        return out.bytes
    }

    private static func rawSignature(_ data: [UInt8], key: OpaquePointer, digest: String?) throws(SSHPrivateKey.Failure) -> [UInt8] {
        guard let context = EVP_MD_CTX_new() else { throw SSHPrivateKey.Failure(description: "out of memory") }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestSignInit_ex(context, nil, digest, nil, nil, key, nil) == 1 else { throw SSHPrivateKey.Failure(description: "cannot sign with this key") }
        var length = 0
        guard EVP_DigestSign(context, nil, &length, data, data.count) == 1 else { throw SSHPrivateKey.Failure(description: "cannot sign") }
        var signature = [UInt8](repeating: 0, count: length)
        guard EVP_DigestSign(context, &signature, &length, data, data.count) == 1 else { throw SSHPrivateKey.Failure(description: "signing failed") }
        return Array(signature.prefix(length))
    }

    /// OpenSSL's DER ECDSA-Sig-Value as SSH writes it: mpint r, mpint s.
    private static func ecdsaRS(_ der: [UInt8]) throws(SSHPrivateKey.Failure) -> [UInt8] {
        let signature: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_ECDSA_SIG(nil, &cursor, buffer.count)
        }
        guard let signature else { throw SSHPrivateKey.Failure(description: "OpenSSL gave no ECDSA signature") }
        defer { ECDSA_SIG_free(signature) }
        var out = SSHWriter()
        out.mpint(magnitude(ECDSA_SIG_get0_r(signature)))
        out.mpint(magnitude(ECDSA_SIG_get0_s(signature)))
        return out.bytes
    }

    static func magnitude(_ number: OpaquePointer?) -> [UInt8] {
        guard let number else { return [] }
        var bytes = [UInt8](repeating: 0, count: Int((BN_num_bits(number) + 7) / 8))
        _ = BN_bn2bin(number, &bytes)
        return bytes
    }
}
