import Foundation

/// Reuse is judged between passwords, and between PINs, never across.
struct ReuseKey: Hashable, Sendable {
    /// The SHA-1 in three integers: hashing a 20-byte array element by
    /// element is slow at 100k entries.
    let high: UInt64, middle: UInt64, low: UInt32
    let isPIN: Bool

    init(sha1: [UInt8], isPIN: Bool) {
        func word(_ range: Range<Int>) -> UInt64 { sha1[range].reduce(0) { $0 << 8 | UInt64($1) } }
        high = word(0..<8)
        middle = word(8..<16)
        low = UInt32(word(16..<20))
        self.isPIN = isPIN
    }
}

/// The costly, per-password part of an analysis, kept between reports.
struct PasswordFacts: Sendable, Equatable {
    /// What the facts depend on; when these are equal the facts still hold.
    struct Inputs: Sendable, Equatable {
        let password: String
        let accountWords: [String]
        let isPIN: Bool

        init?(_ entry: Entry, _ profile: AccountProfile) {
            guard let password = entry.password, !password.isEmpty else { return nil }
            self.password = password
            isPIN = PINRules.isPIN(entry)
            // Words of letters only: a password containing "jane" or
            // "northwind" is weak for jane at Northwind, and digits in a
            // username add nothing zxcvbn would not find as a sequence or
            // date (each extra word costs every strength estimate time).
            let user = entry.username.split(separator: "@").first.map(String.init) ?? ""
            var words: [String] = []
            for text in [user, profile.siteWord, entry.title] {
                for word in text.lowercased().split(whereSeparator: { !$0.isLetter }) where word.count >= 3 {
                    if !words.contains(String(word)) { words.append(String(word)) }
                }
            }
            accountWords = words
        }
    }

    let inputs: Inputs
    let reuseKey: ReuseKey
    /// PINs are not looked up: every short PIN is in the big corpora.
    let breach: BreachHit?
    let strength: Strength?
    let pinWeakness: PINWeakness?

    func weakness(below bits: Double) -> Warning? {
        if let pinWeakness { return .weak(bits: nil, pattern: pinWeakness.rawValue, why: pinWeakness.reason) }
        guard let strength, strength.bits < bits else { return nil }
        let pattern = strength.pattern ?? .tooShort
        return .weak(bits: strength.bits, pattern: pattern.rawValue, why: pattern.reason)
    }

    static func evaluate(_ inputs: Inputs, breaches: BreachCorpus) throws -> PasswordFacts {
        let sha1 = Digest.sha1(Array(inputs.password.utf8))
        if inputs.isPIN {
            return PasswordFacts(inputs: inputs, reuseKey: ReuseKey(sha1: sha1, isPIN: true), breach: nil, strength: nil,
                                 pinWeakness: PINRules.weakness(of: inputs.password))
        }
        return PasswordFacts(inputs: inputs, reuseKey: ReuseKey(sha1: sha1, isPIN: false), breach: try breaches.lookup(sha1: sha1),
                             strength: StrengthMeter.measure(inputs.password, accountWords: inputs.accountWords),
                             pinWeakness: nil)
    }

}

/// Work spread over every core.
enum Concurrently {
    /// `transform` applied to every element, in order, in chunks across the
    /// cores; the first error thrown is rethrown.
    static func map<T: Sendable, R>(_ items: [T], chunk: Int = 64, _ transform: @Sendable (T) throws -> R) throws -> [R] {
        let results = UnsafeMutableBufferPointer<R?>.allocate(capacity: items.count)
        results.initialize(repeating: nil)
        defer { results.deinitialize(); results.deallocate() }
        let failure = FirstFailure()
        nonisolated(unsafe) let shared = results  // each chunk writes its own slots
        DispatchQueue.concurrentPerform(iterations: (items.count + chunk - 1) / chunk) { index in
            for i in index * chunk..<min(items.count, (index + 1) * chunk) {
                do { shared[i] = try transform(items[i]) } catch { failure.record(error) }
            }
        }
        if let error = failure.error { throw error }
        return results.map { $0! }
    }
}

/// The first error thrown by concurrent work.
private final class FirstFailure: @unchecked Sendable {  // guarded by lock
    private let lock = NSLock()
    private var stored: Error?
    var error: Error? { lock.withLock { stored } }
    func record(_ error: Error) { lock.withLock { if stored == nil { stored = error } } }
}
