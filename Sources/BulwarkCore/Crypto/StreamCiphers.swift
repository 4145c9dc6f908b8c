import CCrypto
import CSodium

/// The stream ciphers and the block transform KeePass's files use, from
/// system libraries: ChaCha20 (RFC 8439, OpenSSL), Salsa20 (libsodium: OpenSSL
/// has none), AES-256-ECB rounds for KeePass's AES-KDF (OpenSSL), and
/// AES-256-CBC decryption without padding removal where KDBX 3.1 needs it.
public enum StreamCiphers {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// A keystream generator; `xor` continues where the last call stopped.
    public final class KeyStream {
        private let context: OpaquePointer?
        private let salsa: (key: [UInt8], nonce: [UInt8])?
        private var salsaOffset: UInt64 = 0
        /// How many bytes of the stream have been used.
        public private(set) var consumed = 0

        /// ChaCha20 with a 32-byte key and a 12-byte nonce, counter from 0.
        public init(chacha20 key: [UInt8], nonce: [UInt8]) throws(Failure) {
            guard key.count == 32, nonce.count == 12, let context = EVP_CIPHER_CTX_new(), let cipher = EVP_CIPHER_fetch(nil, "ChaCha20", nil) else {
                throw Failure(description: "ChaCha20 is not available")
            }
            defer { EVP_CIPHER_free(cipher) }
            let iv = [0, 0, 0, 0] + nonce  // OpenSSL's 16-byte IV: a 32-bit little-endian counter, then the nonce
            guard EVP_EncryptInit_ex(context, cipher, nil, key, iv) == 1 else {
                EVP_CIPHER_CTX_free(context)
                throw Failure(description: "ChaCha20 setup failed")
            }
            self.context = context
            salsa = nil
        }

        /// Salsa20 with a 32-byte key and an 8-byte nonce (libsodium).
        public init(salsa20 key: [UInt8], nonce: [UInt8]) throws(Failure) {
            guard key.count == 32, nonce.count == 8, sodium_init() >= 0 else { throw Failure(description: "Salsa20 is not available") }
            context = nil
            salsa = (key, nonce)
        }

        private init(context: OpaquePointer?, salsa: (key: [UInt8], nonce: [UInt8])?, offset: UInt64, consumed: Int) {
            self.context = context
            self.salsa = salsa
            salsaOffset = offset
            self.consumed = consumed
        }

        deinit { if let context { EVP_CIPHER_CTX_free(context) } }

        /// A second stream where this one stands, going on by itself.
        public func copy() throws(Failure) -> KeyStream {
            guard let context else { return KeyStream(context: nil, salsa: salsa, offset: salsaOffset, consumed: consumed) }
            guard let copied = EVP_CIPHER_CTX_new() else { throw Failure(description: "ChaCha20 copy failed") }
            guard EVP_CIPHER_CTX_copy(copied, context) == 1 else {
                EVP_CIPHER_CTX_free(copied)
                throw Failure(description: "ChaCha20 copy failed")
            }
            return KeyStream(context: copied, salsa: nil, offset: 0, consumed: consumed)
        }

        /// The next `count` bytes passed over, as if `xor` had used them.
        public func skip(_ count: Int) {
            guard count > 0 else { return }
            guard context != nil else {
                salsaOffset += UInt64(count)
                consumed += count
                return
            }
            let piece = 1 << 16
            var left = count
            while left > 0 {
                _ = xor([UInt8](repeating: 0, count: min(piece, left)))
                left -= piece
            }
        }

        public func xor(_ data: [UInt8]) -> [UInt8] {
            guard !data.isEmpty else { return [] }
            consumed += data.count
            if let context {
                var out = [UInt8](repeating: 0, count: data.count)
                var length: Int32 = 0
                _ = EVP_EncryptUpdate(context, &out, &length, data, Int32(data.count))
                return out
            }
            // libsodium's Salsa20 starts at a 64-byte block; keep the offset within it.
            let (key, nonce) = salsa!
            let block = salsaOffset / 64, skip = Int(salsaOffset % 64)
            var input = [UInt8](repeating: 0, count: skip) + data
            var out = [UInt8](repeating: 0, count: input.count)
            _ = crypto_stream_salsa20_xor_ic(&out, &input, UInt64(input.count), nonce, block, key)
            salsaOffset += UInt64(data.count)
            return Array(out[skip...])
        }
    }

    /// KeePass's AES-KDF: the 32-byte key, as two AES-256 blocks, encrypted
    /// `rounds` times under `seed` (ECB), then SHA-256.
    public static func aesKDF(_ key: [UInt8], seed: [UInt8], rounds: UInt64) throws(Failure) -> [UInt8] {
        guard key.count == 32, seed.count == 32, let context = EVP_CIPHER_CTX_new(), let cipher = EVP_CIPHER_fetch(nil, "AES-256-ECB", nil) else {
            throw Failure(description: "AES-KDF: bad key or seed length")
        }
        defer {
            EVP_CIPHER_CTX_free(context)
            EVP_CIPHER_free(cipher)
        }
        guard EVP_EncryptInit_ex(context, cipher, nil, seed, nil) == 1, EVP_CIPHER_CTX_set_padding(context, 0) == 1 else {
            throw Failure(description: "AES-KDF setup failed")
        }
        var block = key, out = [UInt8](repeating: 0, count: 32)
        var length: Int32 = 0
        for _ in 0..<rounds {
            guard EVP_EncryptUpdate(context, &out, &length, block, 32) == 1 else { throw Failure(description: "AES-KDF failed") }
            swap(&block, &out)
        }
        defer { block.wipe(); out.wipe() }
        return Digest.sha256(block)
    }
}
