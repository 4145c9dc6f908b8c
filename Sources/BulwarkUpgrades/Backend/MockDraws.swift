@_spi(MockServices) import BulwarkCore
import Foundation

/// What the mock services draw at random: the SMS codes they text and the
/// password a service sets of its own accord. From the system's generator,
/// as a real service's would be; or, for a recorded demo whose pictures
/// must come out the same byte for byte (`make demo-artifacts`), from a
/// seed. Never anything of the person's: their passwords, keys and codes
/// always come from the CSPRNG.
public final class MockDraws: @unchecked Sendable {  // `seeded` is guarded by `lock`
    private let lock = NSLock()
    private var seeded: SplitMix64?

    public static let system = MockDraws()

    public init() {}

    /// Draws that repeat for a seed (a headless recording).
    public init(seed: UInt64) { seeded = SplitMix64(seed: seed) }

    /// A six-digit code, as an SMS carries it.
    func smsCode() -> String {
        lock.withLock {
            let number: Int
            if seeded != nil { number = Int.random(in: 0..<1_000_000, using: &seeded!) } else {
                var random = SecureRandom()
                number = random.below(1_000_000)
            }
            return String(String(number + 1_000_000).dropFirst())
        }
    }

    /// A password the service makes for itself under its own rules.
    func servicePassword(rules: PasswordRules) throws -> String {
        try lock.withLock {
            guard seeded != nil else {
                var generator = try PasswordGenerator(rules: rules)
                return generator.next()
            }
            var generator = try PasswordGenerator(rules: rules, seed: seeded!.next())
            return generator.next()
        }
    }
}
