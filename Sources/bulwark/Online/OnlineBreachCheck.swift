import BulwarkCore
import Foundation

/// `analyze --online`: the vault's passwords looked up in a Pwned
/// Passwords range API by the 5-hex-digit prefixes of their SHA-1s (each
/// distinct prefix asked once, answered ones taken from the sealed cache
/// for a week), a few at a time. What comes back joins the breach corpora
/// as one more; what fails is said, and the offline checks stand.
struct OnlineBreachCheck {
    let client: RangeClient
    let parallel: Int

    struct Outcome {
        /// The hits as a corpus (nil when no password is in any range).
        var corpus: PwnedPasswordsFile?
        /// The distinct passwords looked up.
        var passwords = 0
        var asked = 0
        var answered = 0
        var fromCache = 0
        var failures: [String: RangeClient.Failure] = [:]
        var unreachable: String?
    }

    /// The passwords' SHA-1s (the empty and missing left out), once each.
    private static func hashes(of entries: [Entry]) -> [[UInt8]] {
        var seen = Set<[UInt8]>()
        return entries.compactMap { entry in
            guard let password = entry.password, !password.isEmpty else { return nil }
            let digest = Digest.sha1(Array(password.utf8))
            return seen.insert(digest).inserted ? digest : nil
        }
    }

    func run(vault: Vault, cacheDirectory: URL, now: Date = Date()) -> Outcome {
        let sha1s = Self.hashes(of: vault.entries)
        let prefixes = Set(sha1s.map(PwnedRange.prefix))
        var cache = RangeCache.load(for: vault, in: cacheDirectory, now: now)
        var ranges = cache.answered(prefixes)
        var outcome = Outcome()
        outcome.passwords = sha1s.count
        outcome.fromCache = ranges.count
        let missing = prefixes.subtracting(ranges.keys).sorted()
        outcome.asked = missing.count

        let (answers, unreachable) = Self.fetch(missing, client: client, parallel: parallel)
        outcome.unreachable = unreachable
        for (prefix, answer) in answers {
            switch answer {
            case .success(let hits):
                outcome.answered += 1
                ranges[prefix] = hits
                cache.keep(hits, for: prefix, fetched: now)
            case .failure(.unreachable): break
            case .failure(let failure): outcome.failures[prefix] = failure
            }
        }
        if outcome.answered > 0 {
            do { try cache.save(for: vault) } catch { Output.warning("online: the cache could not be written (\(error)); the next analysis asks again.") }
        }
        outcome.corpus = PwnedRange.corpus(named: "Pwned Passwords online (\(client.base.host ?? client.base.absoluteString))", sha1s: sha1s, ranges: ranges)
        return outcome
    }

    /// The ranges of these prefixes, a few requests in flight at once, each
    /// on a thread of its own (a blocked worker of Dispatch's shared pool is
    /// replaced only about once a second, and URLSession needs that pool to
    /// answer); once the host is found unreachable the rest are not tried.
    static func fetch(_ prefixes: [String], client: RangeClient, parallel: Int)
        -> (answers: [String: Result<[String: Int], RangeClient.Failure>], unreachable: String?) {
        let lock = NSLock()
        nonisolated(unsafe) var queue = prefixes[...]
        nonisolated(unsafe) var answers: [String: Result<[String: Int], RangeClient.Failure>] = [:]
        nonisolated(unsafe) var unreachable: String?
        let group = DispatchGroup()
        for _ in 0..<min(parallel, prefixes.count) {
            group.enter()
            Thread {
                defer { group.leave() }
                while let prefix = lock.withLock({ unreachable == nil ? queue.popFirst() : nil }) {
                    let answer = client.range(prefix)
                    lock.withLock {
                        answers[prefix] = answer
                        if case .failure(.unreachable(let why)) = answer, unreachable == nil { unreachable = why }
                    }
                }
            }.start()
        }
        group.wait()
        return (answers, unreachable)
    }

    /// What to tell the person on standard error.
    static func report(_ outcome: Outcome, base: URL) -> String {
        let host = base.host ?? base.absoluteString
        var text = "online: \(outcome.asked + outcome.fromCache) SHA-1 prefixes of \(outcome.passwords) passwords: "
        text += "\(outcome.asked) asked of \(base.absoluteString) (\(outcome.answered) answered), \(outcome.fromCache) from the cache (answers younger than 7 days). "
        text += "Only the first 5 hex digits of each hash left this machine.\n"
        if let why = outcome.unreachable {
            text += "online: cannot reach \(host) (\(why)): the offline checks were done; a password breached since your local corpora were made may be missed.\n"
        }
        for (prefix, failure) in outcome.failures.sorted(by: { $0.key < $1.key }) {
            text += "online: range \(prefix) was not used (\(failure.text)); its passwords were checked offline only.\n"
        }
        return text
    }
}
