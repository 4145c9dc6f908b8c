import Foundation

/// A KeePass database file opened down to its XML: KDBX 3.1 (hashed
/// blocks, stream-start bytes, Salsa20 inner stream) and KDBX 4.0/4.1 (an
/// HMAC per block and on the header, a KDF parameter dictionary, an inner
/// header with the ChaCha20 stream key and the attachments), as KeePass and
/// KeePassXC write them (their KdbxFile specification and KeePassXC's
/// Kdbx3Reader/Kdbx4Reader). Every length is checked before it is used and
/// every limit applies before work or memory is spent.
struct KDBXContainer {
    /// The decrypted, decompressed XML (after KDBX 4's inner header: a
    /// slice, not a copy of 100 MB), and the stream that unmasks its protected values.
    let xml: ArraySlice<UInt8>
    let innerStream: StreamCiphers.KeyStream
    /// KDBX 4's files from its inner header, in order (an entry's `Ref` is the place).
    let binaries: [[UInt8]]
    let version: String

    static let signature1: [UInt8] = [0x03, 0xD9, 0xA2, 0x9A], signature2: [UInt8] = [0x67, 0xFB, 0x4B, 0xB5]
    static func looksLikeKDBX(_ data: Data) -> Bool { data.prefix(8).elementsEqual(signature1 + signature2) }

    /// Limits: the XML inflated, Argon2's memory and passes, AES-KDF rounds.
    static let xmlLimit = 512 << 20
    static let argon2MemoryLimit: UInt64 = 1 << 30
    static let argon2PassLimit: UInt64 = 100
    static let aesRoundLimit: UInt64 = 100_000_000

    static let aesCipher = "31c1f2e6bf714350be5805216afc5aff", chachaCipher = "d6038a2b8b6f4cb5a524339a31dbb59a", twofishCipher = "ad68f29f576f4bb9a36ad47af965346c"
    static let aesKDF3 = "c9d9f39a628a4460bf740d08c18a4fea", aesKDF4 = "7c02bb8279a74ac0927d114a00648238"
    static let argon2d = "ef636ddf8c29444b91f7a9a403e30a0c", argon2id = "9e298b1956db4773b23dfc3ec6f0a1e6"

    /// The file's key after its own KDF (AES-KDF or Argon2), which `import`
    /// works out beside the vault's scrypt (`TransformedKey`), and the
    /// header's problems before it, as `open` names them.
    static func transformedKey(_ data: Data, password: String, keyFile: [UInt8]?) throws(ImportError) -> [UInt8] {
        var reader = ByteReader(Array(data.prefix(1 << 20)))  // the outer header is at the start, well within a MiB
        let (header, _, _, _) = try readHeader(&reader)
        return try transform(compositeKey(password: password, keyFile: keyFile), header: header)
    }

    /// The signature, the version, the outer header, and a cipher bulwark can use (said before any key work).
    private static func readHeader(_ reader: inout ByteReader) throws(ImportError) -> (Header, major: UInt16, minor: UInt16, cipherID: String) {
        guard try reader.take(4) == signature1, try reader.take(4) == signature2 else { throw failure("not a KeePass database (no KDBX signature)") }
        let minor = try reader.u16(), major = try reader.u16()
        guard major == 3 || major == 4 else { throw failure("KDBX version \(major).\(minor) is not supported (3.1 and 4.x are)") }
        let header = try Header.read(&reader, major: major)
        let cipherID = try header.require(.cipherID, "cipher").hex
        if let problem = unsupported(cipher: cipherID) { throw problem }
        return (header, major, minor, cipherID)
    }

    /// `transformed`: the file's key after its KDF, when `transformedKey` has worked it out already.
    static func open(_ data: Data, password: String, keyFile: [UInt8]?, transformed known: [UInt8]? = nil) throws(ImportError) -> KDBXContainer {
        var reader = ByteReader(Array(data))
        let (header, major, minor, cipherID) = try readHeader(&reader)
        let headerBytes = Array(reader.bytes[0..<reader.offset])
        var transformed: [UInt8]
        if let known { transformed = known } else { transformed = try transform(compositeKey(password: password, keyFile: keyFile), header: header) }
        defer { transformed.wipe() }
        let seed = try header.require(.masterSeed, "master seed")
        guard seed.count == 32 else { throw failure("the master seed is \(seed.count) bytes, not 32") }
        var key = Digest.sha256(seed + transformed)
        defer { key.wipe() }
        let iv = try header.require(.encryptionIV, "encryption IV")
        let payload: [UInt8]
        if major == 4 {
            let hmacBase = sha512(seed + transformed + [1])
            guard try reader.take(32) == Digest.sha256(headerBytes) else { throw failure("the header is damaged (its SHA-256 does not match)") }
            let headerMAC = try reader.take(32)
            guard ConstantTime.equal(headerMAC, HMAC.authenticate(headerBytes, key: blockKey(UInt64.max, hmacBase), digest: .sha256)) else {
                throw failure("wrong password or key file (the header's HMAC does not match)")
            }
            let ciphertext = try hmacBlocks(&reader, hmacBase: hmacBase)
            payload = try decrypt(ciphertext, cipher: cipherID, key: key, iv: iv)
        } else {
            let decrypted = try decrypt(Array(reader.bytes[reader.offset...]), cipher: cipherID, key: key, iv: iv)
            let start = try header.require(.streamStartBytes, "stream start bytes")
            guard decrypted.count >= 32, Array(decrypted[0..<32]) == start else { throw failure("wrong password or key file (the content does not decrypt)") }
            var blocks = ByteReader(Array(decrypted[32...]))
            payload = try hashedBlocks(&blocks)
        }
        let compressed = try header.u32(.compression) == 1
        let content: [UInt8]
        do { content = compressed ? try Gzip.inflate(payload, limit: xmlLimit) : payload } catch { throw failure("\(error)") }
        var streamID: UInt32, streamKey: [UInt8], binaries: [[UInt8]] = []
        var xmlStart = 0
        if major == 4 {
            var inner = ByteReader(content)
            (streamID, streamKey, binaries) = try innerHeader(&inner)
            xmlStart = inner.offset
        } else {
            streamID = try header.u32(.innerStreamID)
            streamKey = try header.require(.protectedStreamKey, "protected stream key")
        }
        return KDBXContainer(xml: content[xmlStart...], innerStream: try innerStream(streamID, key: streamKey), binaries: binaries, version: "\(major).\(minor)")
    }

    static func failure(_ message: String) -> ImportError { ImportError(line: nil, message: message) }

    /// SHA-256 of the password's SHA-256 and the key file's 32 bytes, in
    /// that order; with a key file, an empty password is no password (as
    /// KeePass and KeePassXC treat a database opened by its key file alone).
    static func compositeKey(password: String, keyFile: [UInt8]?) -> [UInt8] {
        var parts = keyFile != nil && password.isEmpty ? [] : Digest.sha256(Array(password.utf8))
        if let keyFile { parts += keyFile }
        defer { parts.wipe() }
        return Digest.sha256(parts)
    }

    static func sha512(_ bytes: [UInt8]) -> [UInt8] { Digest.sha512(bytes) }

    static func blockKey(_ index: UInt64, _ base: [UInt8]) -> [UInt8] {
        sha512(ByteReader.le(index, 8) + base)
    }

    static func transform(_ composite: [UInt8], header: Header) throws(ImportError) -> [UInt8] {
        if let parameters = header.kdfParameters {
            guard let uuid = parameters.bytes("$UUID")?.hex else { throw failure("the KDF parameters name no KDF") }
            switch uuid {
            case aesKDF3, aesKDF4:
                guard let seed = parameters.bytes("S"), let rounds = parameters.uint("R") else { throw failure("the AES-KDF parameters are incomplete") }
                return try aesKDF(composite, seed: seed, rounds: rounds)
            case argon2d, argon2id:
                guard let salt = parameters.bytes("S"), let parallelism = parameters.uint("P"), let memory = parameters.uint("M"),
                      let passes = parameters.uint("I") else { throw failure("the Argon2 parameters are incomplete") }
                guard parameters.uint("V") ?? 0x13 == 0x13 else { throw failure("Argon2 version \(parameters.uint("V") ?? 0) is not supported (0x13 is)") }
                guard memory <= argon2MemoryLimit, passes <= argon2PassLimit, (1...64).contains(parallelism),
                      (memory >> 10) * passes <= UInt64(PasswordKDF.argon2WorkLimitKiB) else {
                    throw failure("the Argon2 parameters ask for \(memory >> 20) MiB, \(passes) passes and \(parallelism) lanes; bulwark refuses more than 1024 MiB, 100 passes, 64 lanes, or 32 GiB of passes in all (about 10 s here)")
                }
                do {
                    return try PasswordKDF.argon2(uuid == argon2d ? .argon2d : .argon2id, password: composite, salt: salt, iterations: Int(passes),
                                                  memoryKiB: Int(memory / 1024), parallelism: Int(parallelism))
                } catch { throw failure("\(error)") }
            default:
                throw failure("the database uses a key derivation bulwark does not know (\(uuid))")
            }
        }
        let seed = try header.require(.transformSeed, "transform seed")
        guard let roundsBytes = header.fields[.transformRounds], roundsBytes.count == 8 else { throw failure("the transform rounds are missing") }
        return try aesKDF(composite, seed: seed, rounds: ByteReader.uint(roundsBytes))
    }

    static func aesKDF(_ key: [UInt8], seed: [UInt8], rounds: UInt64) throws(ImportError) -> [UInt8] {
        guard rounds <= aesRoundLimit else { throw failure("the database asks for \(rounds) AES-KDF rounds; bulwark refuses more than 100,000,000") }
        do { return try StreamCiphers.aesKDF(key, seed: seed, rounds: rounds) } catch { throw failure("\(error)") }
    }

    static func decrypt(_ ciphertext: [UInt8], cipher: String, key: [UInt8], iv: [UInt8]) throws(ImportError) -> [UInt8] {
        switch cipher {
        case aesCipher:
            do { return try AESCBC.decrypt(ciphertext, key: key, iv: iv) } catch { throw failure("wrong password or key file (the content does not decrypt)") }
        case chachaCipher:
            guard iv.count == 12 else { throw failure("the ChaCha20 nonce is \(iv.count) bytes, not 12") }
            do { return try StreamCiphers.KeyStream(chacha20: key, nonce: iv).xor(ciphertext) } catch { throw failure("\(error)") }
        default:
            throw unsupported(cipher: cipher) ?? failure("the database uses a cipher bulwark does not know (\(cipher))")
        }
    }

    /// Why bulwark cannot decrypt with this cipher, or nil when it can.
    static func unsupported(cipher: String) -> ImportError? {
        switch cipher {
        case aesCipher, chachaCipher: nil
        case twofishCipher: failure("the database is encrypted with Twofish, which no maintained system library here offers; in KeePassXC, change the database's cipher to AES-256 or ChaCha20 and save, then import it")
        default: failure("the database uses a cipher bulwark does not know (\(cipher))")
        }
    }

    /// KDBX 4: blocks of (HMAC, length, data), each HMAC over the block's
    /// index, length and data under that block's key; an empty block ends.
    static func hmacBlocks(_ reader: inout ByteReader, hmacBase: [UInt8]) throws(ImportError) -> [UInt8] {
        var out: [UInt8] = []
        var index: UInt64 = 0
        while true {
            let mac = try reader.take(32)
            let length = try reader.u32()
            guard length <= UInt32(xmlLimit) else { throw failure("block \(index) claims \(length) bytes") }
            let data = try reader.take(Int(length))
            let expected = HMAC.authenticate(ByteReader.le(index, 8) + ByteReader.le(UInt64(length), 4) + data, key: blockKey(index, hmacBase), digest: .sha256)
            guard ConstantTime.equal(mac, expected) else { throw failure("block \(index) is damaged or was changed (its HMAC does not match)") }
            if length == 0 { return out }
            out += data
            guard out.count <= xmlLimit else { throw failure("the encrypted content is larger than 512 MiB") }
            index += 1
        }
    }

    /// KDBX 3.1: blocks of (index, SHA-256, length, data); an empty block with a zero hash ends.
    static func hashedBlocks(_ reader: inout ByteReader) throws(ImportError) -> [UInt8] {
        var out: [UInt8] = []
        var expectedIndex: UInt32 = 0
        while true {
            let index = try reader.u32()
            let hash = try reader.take(32)
            let length = try reader.u32()
            guard index == expectedIndex else { throw failure("block \(expectedIndex) is missing (found \(index))") }
            if length == 0 {
                guard hash.allSatisfy({ $0 == 0 }) else { throw failure("the last block is damaged") }
                return out
            }
            let data = try reader.take(Int(length))
            guard Digest.sha256(data) == hash else { throw failure("block \(index) is damaged (its SHA-256 does not match)") }
            out += data
            expectedIndex += 1
        }
    }

    /// KDBX 4's inner header: the inner stream's id and key, then attachments.
    static func innerHeader(_ reader: inout ByteReader) throws(ImportError) -> (UInt32, [UInt8], [[UInt8]]) {
        var id: UInt32?, key: [UInt8]?, binaries: [[UInt8]] = []
        while true {
            let type = try reader.u8()
            let length = try reader.u32()
            let value = try reader.take(Int(length))
            switch type {
            case 0:
                guard let id, let key else { throw failure("the inner header names no protected-value stream") }
                return (id, key, binaries)
            case 1: id = UInt32(truncatingIfNeeded: ByteReader.uint(value))
            case 2: key = value
            case 3:
                // A flags byte (1: KeePass keeps it protected in memory), then the file.
                guard !value.isEmpty else { throw failure("the inner header has an empty attachment") }
                binaries.append(Array(value.dropFirst()))
            default: throw failure("the inner header has an unknown field \(type)")
            }
        }
    }

    /// The stream protected values are XORed with: 2 Salsa20 (KDBX 3.1), 3 ChaCha20 (KDBX 4).
    static func innerStream(_ id: UInt32, key: [UInt8]) throws(ImportError) -> StreamCiphers.KeyStream {
        do {
            switch id {
            case 2: return try StreamCiphers.KeyStream(salsa20: Digest.sha256(key), nonce: [0xE8, 0x30, 0x09, 0x4B, 0x97, 0x20, 0x5D, 0x2A])
            case 3:
                let hash = sha512(key)
                return try StreamCiphers.KeyStream(chacha20: Array(hash[0..<32]), nonce: Array(hash[32..<44]))
            default: throw failure("the protected values use stream \(id), which bulwark does not know (2 Salsa20, 3 ChaCha20)")
            }
        } catch let error as ImportError { throw error } catch { throw failure("\(error)") }
    }
}
