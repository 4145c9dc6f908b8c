import CZlib
import Foundation

/// bulwark's entries as a KDBX 4.0 file KeePassXC opens: Argon2id (64 MiB,
/// 2 lanes, passes calibrated to about a second here), AES-256-CBC, HMAC-SHA-256
/// blocks, gzip, a ChaCha20 inner stream for protected values. Groups come
/// from each entry's first tag (its path), KeePass tags from the rest; the
/// password, hidden fields and history passwords are protected, and so is
/// any value holding a character XML 1.0 cannot carry (kept whole, not
/// stripped). What KeePass has no place for travels as `bulwark:` strings
/// (kind, chosen category, each history item's reason), read back on import.
public enum KDBXExport {
    public struct Settings: Sendable {
        public var parallelism: UInt32 = 2, iterations: UInt64 = 10
        /// Argon2's memory; KiB so the fuzz target's containers open fast.
        var memoryKiB: UInt64 = 64 * 1024
        public var memoryMiB: UInt64 {
            get { memoryKiB / 1024 }
            set { memoryKiB = newValue * 1024 }
        }
        /// AES-256-CBC (KeePass's default), or ChaCha20.
        public var chacha20 = false
        public init() {}

        /// Passes for about `seconds` of Argon2id here, from one timed pass (2 to 100).
        public static func calibrated(seconds: Double = 1.0) -> Settings {
            var settings = Settings()
            let start = DispatchTime.now().uptimeNanoseconds
            _ = try? PasswordKDF.argon2(.argon2id, password: [0], salt: SecureRandom.bytes(32), iterations: 1,
                                        memoryKiB: Int(settings.memoryKiB), parallelism: Int(settings.parallelism))
            let pass = max(0.001, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            settings.iterations = UInt64(min(100, max(2, Int(seconds / pass))))
            return settings
        }
    }

    /// `files`: an attachment's bytes (the vault's `readAttachment`); each
    /// file is written once in the inner header, however many entries hold it.
    public static func write(_ entries: [Entry], password: String, settings: Settings = Settings(), now: Date = Date(),
                             files: (Entry, Attachment) throws -> [UInt8] = { _, _ in [] }) throws -> Data {
        let streamKey = SecureRandom.bytes(64)
        let stream = try innerStream(streamKey)
        var writer = KDBXXMLWriter(stream: stream, now: now)
        var binaries: [[UInt8]] = []
        for entry in entries {
            for attachment in entry.attachments where writer.binaryRefs[attachment.blob] == nil {
                writer.binaryRefs[attachment.blob] = binaries.count
                binaries.append(try files(entry, attachment))
            }
        }
        // The key's derivation (about a second of Argon2, by design) needs none of the
        // entries: it runs while the XML is written, not after it.
        let derivation = Derivation(password: password, settings: settings)
        let xml = writer.document(entries)
        var derived = try derivation.wait()
        defer { derived.transformed.wipe() }
        return try seal(xml: xml, streamKey: streamKey, settings: settings, binaries: binaries, derived: derived)
    }

    /// The database's salt and its transformed key (Argon2id of the composite key).
    struct Derived {
        let salt: [UInt8]
        var transformed: [UInt8]
    }

    static func derive(password: String, settings: Settings) throws -> Derived {
        let salt = SecureRandom.bytes(32)
        var composite = KDBXContainer.compositeKey(password: password, keyFile: nil)
        defer { composite.wipe() }
        let transformed = try PasswordKDF.argon2(.argon2id, password: composite, salt: salt, iterations: Int(settings.iterations),
                                                 memoryKiB: Int(settings.memoryKiB), parallelism: Int(settings.parallelism))
        return Derived(salt: salt, transformed: transformed)
    }

    /// `derive` on a thread of its own, waited for once.
    private final class Derivation: @unchecked Sendable {  // `result` is written before the group leaves, read after its wait
        private var result: Result<Derived, Error>?
        private let group = DispatchGroup()

        init(password: String, settings: Settings) {
            DispatchQueue.global().async(group: group) { [self] in result = Result { try KDBXExport.derive(password: password, settings: settings) } }
        }

        func wait() throws -> Derived {
            group.wait()
            return try result!.get()
        }
    }

    /// The inner stream protected values are masked with: ChaCha20 keyed by
    /// SHA-512 of the inner header's key.
    static func innerStream(_ streamKey: [UInt8]) throws -> StreamCiphers.KeyStream {
        let hash = KDBXContainer.sha512(streamKey)
        return try StreamCiphers.KeyStream(chacha20: Array(hash[0..<32]), nonce: Array(hash[32..<44]))
    }

    /// A KDBX 4 file around `xml` (any bytes: the fuzz target seals
    /// mutated documents so the whole import path reads them).
    static func seal(xml: [UInt8], streamKey: [UInt8], password: String, settings: Settings, binaries: [[UInt8]] = []) throws -> Data {
        var derived = try derive(password: password, settings: settings)
        defer { derived.transformed.wipe() }
        return try seal(xml: xml, streamKey: streamKey, settings: settings, binaries: binaries, derived: derived)
    }

    static func seal(xml: [UInt8], streamKey: [UInt8], settings: Settings, binaries: [[UInt8]], derived: Derived) throws -> Data {
        let masterSeed = SecureRandom.bytes(32), iv = SecureRandom.bytes(settings.chacha20 ? 12 : 16), salt = derived.salt
        var header: [UInt8] = KDBXContainer.signature1 + KDBXContainer.signature2 + [0x00, 0x00, 0x04, 0x00]
        func field(_ type: KDBXContainer.Field, _ value: [UInt8]) { header += [type.rawValue] + ByteReader.le(UInt64(value.count), 4) + value }
        field(.cipherID, hexBytes(settings.chacha20 ? KDBXContainer.chachaCipher : KDBXContainer.aesCipher))
        field(.compression, ByteReader.le(1, 4))
        field(.masterSeed, masterSeed)
        field(.encryptionIV, iv)
        var kdf: [UInt8] = [0x00, 0x01]
        func item(_ type: UInt8, _ key: String, _ value: [UInt8]) { kdf += [type] + ByteReader.le(UInt64(key.utf8.count), 4) + Array(key.utf8) + ByteReader.le(UInt64(value.count), 4) + value }
        item(0x42, "$UUID", hexBytes(KDBXContainer.argon2id))
        item(0x42, "S", salt)
        item(0x04, "P", ByteReader.le(UInt64(settings.parallelism), 4))
        item(0x05, "M", ByteReader.le(settings.memoryKiB << 10, 8))
        item(0x05, "I", ByteReader.le(settings.iterations, 8))
        item(0x04, "V", ByteReader.le(0x13, 4))
        kdf.append(0)
        field(.kdfParameters, kdf)
        field(.end, [0x0D, 0x0A, 0x0D, 0x0A])

        let transformed = derived.transformed
        var key = Digest.sha256(masterSeed + transformed)
        defer { key.wipe() }
        let hmacBase = KDBXContainer.sha512(masterSeed + transformed + [1])

        var inner: [UInt8] = [1] + ByteReader.le(4, 4) + ByteReader.le(3, 4) + [2] + ByteReader.le(64, 4) + streamKey
        // Each file: a flags byte (0: not kept protected in KeePass's memory), then its bytes.
        for binary in binaries { inner += [3] + ByteReader.le(UInt64(binary.count + 1), 4) + [0] + binary }
        inner += [0] + ByteReader.le(0, 4)
        let compressed = try deflate([inner, xml])
        let ciphertext = settings.chacha20 ? try StreamCiphers.KeyStream(chacha20: key, nonce: iv).xor(compressed) : try AESCBC.encrypt(compressed, key: key, iv: iv)

        var out = header + Digest.sha256(header) + HMAC.authenticate(header, key: KDBXContainer.blockKey(UInt64.max, hmacBase), digest: .sha256)
        // Blocks of at most 1 MiB, each with its HMAC, then an empty one.
        var index: UInt64 = 0, offset = 0
        func block(_ data: ArraySlice<UInt8>) {
            let length = ByteReader.le(UInt64(data.count), 4)
            out += HMAC.authenticate(ByteReader.le(index, 8) + length + data, key: KDBXContainer.blockKey(index, hmacBase), digest: .sha256) + length + data
            index += 1
        }
        while offset < ciphertext.count {
            block(ciphertext[offset..<min(ciphertext.count, offset + (1 << 20))])
            offset += 1 << 20
        }
        block([])
        return Data(out)
    }

    static func hexBytes(_ hex: String) -> [UInt8] { KeePassKeyFile.hex(hex) ?? [] }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// gzip with zlib, at its fastest level, of the parts one after another (the XML is not copied behind the inner header).
    static func deflate(_ parts: [[UInt8]]) throws -> [UInt8] {
        var stream = z_stream()
        // zlib's fastest level: a 122 MB document in 0.23 s rather than 0.54 s, for a file a tenth larger.
        guard deflateInit2_(&stream, Z_BEST_SPEED, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
                            Int32(MemoryLayout<z_stream>.size)) == Z_OK else { throw Failure(description: "zlib could not start") }
        defer { deflateEnd(&stream) }
        let total = parts.reduce(0) { $0 + $1.count }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(total))) + 64 * (parts.count + 1))
        var status = Z_OK
        output.withUnsafeMutableBufferPointer { target in
            stream.next_out = target.baseAddress
            stream.avail_out = uInt(target.count)
            for (index, part) in parts.enumerated() {
                part.withUnsafeBufferPointer { source in
                    stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
                    stream.avail_in = uInt(source.count)
                    status = CZlib.deflate(&stream, index == parts.count - 1 ? Z_FINISH : Z_NO_FLUSH)
                }
                if status != Z_OK && status != Z_STREAM_END { return }
            }
        }
        guard status == Z_STREAM_END else { throw Failure(description: "zlib could not compress (\(status))") }
        output.removeLast(output.count - Int(stream.total_out))
        return output
    }
}
