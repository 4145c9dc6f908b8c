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
/// `backoff`); a host that cannot be reached is not. Each answer is held
/// to `byteLimit` bytes (inflated) and `totalTime` seconds (`CappedFetch`):
/// a real range answer, padded, is under 100 KB.
final class RangeClient: Sendable {
    let base: URL
    let timeout: TimeInterval
    let totalTime: TimeInterval
    let attempts: Int
    let backoff: TimeInterval
    private let session: URLSession
    private let fetcher: CappedFetch
    static let byteLimit = 1 << 20

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

    init(base: URL, timeout: TimeInterval = 10, totalTime: TimeInterval = 30, attempts: Int = 4, backoff: TimeInterval = 0.5, parallel: Int,
         byteLimit: Int = RangeClient.byteLimit) {
        self.base = base
        self.timeout = timeout
        self.totalTime = totalTime
        self.attempts = attempts
        self.backoff = backoff
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.httpMaximumConnectionsPerHost = parallel
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil          // answers are kept sealed by bulwark, never by Foundation in the clear
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        fetcher = CappedFetch(byteLimit: byteLimit)
        session = URLSession(configuration: configuration, delegate: fetcher, delegateQueue: nil)
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
            case .failure(.limit(let why)):
                return .failure(.malformed(why))
            }
            if attempt < attempts - 1 { Thread.sleep(forTimeInterval: wait) }
        }
        return .failure(.refused("\(lastReason), \(attempts) tries"))
    }

    private enum Attempt: Error {
        case unreachable(String)
        case retry(String, after: TimeInterval?)
        case final(String)
        /// Over the size or time an answer may take: not tried again.
        case limit(String)
    }

    private func once(_ prefix: String) -> Result<Data, Attempt> {
        var request = URLRequest(url: url(for: prefix), cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        request.setValue("true", forHTTPHeaderField: "Add-Padding")
        request.setValue("bulwark/\(Usage.version)", forHTTPHeaderField: "User-Agent")
        switch fetcher.fetch(request, session: session, deadline: totalTime) {
        case .tooLarge(let limit):
            return .failure(.limit("the answer passed \(limit >> 10) KiB (a range answer is under 100 KB), and was cut off"))
        case .tooSlow(let seconds):
            return .failure(.limit("the answer took more than \(Self.seconds(seconds)) in all, and was cut off"))
        case .failed(let error):
            if let error = error as? URLError {
                switch error.code {
                case .timedOut: return .failure(.retry("timed out after \(Self.seconds(timeout))", after: nil))
                case .cannotFindHost, .dnsLookupFailed: return .failure(.unreachable("no such host"))
                case .cannotConnectToHost: return .failure(.unreachable("the connection was refused or has no route"))
                case .notConnectedToInternet: return .failure(.unreachable("no network"))
                default: return .failure(.retry(error.localizedDescription, after: nil))
                }
            }
            return .failure(.retry("\(error)", after: nil))
        case .answered(let http, let data):
            switch http.statusCode {
            case 200: return .success(data)
            case 429:
                let after = (http.value(forHTTPHeaderField: "Retry-After")).flatMap(TimeInterval.init)
                return .failure(.retry("429 Too Many Requests", after: after))
            case 500...599: return .failure(.retry("HTTP \(http.statusCode)", after: nil))
            default: return .failure(.final("HTTP \(http.statusCode)"))
            }
        }
    }

    static func seconds(_ value: TimeInterval) -> String {
        value == value.rounded() ? "\(Int(value)) s" : String(format: "%.1f s", value)
    }
}
