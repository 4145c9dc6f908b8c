import CCrypto
import Foundation

/// scrypt parameters, stored per vault so they can be raised later and so
/// tests can make vaults cheaply.
public struct ScryptParameters: Sendable, Equatable, Codable {
    public var logN: Int
    public var r: Int
    public var p: Int

    public init(logN: Int, r: Int = 8, p: Int = 1) {
        self.logN = logN
        self.r = r
        self.p = p
    }

    /// The product's default: N = 2^17, r = 8, p = 1.
    public static let standard = ScryptParameters(logN: 17)

    /// What bulwark will ever derive with: at most 1 GiB of memory
    /// (128·r·N bytes) and the work of N=2^20, r=8, p=1 (a few seconds
    /// here), whatever a file's header asks for, so a tampered header
    /// cannot make an unlock allocate 16 GiB or run for minutes.
    public static let maximumMemory = 1 << 30
    public static let maximumWork = (1 << 20) * 8

    public var isSane: Bool {
        guard (10...20).contains(logN), (1...32).contains(r), (1...16).contains(p) else { return false }
        let n = 1 << logN
        return 128 * r * n <= Self.maximumMemory && n * r * p <= Self.maximumWork
    }

    /// At least the product's default cost.
    public var isRecommended: Bool { logN >= Self.standard.logN && r >= Self.standard.r }
}

public enum Scrypt {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String { "scrypt key derivation failed" }
    }

    /// About how long `derive` takes with `parameters` on this machine:
    /// a derivation at N=2^12 (a few milliseconds) scaled by N, since
    /// scrypt's work and memory grow linearly with it. OpenSSL reports no
    /// progress, so this is what an unlock screen's progress is made from.
    public static func estimatedSeconds(for parameters: ScryptParameters) -> TimeInterval? {
        guard parameters.isSane else { return nil }
        var probe = parameters
        probe.logN = min(parameters.logN, 12)
        var best = TimeInterval.infinity
        for _ in 0..<2 {
            let start = DispatchTime.now().uptimeNanoseconds
            guard (try? derive(password: [0], salt: [UInt8](repeating: 0, count: 16), parameters: probe)) != nil else { return nil }
            best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        return best * Double(1 << (parameters.logN - probe.logN))
    }

    /// Derives `length` bytes with OpenSSL's scrypt (EVP_PKEY_derive).
    public static func derive(password: [UInt8], salt: [UInt8], parameters: ScryptParameters, length: Int = 32) throws -> [UInt8] {
        guard parameters.isSane else { throw Failure() }
        guard let context = EVP_PKEY_CTX_new_id(EVP_PKEY_SCRYPT, nil) else { throw Failure() }
        defer { EVP_PKEY_CTX_free(context) }
        let n = UInt64(1) << UInt64(parameters.logN)
        // OpenSSL's default memory cap (32 MiB) is below what N=2^17, r=8 needs (128 MiB + change).
        let maxMemory = UInt64(128) * UInt64(parameters.r) * (n + UInt64(parameters.p) + 2) + (64 << 20)
        var out = [UInt8](repeating: 0, count: length)
        var outLength = length
        guard EVP_PKEY_derive_init(context) == 1,
              EVP_PKEY_CTX_set1_pbe_pass(context, password, Int32(password.count)) == 1,
              EVP_PKEY_CTX_set1_scrypt_salt(context, salt, Int32(salt.count)) == 1,
              EVP_PKEY_CTX_set_scrypt_N(context, n) == 1,
              EVP_PKEY_CTX_set_scrypt_r(context, UInt64(parameters.r)) == 1,
              EVP_PKEY_CTX_set_scrypt_p(context, UInt64(parameters.p)) == 1,
              EVP_PKEY_CTX_set_scrypt_maxmem_bytes(context, maxMemory) == 1,
              EVP_PKEY_derive(context, &out, &outLength) == 1, outLength == length
        else { throw Failure() }
        return out
    }
}
