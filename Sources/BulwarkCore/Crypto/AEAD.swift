import CCrypto

/// AES-256-GCM from OpenSSL. A sealed box is nonce (12) ‖ ciphertext ‖ tag (16);
/// the associated data is authenticated but not stored.
public final class AEAD {
    public static let nonceSize = 12, tagSize = 16, keySize = 32

    public struct OpenFailure: Error {}

    private let context: OpaquePointer
    /// Fetched once: OpenSSL 3 otherwise fetches the cipher from its provider
    /// on every init, which costs more than sealing a short field.
    private let cipher: OpaquePointer
    /// The key the context is set up with, and for which direction; while it
    /// stays the same, only the nonce changes (no new key schedule).
    private var loadedKey: [UInt8] = []
    private var loadedForEncryption = false

    public init() {
        guard let context = EVP_CIPHER_CTX_new(), let cipher = EVP_CIPHER_fetch(nil, "AES-256-GCM", nil) else {
            fatalError("OpenSSL: AES-256-GCM is unavailable")
        }
        self.context = context
        self.cipher = cipher
    }

    deinit {
        EVP_CIPHER_CTX_free(context)
        EVP_CIPHER_free(cipher)
        loadedKey.wipe()
    }

    /// Sets the key (only when it changed) and the nonce for one operation.
    private func begin(encrypt: Bool, key: [UInt8], nonce: UnsafePointer<UInt8>) -> Bool {
        if loadedKey != key || loadedForEncryption != encrypt {
            let ok = encrypt ? EVP_EncryptInit_ex(context, cipher, nil, key, nil) : EVP_DecryptInit_ex(context, cipher, nil, key, nil)
            guard ok == 1 else { loadedKey = []; return false }
            loadedKey.wipe()
            loadedKey = key
            loadedForEncryption = encrypt
        }
        return (encrypt ? EVP_EncryptInit_ex(context, nil, nil, nil, nonce) : EVP_DecryptInit_ex(context, nil, nil, nil, nonce)) == 1
    }

    public func seal(_ plaintext: [UInt8], key: [UInt8], associatedData: [UInt8]) -> [UInt8] {
        precondition(key.count == AEAD.keySize)
        let nonce = SecureRandom.bytes(AEAD.nonceSize)
        var out = [UInt8](repeating: 0, count: AEAD.nonceSize + plaintext.count + AEAD.tagSize)
        var length: Int32 = 0
        let ok: Bool = out.withUnsafeMutableBufferPointer { buffer in
            let base = buffer.baseAddress!
            for i in 0..<AEAD.nonceSize { base[i] = nonce[i] }
            guard begin(encrypt: true, key: key, nonce: nonce) else { return false }
            if !associatedData.isEmpty {
                guard EVP_EncryptUpdate(context, nil, &length, associatedData, Int32(associatedData.count)) == 1 else { return false }
            }
            guard EVP_EncryptUpdate(context, base + AEAD.nonceSize, &length, plaintext, Int32(plaintext.count)) == 1,
                  EVP_EncryptFinal_ex(context, base + AEAD.nonceSize + Int(length), &length) == 1,
                  EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_GET_TAG, Int32(AEAD.tagSize), base + AEAD.nonceSize + plaintext.count) == 1
            else { return false }
            return true
        }
        precondition(ok, "OpenSSL AES-256-GCM encryption failed")
        return out
    }

    public func open(_ box: [UInt8], key: [UInt8], associatedData: [UInt8]) throws(OpenFailure) -> [UInt8] {
        guard key.count == AEAD.keySize, box.count >= AEAD.nonceSize + AEAD.tagSize else { throw OpenFailure() }
        let textCount = box.count - AEAD.nonceSize - AEAD.tagSize
        var out = [UInt8](repeating: 0, count: max(1, textCount))
        var length: Int32 = 0
        let ok: Bool = box.withUnsafeBufferPointer { input in
            let base = input.baseAddress!
            guard begin(encrypt: false, key: key, nonce: base) else { return false }
            if !associatedData.isEmpty {
                guard EVP_DecryptUpdate(context, nil, &length, associatedData, Int32(associatedData.count)) == 1 else { return false }
            }
            guard EVP_DecryptUpdate(context, &out, &length, base + AEAD.nonceSize, Int32(textCount)) == 1 else { return false }
            let tag = UnsafeMutableRawPointer(mutating: base + AEAD.nonceSize + textCount)
            guard EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_SET_TAG, Int32(AEAD.tagSize), tag) == 1 else { return false }
            return out.withUnsafeMutableBufferPointer { EVP_DecryptFinal_ex(context, $0.baseAddress! + Int(length), &length) } == 1
        }
        guard ok else { throw OpenFailure() }
        return textCount == 0 ? [] : out
    }
}

/// SHA-1, SHA-256 and SHA-512 digests from OpenSSL (EVP_Digest).
public enum Digest {
    public static func sha256(_ data: [UInt8]) -> [UInt8] { digest(data, algorithms.sha256, 32) }
    public static func sha1(_ data: [UInt8]) -> [UInt8] { digest(data, algorithms.sha1, 20) }
    public static func sha512(_ data: [UInt8]) -> [UInt8] { digest(data, algorithms.sha512, 64) }

    /// Fetched once: with OpenSSL 3's legacy `EVP_sha1()` every digest
    /// fetches the provider's implementation again, under a lock, which is
    /// most of the cost of hashing a short password.
    private struct Fetched: @unchecked Sendable {  // immutable, and OpenSSL's EVP_MD is thread-safe to share
        let sha1: OpaquePointer
        let sha256: OpaquePointer
        let sha512: OpaquePointer
    }

    private static let algorithms: Fetched = {
        guard let sha1 = EVP_MD_fetch(nil, "SHA1", nil), let sha256 = EVP_MD_fetch(nil, "SHA2-256", nil),
              let sha512 = EVP_MD_fetch(nil, "SHA2-512", nil) else {
            preconditionFailure("OpenSSL has no SHA-1, SHA-256 or SHA-512")
        }
        return Fetched(sha1: sha1, sha256: sha256, sha512: sha512)
    }()

    /// SHA-256 of bytes that come in pieces (a file read a chunk at a time).
    public final class SHA256Stream {
        private let context: OpaquePointer

        public init() {
            guard let context = EVP_MD_CTX_new(), EVP_DigestInit_ex2(context, algorithms.sha256, nil) == 1 else {
                preconditionFailure("OpenSSL cannot start a SHA-256 digest")
            }
            self.context = context
        }

        deinit { EVP_MD_CTX_free(context) }

        public func update(_ bytes: UnsafeRawBufferPointer) {
            precondition(EVP_DigestUpdate(context, bytes.baseAddress, bytes.count) == 1, "OpenSSL digest failed")
        }

        public func update(_ bytes: [UInt8]) { bytes.withUnsafeBytes { update($0) } }

        /// The digest; the stream is spent.
        public func finish() -> [UInt8] {
            var out = [UInt8](repeating: 0, count: 32)
            var length: UInt32 = 0
            precondition(EVP_DigestFinal_ex(context, &out, &length) == 1, "OpenSSL digest failed")
            return out
        }
    }

    private static func digest(_ data: [UInt8], _ type: OpaquePointer, _ size: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: size)
        var length: UInt32 = 0
        precondition(EVP_Digest(data, data.count, &out, &length, type, nil) == 1, "OpenSSL digest failed")
        return out
    }
}

extension Array where Element == UInt8 {
    /// Overwrites the bytes in place before they are dropped.
    public mutating func wipe() {
        for i in indices { self[i] = 0 }
        removeAll()
    }

    /// Bytes from lower- or upper-case hex digits; nil for anything else.
    public init?(hex text: String) {
        let digits = Swift.Array(text.utf8)
        guard digits.count % 2 == 0 else { return nil }
        func value(_ c: UInt8) -> UInt8? {
            switch c {
            case 48...57: c - 48
            case 97...102: c - 87
            case 65...70: c - 55
            default: nil
            }
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var i = 0
        while i < digits.count {
            guard let high = value(digits[i]), let low = value(digits[i + 1]) else { return nil }
            bytes.append(high << 4 | low)
            i += 2
        }
        self.init(bytes)
    }

    /// Lower-case hex, written as UTF-8 bytes straight into the string (a
    /// sync hex-encodes a digest or an object id for each of 100,000 files).
    public var hex: String {
        String(unsafeUninitializedCapacity: count * 2) { buffer in
            let digits: StaticString = "0123456789abcdef"
            let table = digits.utf8Start
            var at = 0
            for byte in self {
                buffer[at] = table[Int(byte >> 4)]
                buffer[at + 1] = table[Int(byte & 15)]
                at += 2
            }
            return at
        }
    }
}

import Foundation
