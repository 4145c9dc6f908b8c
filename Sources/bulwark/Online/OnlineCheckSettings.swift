import BulwarkCore
import Foundation

/// How `analyze --online` asks: 8 requests at a time, 10 s a try (30 s in
/// all for one answer, however it trickles), 4 tries.
/// `BULWARK_RANGE_TIMEOUT`, `BULWARK_RANGE_TOTAL` and `BULWARK_RANGE_BACKOFF`
/// (seconds) change the idle limit, the whole answer's and the first wait,
/// for a slow mirror or a test.
enum OnlineCheckSettings {
    static let parallel = 8

    static func check(vault: Vault, base: URL, environment: [String: String] = ProcessInfo.processInfo.environment) -> OnlineBreachCheck.Outcome {
        OnlineBreachCheck(client: client(base: base, environment: environment), parallel: parallel)
            .run(vault: vault, cacheDirectory: RangeCache.directory(environment: environment))
    }

    static func client(base: URL, environment: [String: String] = ProcessInfo.processInfo.environment) -> RangeClient {
        // Whole seconds: FoundationNetworking on Linux ends a request with a time-out at once when its limit is under one.
        let timeout = environment["BULWARK_RANGE_TIMEOUT"].flatMap(TimeInterval.init).map { max(1, $0.rounded(.up)) } ?? 10
        let backoff = environment["BULWARK_RANGE_BACKOFF"].flatMap(TimeInterval.init).map { max(0, $0) } ?? 0.5
        let total = environment["BULWARK_RANGE_TOTAL"].flatMap(TimeInterval.init).map { max(1, $0) } ?? max(30, 3 * timeout)
        return RangeClient(base: base, timeout: timeout, totalTime: total, backoff: backoff, parallel: parallel)
    }
}
