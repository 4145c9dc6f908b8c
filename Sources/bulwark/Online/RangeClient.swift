import BulwarkCore
import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Asks a Pwned Passwords range API for one prefix: `GET BASE/ABCDE` with
/// `Add-Padding: true`, nothing else about the password. A time limit on
/// each try; 429 and 5xx answers and time-outs are tried again after a
/// wait (429's Retry-After when it gives one, else doubling from
/// `backoff`); a host that cannot be reached is not.
final class RangeClient: Sendable {
    let base: URL
    let timeout: TimeInterval
    let attempts: Int
    let backoff: TimeInterval
    private let session: URLSession

    enum Failure: Error, Equatable {
        /// The host cannot be reached at all (no network, no such host, refused).
        case unreachable(String)
        /// It answered, but never a range, after every try.
        case refused(String)
        case malformed(String)

        var text: String {
            switch self {
            case .unreachable(let why), .refused(let why), .malformed(let why): why
            }
        }
    }

    init(base: URL, timeout: TimeInterval = 10, attempts: Int = 4, backoff: TimeInterval = 0.5, parallel: Int) {
        self.base = base
        self.timeout = timeout
        self.attempts = attempts
        self.backoff = backoff
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.httpMaximumConnectionsPerHost = parallel
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil          // answers are kept sealed by bulwark, never by Foundation in the clear
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        session = URLSession(configuration: configuration)
        Self.kept.withLock { $0.append(session) }
    }

    /// Every session made lives until the process ends. Releasing one
    /// (with or without invalidateAndCancel) while FoundationNetworking's
    /// own threads still wound it down crashed the process under load, at
    /// random places after the check (SIGILL in libdispatch, in ICU, in
    /// zxcvbn); a command makes one session, so keeping it costs nothing.
    private static let kept = Mutex<[URLSession]>([])

    /// The URL asked for `prefix`: the base with the prefix as its last path segment.
    func url(for prefix: String) -> URL { base.appendingPathComponent(prefix) }

    /// The answer's breached suffixes; tries again as described above.
    func range(_ prefix: String) -> Result<[String: Int], Failure> {
        var lastReason = "no answer"
        for attempt in 0..<attempts {
            var wait = backoff * Double(1 << attempt)
            switch once(prefix) {
            case .success(let body):
                do { return .success(try PwnedRange.parse(body)) } catch { return .failure(.malformed("the answer is not a range (\(error))")) }
            case .failure(.unreachable(let why)):
                return .failure(.unreachable(why))
            case .failure(.retry(let why, let after)):
                lastReason = why
                if let after { wait = min(after, 30) }
            case .failure(.final(let why)):
                return .failure(.refused(why))
            }
            if attempt < attempts - 1 { Thread.sleep(forTimeInterval: wait) }
        }
        return .failure(.refused("\(lastReason), \(attempts) tries"))
    }

    private enum Attempt: Error {
        case unreachable(String)
        case retry(String, after: TimeInterval?)
        case final(String)
    }

    private func once(_ prefix: String) -> Result<Data, Attempt> {
        var request = URLRequest(url: url(for: prefix), cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        request.setValue("true", forHTTPHeaderField: "Add-Padding")
        request.setValue("bulwark/\(Usage.version)", forHTTPHeaderField: "User-Agent")
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var outcome: Result<Data, Attempt> = .failure(.retry("no answer", after: nil))
        let task = session.dataTask(with: request) { data, response, error in
            defer { done.signal() }
            if let error = error as? URLError {
                switch error.code {
                case .timedOut: outcome = .failure(.retry("timed out after \(Self.seconds(self.timeout))", after: nil))
                case .cannotFindHost, .dnsLookupFailed: outcome = .failure(.unreachable("no such host"))
                case .cannotConnectToHost: outcome = .failure(.unreachable("the connection was refused or has no route"))
                case .notConnectedToInternet: outcome = .failure(.unreachable("no network"))
                default: outcome = .failure(.retry(error.localizedDescription, after: nil))
                }
                return
            }
            if let error { outcome = .failure(.retry("\(error)", after: nil)); return }
            guard let http = response as? HTTPURLResponse else { outcome = .failure(.final("not an HTTP answer")); return }
            switch http.statusCode {
            case 200: outcome = .success(data ?? Data())
            case 429:
                let after = (http.value(forHTTPHeaderField: "Retry-After")).flatMap(TimeInterval.init)
                outcome = .failure(.retry("429 Too Many Requests", after: after))
            case 500...599: outcome = .failure(.retry("HTTP \(http.statusCode)", after: nil))
            default: outcome = .failure(.final("HTTP \(http.statusCode)"))
            }
        }
        task.resume()
        done.wait()
        return outcome
    }

    static func seconds(_ value: TimeInterval) -> String {
        value == value.rounded() ? "\(Int(value)) s" : String(format: "%.1f s", value)
    }
}
