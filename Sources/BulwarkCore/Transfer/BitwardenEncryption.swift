import Foundation

/// Bitwarden's password-protected JSON export, as its clients write and
/// read it: `{"encrypted": true, "passwordProtected": true, "salt",
/// "kdfType" (0 PBKDF2-SHA-256, 1 Argon2id), "kdfIterations", "kdfMemory"
/// (MiB), "kdfParallelism", "encKeyValidation_DO_NOT_EDIT", "data"}`.
/// The key is the KDF of the password with the salt's text (for Argon2id,
/// the SHA-256 of that text), stretched by HKDF-Expand into an encryption
/// key ("enc") and a MAC key ("mac"). Each sealed value is an EncString of
/// type 2: `2.IV|CIPHERTEXT|MAC` in base64, AES-256-CBC with the MAC an
/// HMAC-SHA-256 of IV and ciphertext. `data` holds the plain export's JSON.
/// An account-restricted export (sealed with the Bitwarden account's own
/// key) cannot be opened outside Bitwarden, and is refused saying so.
public enum BitwardenEncryption {
    public enum KDF: Sendable, Equatable {
        case pbkdf2(iterations: Int)
        case argon2id(iterations: Int, memoryMiB: Int, parallelism: Int)

        /// What Bitwarden's clients use today for new accounts.
        public static let standard = KDF.pbkdf2(iterations: 600_000)
    }

    /// Whether `data` is a password-protected export (so a password must be asked for).
    public static func isPasswordProtected(_ data: Data) -> Bool {
        guard let root = try? BitwardenJSON.shell(data) else { return false }
        return root["encrypted"] as? Bool == true && root["passwordProtected"] as? Bool == true
    }

    /// The plain export inside a password-protected one. A wrong password
    /// fails on the key check before anything else is read.
    static func open(_ root: [String: Any], password: String) throws(ImportError) -> Data {
        guard root["passwordProtected"] as? Bool == true else {
            throw ImportError(line: nil, message: "this is an account-restricted Bitwarden export: only the Bitwarden account that made it can open it. In Bitwarden, export again as \"Password protected\" (or unencrypted) to import it")
        }
        guard let salt = root["salt"] as? String, !salt.isEmpty, let validation = root["encKeyValidation_DO_NOT_EDIT"] as? String,
              let sealed = root["data"] as? String else {
            throw ImportError(line: nil, message: "the password-protected export lacks its salt, key check or data")
        }
        let kdf = try kdf(root)
        let keys = try derive(password: password, salt: salt, kdf: kdf)
        do { _ = try openEncString(validation, keys: keys) } catch {
            throw ImportError(line: nil, message: "wrong password for this Bitwarden export (its key check did not match)")
        }
        do { return Data(try openEncString(sealed, keys: keys)) } catch {
            throw ImportError(line: nil, message: "the export's data is damaged: \(error)")
        }
    }

    /// Seals a plain export as Bitwarden's password-protected one.
    public static func seal(_ plain: Data, password: String, kdf: KDF = .standard) throws -> Data {
        let salt = Data(SecureRandom.bytes(16)).base64EncodedString()
        let keys = try derive(password: password, salt: salt, kdf: kdf)
        var root: [String: Any] = [
            "encrypted": true, "passwordProtected": true, "salt": salt,
            "encKeyValidation_DO_NOT_EDIT": try sealEncString(Array(UUID().uuidString.lowercased().utf8), keys: keys),
            "data": try sealEncString(Array(plain), keys: keys),
        ]
        switch kdf {
        case .pbkdf2(let iterations):
            root["kdfType"] = 0
            root["kdfIterations"] = iterations
        case .argon2id(let iterations, let memory, let parallelism):
            root["kdfType"] = 1
            root["kdfIterations"] = iterations
            root["kdfMemory"] = memory
            root["kdfParallelism"] = parallelism
        }
        return try JSONSerialization.data(withJSONObject: root, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
    }

    static func kdf(_ root: [String: Any]) throws(ImportError) -> KDF {
        let iterations = Importer.jsonInteger(root["kdfIterations"])
        switch Importer.jsonInteger(root["kdfType"]) {
        case 0:
            guard let iterations, iterations >= 5_000 else { throw ImportError(line: nil, message: "the export's PBKDF2 iterations are missing or below Bitwarden's minimum of 5,000") }
            return .pbkdf2(iterations: iterations)
        case 1:
            guard let iterations, iterations >= 2, let memory = Importer.jsonInteger(root["kdfMemory"]), memory >= 16,
                  let parallelism = Importer.jsonInteger(root["kdfParallelism"]), parallelism >= 1 else {
                throw ImportError(line: nil, message: "the export's Argon2id settings are missing or below Bitwarden's minimums (2 iterations, 16 MiB, 1 lane)")
            }
            return .argon2id(iterations: iterations, memoryMiB: memory, parallelism: parallelism)
        default:
            throw ImportError(line: nil, message: "the export names a key derivation bulwark does not know (kdfType \(root["kdfType"].map { "\($0)" } ?? "missing"); 0 is PBKDF2, 1 Argon2id)")
        }
    }

    struct Keys {
        var encryption: [UInt8]
        var mac: [UInt8]
    }

    static func derive(password: String, salt: String, kdf: KDF) throws(ImportError) -> Keys {
        do {
            var master: [UInt8]
            switch kdf {
            case .pbkdf2(let iterations):
                master = try PasswordKDF.pbkdf2SHA256(password: Array(password.utf8), salt: Array(salt.utf8), iterations: iterations)
            case .argon2id(let iterations, let memory, let parallelism):
                guard memory <= 1024 else { throw PasswordKDF.Failure(description: "Argon2id memory \(memory) MiB is over bulwark's limit of 1024 MiB") }
                master = try PasswordKDF.argon2(.argon2id, password: Array(password.utf8), salt: Digest.sha256(Array(salt.utf8)),
                                                iterations: iterations, memoryKiB: memory * 1024, parallelism: parallelism)
            }
            defer { master.wipe() }
            return Keys(encryption: try PasswordKDF.hkdfExpandSHA256(key: master, info: Array("enc".utf8)),
                        mac: try PasswordKDF.hkdfExpandSHA256(key: master, info: Array("mac".utf8)))
        } catch {
            throw ImportError(line: nil, message: "cannot derive the export's key: \(error)")
        }
    }

    struct EncStringError: Error, CustomStringConvertible {
        let description: String
    }

    /// `2.IV|CT|MAC`: the MAC is checked (in constant time) before decrypting.
    static func openEncString(_ text: String, keys: Keys) throws(EncStringError) -> [UInt8] {
        guard text.hasPrefix("2.") else { throw EncStringError(description: "not an AES-256-CBC + HMAC-SHA-256 value (type 2)") }
        let parts = text.dropFirst(2).split(separator: "|", omittingEmptySubsequences: false).map { Data(base64Encoded: String($0)) }
        guard parts.count == 3, let iv = parts[0], let ciphertext = parts[1], let mac = parts[2], iv.count == 16, mac.count == 32 else {
            throw EncStringError(description: "a sealed value is not IV|ciphertext|MAC in base64")
        }
        let expected = HMAC.authenticate(Array(iv) + Array(ciphertext), key: keys.mac, digest: .sha256)
        guard ConstantTime.equal(expected, Array(mac)) else { throw EncStringError(description: "its MAC does not match") }
        do { return try AESCBC.decrypt(Array(ciphertext), key: keys.encryption, iv: Array(iv)) } catch {
            throw EncStringError(description: "\(error)")
        }
    }

    static func sealEncString(_ plaintext: [UInt8], keys: Keys) throws -> String {
        let iv = SecureRandom.bytes(16)
        let ciphertext = try AESCBC.encrypt(plaintext, key: keys.encryption, iv: iv)
        let mac = HMAC.authenticate(iv + ciphertext, key: keys.mac, digest: .sha256)
        return "2." + [iv, ciphertext, mac].map { Data($0).base64EncodedString() }.joined(separator: "|")
    }
}
