import Foundation
import CCrypto

/// Random numbers from OpenSSL's CSPRNG. Bytes are fetched in blocks and
/// drawn without modulo bias (values past the largest multiple of the
/// bound are thrown away and drawn again).
public struct SecureRandom {
    private var pool = [UInt8](repeating: 0, count: 4096)
    private var used = 4096

    public init() {}

    public enum Failure: Error { case randomUnavailable }

    /// Fills `count` bytes from RAND_bytes; traps only if the CSPRNG is
    /// broken, since no password may come from a failed generator.
    public static func bytes(_ count: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        guard count == 0 || RAND_bytes(&out, Int32(count)) == 1 else {
            fatalError("OpenSSL RAND_bytes failed: no secure randomness available")
        }
        return out
    }

    private mutating func nextUInt32() -> UInt32 {
        if used + 4 > pool.count {
            pool = SecureRandom.bytes(pool.count)
            used = 0
        }
        defer { used += 4 }
        return pool.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: used, as: UInt32.self) }
    }

    /// A uniform integer in 0..<bound.
    public mutating func below(_ bound: Int) -> Int {
        precondition(bound > 0 && bound <= Int(UInt32.max))
        let n = UInt32(bound)
        let limit = UInt32.max - (UInt32.max % n + 1) % n  // largest value whose remainder is unbiased
        while true {
            let value = nextUInt32()
            if value <= limit { return Int(value % n) }
        }
    }

    public mutating func element<T>(of array: [T]) -> T { array[below(array.count)] }

    public mutating func shuffle<T>(_ array: inout [T]) {
        guard array.count > 1 else { return }
        for i in stride(from: array.count - 1, to: 0, by: -1) { array.swapAt(i, below(i + 1)) }
    }
}

/// A new entry's id: a random (version 4) UUID in lower case, from
/// OpenSSL's CSPRNG, drawn 16 bytes at a time from a 4 KiB block. Foundation's
/// `UUID()` read the kernel for each one (3 µs an id, a third of an import's
/// reading of 100,000 rows), and RAND_bytes per id still took 0.9 µs.
/// (Ids are not secrets; bulwark never forks without exec, so no two
/// processes share a block.)
public enum EntryID {
    private final class Pool: @unchecked Sendable {  // guarded by lock
        let lock = NSLock()
        var bytes: [UInt8] = []
        var used = 0
    }

    private static let pool = Pool()

    public static func random() -> String {
        // Two words taken under the lock, the text written straight into the String's own storage.
        var (high, low): (UInt64, UInt64) = pool.lock.withLock {
            if pool.used + 16 > pool.bytes.count {
                pool.bytes = SecureRandom.bytes(4096)
                pool.used = 0
            }
            defer { pool.used += 16 }
            return pool.bytes.withUnsafeBytes {
                (UInt64(bigEndian: $0.loadUnaligned(fromByteOffset: pool.used, as: UInt64.self)),
                 UInt64(bigEndian: $0.loadUnaligned(fromByteOffset: pool.used + 8, as: UInt64.self)))
            }
        }
        high = (high & ~0xF000) | 0x4000  // version 4 (byte 6)
        low = (low & ~(0xC0 << 56)) | (0x80 << 56)  // the variant (byte 8)
        return String(unsafeUninitializedCapacity: 36) { text in
            var at = 0
            for index in 0..<16 {
                if index == 4 || index == 6 || index == 8 || index == 10 { text[at] = 0x2D; at += 1 }
                let byte = UInt8(truncatingIfNeeded: (index < 8 ? high : low) >> (8 * UInt64(7 - index % 8)))
                text[at] = hexDigit(byte >> 4)
                text[at + 1] = hexDigit(byte & 0x0F)
                at += 2
            }
            return at
        }
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 { value < 10 ? 0x30 + value : 0x57 + value }
}
