import Foundation

/// Reuse is judged between passwords, and between PINs, never across.
struct ReuseKey: Hashable, Sendable {
    let sha1: [UInt8]
    let isPIN: Bool
}

/// The costly, per-password part of an analysis, kept between reports.
struct PasswordFacts: Sendable, Equatable {
    /// What the facts depend on; when these are equal the facts still hold.
    struct Inputs: Sendable, Equatable {
        let password: String
        let accountWords: [String]
        let isPIN: Bool

        init?(_ entry: Entry) {
            guard let password = entry.password, !password.isEmpty else { return nil }
            self.password = password
            isPIN = PINRules.isPIN(entry)
            let site = Domain.site(of: entry.site).split(separator: ".").first.map(String.init) ?? ""
            let user = entry.username.split(separator: "@").first.map(String.init) ?? ""
            accountWords = [user, site, entry.title].filter { !$0.isEmpty }
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

    /// Evaluates many entries on every core; nil for entries with no password.
    static func evaluateConcurrently(_ entries: [Entry], breaches: BreachCorpus) throws -> [PasswordFacts?] {
        let results = UnsafeMutableBufferPointer<PasswordFacts?>.allocate(capacity: entries.count)
        results.initialize(repeating: nil)
        defer { results.deinitialize(); results.deallocate() }
        let failure = FirstFailure()
        let chunk = 64
        let chunks = (entries.count + chunk - 1) / chunk
        nonisolated(unsafe) let shared = results  // each chunk writes its own slots
        DispatchQueue.concurrentPerform(iterations: chunks) { index in
            for i in index * chunk..<min(entries.count, (index + 1) * chunk) {
                guard let inputs = Inputs(entries[i]) else { continue }
                do { shared[i] = try evaluate(inputs, breaches: breaches) } catch { failure.record(error) }
            }
        }
        if let error = failure.error { throw error }
        return Array(results)
    }
}

/// The first error thrown by concurrent work.
private final class FirstFailure: @unchecked Sendable {  // guarded by lock
    private let lock = NSLock()
    private var stored: Error?
    var error: Error? { lock.withLock { stored } }
    func record(_ error: Error) { lock.withLock { if stored == nil { stored = error } } }
}
