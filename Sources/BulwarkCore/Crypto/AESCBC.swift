import CCrypto

/// AES-256-CBC with PKCS#7 padding, from OpenSSL: only for other programs'
/// formats that use it (always behind a MAC checked first); bulwark's own
/// vault uses AES-GCM.
public enum AESCBC {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String { "AES-256-CBC failed (wrong key or damaged data)" }
    }

    public static func decrypt(_ ciphertext: [UInt8], key: [UInt8], iv: [UInt8]) throws(Failure) -> [UInt8] {
        try run(ciphertext, key: key, iv: iv, encrypt: false)
    }

    public static func encrypt(_ plaintext: [UInt8], key: [UInt8], iv: [UInt8]) throws(Failure) -> [UInt8] {
        try run(plaintext, key: key, iv: iv, encrypt: true)
    }

    private static func run(_ input: [UInt8], key: [UInt8], iv: [UInt8], encrypt: Bool) throws(Failure) -> [UInt8] {
        guard key.count == 32, iv.count == 16, encrypt || (input.count % 16 == 0 && !input.isEmpty),
              let context = EVP_CIPHER_CTX_new() else { throw Failure() }
        defer { EVP_CIPHER_CTX_free(context) }
        guard let cipher = EVP_CIPHER_fetch(nil, "AES-256-CBC", nil) else { throw Failure() }
        defer { EVP_CIPHER_free(cipher) }
        var out = [UInt8](repeating: 0, count: input.count + 16)
        var length: Int32 = 0, tail: Int32 = 0
        let ok = out.withUnsafeMutableBufferPointer { buffer -> Bool in
            let base = buffer.baseAddress!
            if encrypt {
                return EVP_EncryptInit_ex(context, cipher, nil, key, iv) == 1
                    && EVP_EncryptUpdate(context, base, &length, input, Int32(input.count)) == 1
                    && EVP_EncryptFinal_ex(context, base + Int(length), &tail) == 1
            }
            return EVP_DecryptInit_ex(context, cipher, nil, key, iv) == 1
                && EVP_DecryptUpdate(context, base, &length, input, Int32(input.count)) == 1
                && EVP_DecryptFinal_ex(context, base + Int(length), &tail) == 1
        }
        guard ok else {
            out.wipe()
            throw Failure()
        }
        out.removeLast(out.count - Int(length + tail))
        return out
    }
}
