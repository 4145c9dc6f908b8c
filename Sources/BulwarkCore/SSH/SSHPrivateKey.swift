import CCrypto
import Foundation

/// An SSH key a vault entry holds (its "Private key" field), entirely
/// through OpenSSL 3: Ed25519, ECDSA on P-256 and P-384, and RSA of 2048
/// bits or more (signed with SHA-2 when the client asks, as OpenSSH's
/// clients do). Read from PKCS#8 or OpenSSL's traditional PEM, and from
/// OpenSSH's own format when it is not encrypted (`SSHOpenSSHKey`).
public final class SSHPrivateKey: @unchecked Sendable {  // the EVP_PKEY is only read after init
    public enum Kind: Equatable, Sendable {
        case ed25519
        case ecdsa(curve: String)  // "nistp256", "nistp384"
        case rsa(bits: Int)
    }

    public struct Failure: Error, Equatable, CustomStringConvertible {
        public let description: String
    }

    let key: OpaquePointer
    public let kind: Kind

    init(_ key: OpaquePointer) throws(Failure) {
        self.key = key
        switch EVP_PKEY_get_base_id(key) {
        case EVP_PKEY_ED25519: kind = .ed25519
        case EVP_PKEY_EC:
            var name = [CChar](repeating: 0, count: 32)
            _ = EVP_PKEY_get_group_name(key, &name, name.count, nil)
            switch String(cString: name) {
            case "prime256v1", "P-256": kind = .ecdsa(curve: "nistp256")
            case "secp384r1", "P-384": kind = .ecdsa(curve: "nistp384")
            default:
                EVP_PKEY_free(key)
                throw Failure(description: "an ECDSA key on \(String(cString: name)), which bulwark does not sign with (P-256 and P-384 only)")
            }
        case EVP_PKEY_RSA:
            let bits = Int(EVP_PKEY_get_bits(key))
            guard bits >= 2048 else {
                EVP_PKEY_free(key)
                throw Failure(description: "an RSA key of \(bits) bits (2048 or more are needed)")
            }
            kind = .rsa(bits: bits)
        default:
            EVP_PKEY_free(key)
            throw Failure(description: "a kind of key bulwark does not sign with (Ed25519, ECDSA P-256/384 and RSA are)")
        }
    }

    deinit { EVP_PKEY_free(key) }

    /// A new Ed25519 key from OpenSSL's CSPRNG.
    public static func generateEd25519() throws(Failure) -> SSHPrivateKey {
        guard let context = EVP_PKEY_CTX_new_from_name(nil, "ED25519", nil) else { throw Failure(description: "OpenSSL has no Ed25519") }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard EVP_PKEY_keygen_init(context) == 1, EVP_PKEY_generate(context, &key) == 1, let key else { throw Failure(description: "key generation failed") }
        return try SSHPrivateKey(key)
    }

    /// A new ECDSA key on P-256 or P-384.
    public static func generateECDSA(curve: String) throws(Failure) -> SSHPrivateKey {
        let group = curve == "nistp384" ? "P-384" : "P-256"
        guard let context = EVP_PKEY_CTX_new_from_name(nil, "EC", nil) else { throw Failure(description: "OpenSSL has no EC keys") }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard EVP_PKEY_keygen_init(context) == 1, EVP_PKEY_CTX_set_group_name(context, group) == 1,
              EVP_PKEY_generate(context, &key) == 1, let key else { throw Failure(description: "key generation failed") }
        return try SSHPrivateKey(key)
    }

    /// A key from its text as an entry keeps it: PEM (PKCS#8, or OpenSSL's
    /// traditional RSA and EC forms) or OpenSSH's format.
    public convenience init(text: String) throws(Failure) {
        let (label, der) = try Self.pem(text)
        switch label {
        case "OPENSSH PRIVATE KEY": try self.init(try SSHOpenSSHKey.read(der))
        case "ENCRYPTED PRIVATE KEY": throw Failure(description: "an encrypted PKCS#8 key (store it unencrypted in the vault: the vault encrypts it)")
        default:
            let key: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
                var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
                return d2i_AutoPrivateKey(nil, &cursor, buffer.count)
            }
            guard let key else { throw Failure(description: "not a private key OpenSSL can read") }
            try self.init(key)
        }
    }

    /// Whether the text is protected by a passphrase: OpenSSH's format with
    /// a cipher, encrypted PKCS#8, or a traditional PEM marked ENCRYPTED.
    public static func isEncrypted(_ text: String) -> Bool {
        guard let (label, der) = try? pem(text) else { return false }
        switch label {
        case "ENCRYPTED PRIVATE KEY": return true
        case "OPENSSH PRIVATE KEY":
            guard der.starts(with: SSHOpenSSHKey.magic) else { return false }
            var reader = SSHReader(Array(der.dropFirst(SSHOpenSSHKey.magic.count)))
            return reader.text().map { $0 != "none" } ?? false
        default: return text.contains("Proc-Type: 4,ENCRYPTED")
        }
    }

    /// The PEM block's label and its bytes.
    static func pem(_ text: String) throws(Failure) -> (String, [UInt8]) {
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        guard let begin = lines.firstIndex(where: { $0.hasPrefix("-----BEGIN ") && $0.hasSuffix("-----") }) else {
            throw Failure(description: "no PEM block (-----BEGIN … PRIVATE KEY-----)")
        }
        let label = String(lines[begin].dropFirst("-----BEGIN ".count).dropLast(5))
        guard let end = lines[(begin + 1)...].firstIndex(of: "-----END \(label)-----") else { throw Failure(description: "the PEM block is not closed") }
        let body = lines[(begin + 1)..<end].filter { !$0.contains(":") }.joined()
        guard let der = Data(base64Encoded: body), !der.isEmpty else { throw Failure(description: "the PEM block is not base64") }
        return (label, Array(der))
    }

    /// The key type's name on the wire ("ssh-ed25519", "ecdsa-sha2-nistp256", "ssh-rsa").
    public var typeName: String {
        switch kind {
        case .ed25519: "ssh-ed25519"
        case .ecdsa(let curve): "ecdsa-sha2-" + curve
        case .rsa: "ssh-rsa"
        }
    }

    /// The public key as SSH encodes it (what `ssh-add -L` and authorized_keys carry).
    public var publicBlob: [UInt8] {
        var out = SSHWriter()
        out.string(typeName)
        switch kind {
        case .ed25519:
            var raw = [UInt8](repeating: 0, count: 32)
            var length = raw.count
            _ = EVP_PKEY_get_raw_public_key(key, &raw, &length)
            out.string(Array(raw.prefix(length)))
        case .ecdsa(let curve):
            var point = [UInt8](repeating: 0, count: 133)
            var length = 0
            _ = EVP_PKEY_get_octet_string_param(key, "encoded-pub-key", &point, point.count, &length)
            out.string(curve)
            out.string(Array(point.prefix(length)))
        case .rsa:
            out.mpint(bignum("e"))
            out.mpint(bignum("n"))
        }
        return out.bytes
    }

    private func bignum(_ name: String) -> [UInt8] {
        var value: OpaquePointer?
        guard EVP_PKEY_get_bn_param(key, name, &value) == 1, let value else { return [] }
        defer { BN_free(value) }
        return SSHSignature.magnitude(value)
    }

    /// `TYPE BASE64 COMMENT`, as a line of authorized_keys.
    public func publicLine(comment: String) -> String {
        "\(typeName) \(Data(publicBlob).base64EncodedString())" + (comment.isEmpty ? "" : " \(comment)")
    }

    /// `SHA256:…`, as `ssh-add -l` and `ssh-keygen -l` show it.
    public var fingerprint: String { Self.fingerprint(of: publicBlob) }

    /// A public key blob's `SHA256:…` (base64 without its padding).
    static func fingerprint(of blob: [UInt8]) -> String {
        "SHA256:" + Data(Digest.sha256(blob)).base64EncodedString().replacingOccurrences(of: "=", with: "")
    }

    /// The private key as PKCS#8 PEM (how `ssh-key new` keeps it in the entry; OpenSSL and OpenSSH read it).
    public var pkcs8PEM: String {
        guard let info = EVP_PKEY2PKCS8(key) else { return "" }
        defer { PKCS8_PRIV_KEY_INFO_free(info) }
        let length = i2d_PKCS8_PRIV_KEY_INFO(info, nil)
        guard length > 0 else { return "" }
        var der = [UInt8](repeating: 0, count: Int(length))
        der.withUnsafeMutableBufferPointer { buffer in
            var cursor: UnsafeMutablePointer<UInt8>? = buffer.baseAddress
            _ = i2d_PKCS8_PRIV_KEY_INFO(info, &cursor)
        }
        let body = Data(der).base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        return "-----BEGIN PRIVATE KEY-----\n\(body)\n-----END PRIVATE KEY-----\n"
    }
}
