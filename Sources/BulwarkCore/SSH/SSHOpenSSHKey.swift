import CCrypto
import Foundation

/// OpenSSH's own private key format ("openssh-key-v1", PROTOCOL.key in
/// OpenSSH's sources), when it is not encrypted: the key pairs OpenSSH
/// writes for Ed25519, ECDSA and RSA, made into OpenSSL keys. An
/// encrypted one needs bcrypt-pbkdf, which OpenSSL does not have: here it
/// is refused with the way out; `bulwark ssh-key import` has the person's
/// own ssh-keygen open it first (`SSHKeyDecryption` in the executable).
enum SSHOpenSSHKey {
    static let magic = Array("openssh-key-v1".utf8) + [0]

    static func read(_ bytes: [UInt8]) throws(SSHPrivateKey.Failure) -> OpaquePointer {
        func fail(_ text: String) -> SSHPrivateKey.Failure { SSHPrivateKey.Failure(description: text) }
        guard bytes.starts(with: magic) else { throw fail("not an OpenSSH private key") }
        var reader = SSHReader(Array(bytes.dropFirst(magic.count)))
        guard let cipher = reader.text(), let kdf = reader.text(), reader.string() != nil, let count = reader.uint32() else { throw fail("an OpenSSH key cut short") }
        guard cipher == "none", kdf == "none" else {
            throw fail("an OpenSSH key encrypted with \(cipher) (ssh-keygen -p -N '' on a copy stores it unencrypted; the vault encrypts it)")
        }
        guard count == 1, reader.string() != nil, let secret = reader.string() else { throw fail("an OpenSSH file of \(count) keys (one is read)") }
        var inner = SSHReader(secret)
        guard let check1 = inner.uint32(), let check2 = inner.uint32(), check1 == check2, let type = inner.text() else { throw fail("an OpenSSH key whose check numbers differ") }
        switch type {
        case "ssh-ed25519":
            guard inner.string()?.count == 32, let both = inner.string(), both.count == 64 else { throw fail("an Ed25519 key of the wrong size") }
            guard let key = EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, nil, Array(both.prefix(32)), 32) else { throw fail("OpenSSL refused the Ed25519 key") }
            return key
        case "ecdsa-sha2-nistp256", "ecdsa-sha2-nistp384":
            guard let curve = inner.text(), let point = inner.string(), let secret = inner.mpint() else { throw fail("an ECDSA key cut short") }
            let group = curve == "nistp384" ? "P-384" : "P-256"
            return try fromData("EC") { $0.utf8("group", group) && $0.octets("pub", point) && $0.bignum("priv", secret) }
        case "ssh-rsa":
            guard let n = inner.mpint(), let e = inner.mpint(), let d = inner.mpint(), let iqmp = inner.mpint(), let p = inner.mpint(), let q = inner.mpint() else {
                throw fail("an RSA key cut short")
            }
            let (dp, dq) = crtExponents(d: d, p: p, q: q)
            return try fromData("RSA") { built in
                built.bignum("n", n) && built.bignum("e", e) && built.bignum("d", d) && built.bignum("rsa-factor1", p) && built.bignum("rsa-factor2", q)
                    && built.bignum("rsa-exponent1", dp) && built.bignum("rsa-exponent2", dq) && built.bignum("rsa-coefficient1", iqmp)
            }
        default:
            throw fail("an OpenSSH key of type \(type.prefix(40)), which bulwark does not sign with")
        }
    }

    /// EVP_PKEY_KEYPAIR, a composite macro Swift does not import.
    private static let keyPair = Int32(OSSL_KEYMGMT_SELECT_DOMAIN_PARAMETERS | OSSL_KEYMGMT_SELECT_OTHER_PARAMETERS
                                       | OSSL_KEYMGMT_SELECT_PRIVATE_KEY | OSSL_KEYMGMT_SELECT_PUBLIC_KEY)

    /// The key made from the parameters `fill` pushes.
    private static func fromData(_ algorithm: String, _ fill: (Parameters) -> Bool) throws(SSHPrivateKey.Failure) -> OpaquePointer {
        guard let built = Parameters() else { throw SSHPrivateKey.Failure(description: "out of memory") }
        guard fill(built), let parameters = OSSL_PARAM_BLD_to_param(built.builder) else { throw SSHPrivateKey.Failure(description: "OpenSSL refused the key's numbers") }
        defer { OSSL_PARAM_free(parameters) }
        guard let context = EVP_PKEY_CTX_new_from_name(nil, algorithm, nil) else { throw SSHPrivateKey.Failure(description: "OpenSSL has no \(algorithm)") }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard EVP_PKEY_fromdata_init(context) == 1, EVP_PKEY_fromdata(context, &key, keyPair, parameters) == 1, let key else {
            throw SSHPrivateKey.Failure(description: "OpenSSL refused the \(algorithm) key")
        }
        return key
    }

    /// An OSSL_PARAM builder and what it points at until its parameters are made (names, values, bignums; secrets cleared).
    final class Parameters {
        let builder: OpaquePointer
        private var strings: [UnsafeMutablePointer<CChar>] = []
        private var numbers: [OpaquePointer] = []

        init?() {
            guard let builder = OSSL_PARAM_BLD_new() else { return nil }
            self.builder = builder
        }

        deinit {
            OSSL_PARAM_BLD_free(builder)
            strings.forEach { free($0) }
            numbers.forEach { BN_clear_free($0) }
        }

        private func keep(_ text: String) -> UnsafeMutablePointer<CChar> {
            let copy = strdup(text)!
            strings.append(copy)
            return copy
        }

        func utf8(_ key: String, _ value: String) -> Bool { OSSL_PARAM_BLD_push_utf8_string(builder, keep(key), keep(value), 0) == 1 }

        func octets(_ key: String, _ value: [UInt8]) -> Bool {
            let name = keep(key)
            return value.withUnsafeBytes { OSSL_PARAM_BLD_push_octet_string(builder, name, $0.baseAddress, $0.count) == 1 }
        }

        func bignum(_ key: String, _ magnitude: [UInt8]) -> Bool {
            guard let number = BN_bin2bn(magnitude, Int32(magnitude.count), nil) else { return false }
            numbers.append(number)
            return OSSL_PARAM_BLD_push_BN(builder, keep(key), number) == 1
        }
    }

    /// d mod (p-1) and d mod (q-1), which OpenSSH's format leaves out.
    private static func crtExponents(d: [UInt8], p: [UInt8], q: [UInt8]) -> ([UInt8], [UInt8]) {
        guard let context = BN_CTX_new() else { return ([], []) }
        defer { BN_CTX_free(context) }
        func exponent(_ prime: [UInt8]) -> [UInt8] {
            guard let bd = BN_bin2bn(d, Int32(d.count), nil), let bp = BN_bin2bn(prime, Int32(prime.count), nil), let out = BN_new() else { return [] }
            defer { BN_clear_free(bd); BN_free(bp); BN_clear_free(out) }
            guard BN_sub_word(bp, 1) == 1, BN_div(nil, out, bd, bp, context) == 1 else { return [] }
            return SSHSignature.magnitude(out)
        }
        return (exponent(p), exponent(q))
    }
}
